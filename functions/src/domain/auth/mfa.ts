/**
 * The second factor's use cases (issue 21 part 2): enrolment, turning it off, the sign-in challenge
 * and an admin's reset. The secret is sealed like the prompts' keys (commons/secrets.ts); recovery
 * codes are stored hashed; each accepted time step and recovery code is spent once.
 */
import { randomBytes } from 'node:crypto';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#commons/errors';
import { openSecret, sealSecret } from '#commons/secrets';
import { MFA_CHALLENGE_SECONDS, MFA_CHALLENGE_TRIES, type MfaChallengeResponse, type MfaSetupResponse, TOTP_CODE } from '#contracts/mfa';
import { mfaPolicyApplies } from '#contracts/session';
import { recordAudit } from '#domain/audit/record';
import { getSettingCached } from '#storage/settings';
import {
  clearMfa,
  countMfaChallengeTry,
  enableMfa,
  getMfaChallenge,
  type MfaChallengeRecord,
  putMfaChallenge,
  setPendingMfaSecret,
  takeMfaChallenge,
  useMfaStep,
  useRecoveryCode,
} from '#storage/users/mfa';
import { getUser, type UserRecord } from '#storage/users/users';
import { accountMfaLimit, beginAttempt } from './attempt-limits.ts';
import { newRecoveryCodes, newTotp, recoveryCodeHash, totpStep } from './totp.ts';

const wrongCode = () => new ValidationError('code', 'Invalid code', 'ERR_MFA_INVALID_CODE');
const expiredChallenge = () => new ValidationError('challenge', 'Invalid or expired challenge', 'ERR_MFA_CHALLENGE_EXPIRED');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The company's `mfaRequired` setting asks this user for a second factor. */
export async function mfaRequiredOf(user: Pick<UserRecord, 'companyId' | 'profile' | 'super'>): Promise<boolean> {
  return mfaPolicyApplies(await getSettingCached(user.companyId, 'mfaRequired'), user);
}

/** POST /auth/mfa/setup: a new secret, pending until a code of it is verified. */
export async function setupMfa(user: UserRecord): Promise<MfaSetupResponse> {
  if (user.mfaEnabled) throw new ConflictError('ERR_MFA_ALREADY_ENABLED');
  const { secret, otpauthUrl } = await newTotp(user.email);
  if (!(await setPendingMfaSecret(user.companyId, user.id, await sealSecret(secret)))) throw new ConflictError('ERR_MFA_ALREADY_ENABLED');
  return { secret, otpauthUrl };
}

/**
 * Checks a code of the user's enrolled factor and spends it: a TOTP code's step, or one recovery
 * code. Wrong codes count against the user's budget (accountMfaLimit), whatever route they came by.
 */
async function spendCode(user: UserRecord, code: string): Promise<boolean> {
  const attempt = await beginAttempt([accountMfaLimit(user.companyId, user.id)]);
  let right = false;
  if (TOTP_CODE.test(code)) {
    const secret = user.mfaSecret ? await openSecret(user.mfaSecret) : undefined;
    const step = secret ? await totpStep(secret, code, user.mfaLastStep) : null;
    right = step !== null && (await useMfaStep(user.companyId, user.id, step));
  } else {
    const hash = recoveryCodeHash(user.companyId, user.id, code);
    const index = (user.mfaRecoveryHashes ?? []).indexOf(hash);
    right = index >= 0 && (await useRecoveryCode(user.companyId, user.id, index, hash));
  }
  if (right) await attempt.refund();
  return right;
}

/** POST /auth/mfa/verify: a code of the pending secret turns the factor on for this sign-in too. */
export async function verifyMfa(user: UserRecord, code: string, originJti: string): Promise<{ recoveryCodes: string[] }> {
  if (user.mfaEnabled) throw new ConflictError('ERR_MFA_ALREADY_ENABLED');
  if (!user.mfaPendingSecret) throw new ValidationError('code', 'Set up the authenticator first', 'ERR_MFA_SETUP_REQUIRED');
  const attempt = await beginAttempt([accountMfaLimit(user.companyId, user.id)]);
  const step = await totpStep(await openSecret(user.mfaPendingSecret), code, null);
  if (step === null) throw wrongCode();
  const recoveryCodes = newRecoveryCodes();
  const enabled = await enableMfa(user.companyId, user.id, {
    pendingSecret: user.mfaPendingSecret,
    step,
    recoveryHashes: recoveryCodes.map((shown) => recoveryCodeHash(user.companyId, user.id, shown.replace('-', ''))),
    origin: originJti || null,
  });
  // Another setup replaced the secret meanwhile: this code was of the old one.
  if (!enabled) throw wrongCode();
  await attempt.refund();
  await recordAudit({ action: 'mfa.enabled', targetType: 'user', targetId: user.id, companyId: user.companyId });
  return { recoveryCodes };
}

/** DELETE /auth/mfa: a current code (or a recovery code) turns it off, unless the company requires it. */
export async function disableMfa(user: UserRecord, code: string): Promise<void> {
  if (!user.mfaEnabled) throw new ConflictError('ERR_MFA_NOT_ENABLED');
  if (await mfaRequiredOf(user)) throw new ForbiddenError('ERR_MFA_REQUIRED_BY_COMPANY');
  if (!(await spendCode(user, code))) throw wrongCode();
  await clearMfa(user.companyId, user.id);
  await recordAudit({ action: 'mfa.disabled', targetType: 'user', targetId: user.id, companyId: user.companyId });
}

/**
 * DELETE /users/{id}/mfa: the company's admin resets one of its users (a super user, any company's);
 * the user enrols again. Another company's user is not found; a super user's factor only a super resets.
 */
export async function resetUserMfa(
  caller: { companyId: number; super: boolean },
  target: { companyId: number; userId: number },
): Promise<void> {
  if (!caller.super && target.companyId !== caller.companyId) throw new NotFoundError('ERR_NO_USER_FOUND');
  const user = await getUser(target.companyId, target.userId);
  if (!user) throw new NotFoundError('ERR_NO_USER_FOUND');
  if (user.super && !caller.super) throw new ForbiddenError('ERR_NO_PERMISSION');
  await clearMfa(user.companyId, user.id);
  // In the trail of the user's company, whoever reset it (a super user may be of another).
  await recordAudit({ action: 'mfa.reset', targetType: 'user', targetId: user.id, companyId: user.companyId });
}

/** A sign-in by password (or a Cognito token) of a user with the factor on: the session waits for the code. */
export async function openMfaChallenge(
  user: Pick<UserRecord, 'companyId' | 'id'>,
  tokens: { idToken: string; accessToken?: string; refreshToken?: string | null },
): Promise<MfaChallengeResponse> {
  const challenge = randomBytes(32).toString('base64url');
  await putMfaChallenge(challenge, {
    companyId: user.companyId,
    userId: user.id,
    sealedToken: await sealSecret(tokens.idToken),
    sealedRefreshToken: tokens.refreshToken ? await sealSecret(tokens.refreshToken) : null,
    sealedAccessToken: tokens.accessToken ? await sealSecret(tokens.accessToken) : null,
    tries: 0,
    expiresAt: nowSeconds() + MFA_CHALLENGE_SECONDS,
  });
  return { mfaRequired: true, challenge };
}

/**
 * POST /auth/mfa/challenge: the right code (once) hands back the sign-in's tokens, which then claim
 * the session (auth-service.ts). MFA_CHALLENGE_TRIES wrong codes burn the challenge.
 */
export async function passMfaChallenge(
  challenge: string,
  code: string,
): Promise<{ user: UserRecord; idToken: string; accessToken: string | null; refreshToken: string | null }> {
  const record: MfaChallengeRecord | undefined = await getMfaChallenge(challenge, nowSeconds());
  if (!record) throw expiredChallenge();
  const tries = await countMfaChallengeTry(challenge, MFA_CHALLENGE_TRIES, nowSeconds());
  if (tries === false) {
    await takeMfaChallenge(challenge);
    throw expiredChallenge();
  }
  const user = await getUser(record.companyId, record.userId);
  // The factor was reset or turned off since: this sign-in has to start over.
  if (!user?.mfaEnabled) throw expiredChallenge();
  if (!(await spendCode(user, code))) {
    if (tries >= MFA_CHALLENGE_TRIES) await takeMfaChallenge(challenge);
    throw wrongCode();
  }
  if (!(await takeMfaChallenge(challenge))) throw expiredChallenge();
  return {
    user,
    idToken: await openSecret(record.sealedToken),
    refreshToken: record.sealedRefreshToken ? await openSecret(record.sealedRefreshToken) : null,
    accessToken: record.sealedAccessToken ? await openSecret(record.sealedAccessToken) : null,
  };
}
