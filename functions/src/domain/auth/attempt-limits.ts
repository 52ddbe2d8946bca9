/**
 * Limits on guessing secrets: passwords (POST /auth/login), reset codes (POST /resetpasswords/...)
 * and connection tokens (POST /api/messages/send). Counted in DynamoDB (storage/rate-limits.ts),
 * so every Lambda container sees the same counts.
 *
 * A password or reset-code attempt is counted before the secret is checked and handed back when the secret was right: a
 * burst of parallel guesses cannot all pass a check made before any of them was counted, and good
 * sign-ins never use up the budget. A refused attempt is handed back too, so retrying while locked
 * does not lengthen the lockout or eat another counter's budget. Connection tokens, long enough not
 * to be guessed, use the cheaper check-then-count-failures form (assertNotLocked / countFailure).
 */
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { AppError } from '#commons/errors';
import { hitPlatformWindow, peekPlatformWindow, refundWindow, type WindowHit } from '#storage/rate-limits';

export const ATTEMPT_WINDOW_SECONDS = 15 * 60;
/** Wrong passwords per account (email) per window. */
export const ACCOUNT_PASSWORD_LIMIT = 5;
/** Wrong passwords and wrong reset codes per client address per window. */
export const ADDRESS_SECRET_LIMIT = 20;
/** Unknown connection tokens per client address per window on the external API. */
export const ADDRESS_API_TOKEN_LIMIT = 20;
/** Reset-code requests per email per window (each one mails the user). */
export const RESET_REQUEST_LIMIT = 5;
/** Tries that burn a reset code (counted on the code itself, storage/users/reset-codes.ts): the user must ask for a new one. */
export const RESET_CODE_ATTEMPTS = 5;

/** 429: too many wrong secrets from this account or address; `retryAfter` in seconds. */
export class TooManyAttemptsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('ERR_TOO_MANY_ATTEMPTS', 429, { retryAfter: retryAfterSeconds });
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * The address a limit counts by. An IPv6 client usually holds a whole /64, so that is one address
 * here; without an address (a direct invoke) every such caller shares one counter.
 */
export function addressKey(sourceIp: string | undefined): string {
  const ip = (sourceIp ?? '').trim();
  if (!isIPv6(ip)) return ip || 'unknown';
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

export interface Limit {
  scope: string;
  max: number;
}

export const accountPasswordLimit = (email: string): Limit => ({
  scope: `LOGIN#${digest(email.toLowerCase())}`,
  max: ACCOUNT_PASSWORD_LIMIT,
});
export const addressSecretLimit = (sourceIp: string | undefined): Limit => ({
  scope: `SECRET#${digest(addressKey(sourceIp))}`,
  max: ADDRESS_SECRET_LIMIT,
});
export const addressApiTokenLimit = (sourceIp: string | undefined): Limit => ({
  scope: `APITOKEN#${digest(addressKey(sourceIp))}`,
  max: ADDRESS_API_TOKEN_LIMIT,
});
/** Wrong second-factor codes per user per window, across challenges: a new sign-in is no new budget. */
export const accountMfaLimit = (companyId: number, userId: number): Limit => ({
  scope: `MFA#${companyId}#${userId}`,
  max: ACCOUNT_PASSWORD_LIMIT,
});
export const resetRequestLimit = (email: string): Limit => ({ scope: `RESETREQ#${digest(email.toLowerCase())}`, max: RESET_REQUEST_LIMIT });

export interface Attempt {
  /** The secret was right (or never checked): the attempt does not count. */
  refund(): Promise<void>;
}

/** Counts one attempt against each limit; over any of them, nothing is tried: 429 until its window ends. */
export async function beginAttempt(limits: Limit[], nowMs = Date.now()): Promise<Attempt> {
  const hits = await Promise.all(limits.map((limit) => hitPlatformWindow(limit.scope, ATTEMPT_WINDOW_SECONDS, nowMs)));
  const refund = async () => {
    await Promise.all(hits.map((counted: WindowHit) => refundWindow(counted)));
  };
  const over = hits.filter((counted, i) => counted.count > (limits[i]?.max ?? 0));
  if (over.length) {
    await refund();
    throw new TooManyAttemptsError(Math.max(...over.map((counted) => counted.resetInSeconds)));
  }
  return { refund };
}

/**
 * The cheaper form for a secret nobody can guess in a few thousand tries (a connection token of 16+
 * characters): refuse while over the limit, count only failures. A burst may overshoot the limit by
 * its own size once, but a client's parallel good requests are never counted against each other.
 */
export async function assertNotLocked(limit: Limit, nowMs = Date.now()): Promise<void> {
  const seen = await peekPlatformWindow(limit.scope, ATTEMPT_WINDOW_SECONDS, nowMs);
  if (seen.count >= limit.max) throw new TooManyAttemptsError(seen.resetInSeconds);
}

export async function countFailure(limit: Limit, nowMs = Date.now()): Promise<void> {
  await hitPlatformWindow(limit.scope, ATTEMPT_WINDOW_SECONDS, nowMs);
}
