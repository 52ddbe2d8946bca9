/**
 * Password reset by a code of our own (SPEC 4 "Password reset", SPEC 7 POST /forgetpassword and POST
 * /resetpasswords; issue 21). The pool's recovery is admin-only (infra/lib/account-recovery.ts), so
 * Cognito issues and confirms no code of its own: this is the only way a forgotten password changes,
 * and every wrong code is counted here and every reset audited.
 *
 * Step one mails a random 8-digit code (crypto-random) and stores only its keyed digest, with a
 * wrong-try counter, for an hour (storage/users/reset-codes.ts); a new request replaces the earlier code.
 * Every address gets the same answer in no less than the same time, mailed or not. Step two counts the
 * try before it checks the code (so a burst cannot pass the counter together), compares the digests
 * in constant time, spends the code (single use) and only then sets the password (AdminSetUserPassword,
 * permanent), ends every session of the user and writes the audit entry. RESET_CODE_ATTEMPTS tries
 * burn the code, on top of the per-address limit on wrong secrets (attempt-limits.ts).
 *
 * The mail and the password are the caller's ports (the handler wires SES and Cognito), so this file
 * knows no AWS client.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import { keyedDigest } from '#commons/secrets';
import { MASKED } from '#contracts/audit-mask';
import { recordAudit } from '#domain/audit/record';
import { countResetCodeTry, getResetCode, putResetCode, spendResetCode } from '#storage/users/reset-codes';
import { getUserByEmail, type UserRecord } from '#storage/users/users';
import { addressSecretLimit, beginAttempt, RESET_CODE_ATTEMPTS, resetRequestLimit } from './attempt-limits.ts';
import type { ClientInfo } from './auth-service.ts';
import { type MailLanguage, resetCodeMail } from './reset-mail.ts';
import { endUserSessions } from './session.ts';

/** Known and unknown addresses take at least this long to answer, so timing does not tell them apart. */
export const RESET_REQUEST_MIN_MS = 1000;
/** A code lives an hour, as Cognito's did. */
export const RESET_CODE_LIFETIME_SECONDS = 60 * 60;
/** 10^8 codes: with 5 tries a code and 5 codes an address per 15 minutes, ~1 in 4 million per window. */
export const RESET_CODE_DIGITS = 8;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What a reset needs from outside: the handler wires SES and Cognito, a test its own fakes. */
export interface PasswordResetPorts {
  sendMail(mail: OutgoingMail): Promise<void>;
  /** Sets the user's password for good; a password the pool refuses throws the weak-password ValidationError. */
  setPassword(email: string, password: string): Promise<void>;
}

const INVALID_CODE = () => new ValidationError('token', 'Invalid or expired code', 'ERR_INVALID_RESET_CODE');
const BURNT_CODE = () => new ValidationError('token', 'Too many wrong codes: request a new one', 'ERR_INVALID_RESET_CODE');

export const newResetCode = (): string => String(randomInt(0, 10 ** RESET_CODE_DIGITS)).padStart(RESET_CODE_DIGITS, '0');

const normalised = (email: string) => email.trim().toLowerCase();
const digestOf = (email: string, code: string) => keyedDigest('password-reset-code', `${normalised(email)}\n${code.trim()}`);

/**
 * Step one. The answer is the same for every address (known or not, mailed or not): only the owner of
 * a known address learns anything, from their mailbox. A mail SES refuses is logged, not raised, for the
 * same reason (an unknown address never reaches SES).
 */
export async function requestPasswordReset(
  input: { email: string; language: MailLanguage },
  ports: PasswordResetPorts,
  minDurationMs = RESET_REQUEST_MIN_MS,
): Promise<void> {
  const until = Date.now() + minDurationMs;
  try {
    await beginAttempt([resetRequestLimit(input.email)]);
    // Users exist in our table and in Cognito; a Cognito-only leftover is not a user of the product.
    const user = await getUserByEmail(input.email);
    if (user) {
      await issueResetCode(user, input.language, ports);
      await recordAudit({
        companyId: user.companyId,
        userId: user.id,
        userName: user.name,
        action: 'auth.passwordResetRequested',
        targetType: 'user',
        targetId: user.id,
      });
    }
  } finally {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));
  }
}

/** Stores a new code for the user (the earlier one stops working), then mails it. */
export async function issueResetCode(
  user: UserRecord,
  language: MailLanguage,
  ports: PasswordResetPorts,
  nowMs = Date.now(),
): Promise<void> {
  const code = newResetCode();
  await putResetCode(user.email, {
    codeHash: await digestOf(user.email, code),
    tries: 0,
    expiresAt: Math.floor(nowMs / 1000) + RESET_CODE_LIFETIME_SECONDS,
    companyId: user.companyId,
    userId: user.id,
  });
  const mail = resetCodeMail({ language, name: user.name, email: user.email, code, minutes: RESET_CODE_LIFETIME_SECONDS / 60 });
  try {
    await ports.sendMail({ to: user.email, ...mail });
  } catch (error) {
    logger.error('password-reset mail not sent', { error: error as Error, companyId: user.companyId, userId: user.id });
  }
}

/**
 * Step two. A wrong code counts against the code (RESET_CODE_ATTEMPTS burn it) and the client's
 * address; an unknown address, or one with no code, is answered like a wrong code.
 */
export async function resetPassword(
  input: { email: string; token: string; newPassword: string },
  client: ClientInfo,
  ports: PasswordResetPorts,
  nowMs = Date.now(),
): Promise<void> {
  const attempt = await beginAttempt([addressSecretLimit(client.sourceIp)]);
  const now = Math.floor(nowMs / 1000);
  const held = await countResetCodeTry(input.email, RESET_CODE_ATTEMPTS, now);
  if (!held) {
    // A burnt code says so (and the owner's retry costs the address nothing); no code is a wrong guess.
    if (await getResetCode(input.email, now)) {
      await attempt.refund();
      throw BURNT_CODE();
    }
    throw INVALID_CODE();
  }
  const given = Buffer.from(await digestOf(input.email, input.token), 'hex');
  const stored = Buffer.from(held.codeHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw INVALID_CODE();
  // Spent before the password changes: two requests holding the code cannot both pass.
  if (!(await spendResetCode(input.email, held.codeHash))) throw INVALID_CODE();
  const user = await getUserByEmail(input.email);
  // The address changed hands since the code was mailed (user removed, e-mail moved): the code dies with it.
  if (!user || user.id !== held.userId || user.companyId !== held.companyId) throw INVALID_CODE();
  try {
    await ports.setPassword(user.email, input.newPassword);
  } catch (error) {
    // The pool refused the password (or Cognito failed): the code is handed back for another try.
    await putResetCode(input.email, held);
    await attempt.refund();
    throw error;
  }
  await attempt.refund();
  await recordAudit({
    companyId: user.companyId,
    userId: user.id,
    userName: user.name,
    action: 'auth.passwordReset',
    targetType: 'user',
    targetId: user.id,
    changes: { password: { from: MASKED, to: MASKED } },
  });
  // Whoever held the old password loses the sessions it opened.
  await endUserSessions(user.companyId, user.id);
}
