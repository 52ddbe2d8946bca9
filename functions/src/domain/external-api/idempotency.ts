/**
 * Sends that are safe to retry (issue 23 §3): with `Idempotency-Key: <1..255 characters>` the
 * first request with that key claims it (one conditional put) BEFORE anything is sent, then stores
 * its answer; for 24 h the same key answers:
 *   - the same body: the first answer again (status and body; the caller marks it replayed), nothing sent;
 *   - another body (or another connection of the company): 422 ERR_IDEMPOTENCY_KEY_REUSED;
 *   - the same body while the first is still running: 409 ERR_IDEMPOTENCY_KEY_IN_USE, retry shortly.
 * Keys belong to the company of the connection token: the same key of two tenants never meets.
 * A first answer of 5xx releases the claim (nothing went out that we know of), so a retry sends.
 * A request that dies between claim and answer (the Lambda timed out) leaves a claim that holds
 * CLAIM_LOCK_SECONDS, four times the function's 15 s timeout; after that the same body takes it
 * over. That trades a key stuck for a day against a second send in the rare case the dead request
 * had queued its message before dying.
 * The body is the send as parsed: the number and bodies as given, each file by name, type and
 * SHA-256 of its bytes (multipart sends take keys too; their boundary does not count).
 */
import { createHash, randomUUID } from 'node:crypto';
import { AppError } from '#commons/errors';
import { logger } from '#commons/logger';
import { claimIdempotencyKey, recordIdempotentAnswer, releaseIdempotencyKey } from '#storage/idempotency-keys';
import type { ExternalSend, ExternalSender } from './send.ts';

export const IDEMPOTENCY_KEY_MAX = 255;
export const IDEMPOTENCY_KEY_HOURS = 24;
export const CLAIM_LOCK_SECONDS = 60;

export class IdempotencyKeyInvalidError extends AppError {
  constructor() {
    super('ERR_IDEMPOTENCY_KEY_INVALID', 400, {
      message: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters; send a unique id (a UUID) per message, or no header.`,
    });
  }
}

export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super('ERR_IDEMPOTENCY_KEY_REUSED', 422, {
      message: `This Idempotency-Key was used in the last ${IDEMPOTENCY_KEY_HOURS} h with another body or connection; use a new key for a new message.`,
    });
  }
}

export class IdempotencyKeyInUseError extends AppError {
  constructor() {
    super('ERR_IDEMPOTENCY_KEY_IN_USE', 409, {
      message: 'A request with this Idempotency-Key is still being sent; retry in a second to get its answer.',
      retryAfter: 1,
    });
  }
}

/** The header's value when present: 1..255 characters (code points), else a 400. */
export function idempotencyKey(raw: string): string {
  const length = [...raw].length;
  if (length < 1 || length > IDEMPOTENCY_KEY_MAX) throw new IdempotencyKeyInvalidError();
  return raw;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** What "the same body" means: the connection, the number and bodies as sent, each file's name, type and bytes. */
export function sendFingerprint(sender: ExternalSender, send: ExternalSend): string {
  return sha256(
    JSON.stringify({
      connectionId: sender.connection.id,
      number: send.number,
      bodies: send.bodies,
      files: send.files.map((file) => [file.filename, file.mimetype, sha256(file.data)]),
    }),
  );
}

export interface Answer {
  status: number;
  body: unknown;
}

export type OnceOutcome<T extends Answer> = { replayed: false; answer: T } | { replayed: true; answer: Answer };

/**
 * Runs `produce` at most once per company and key (see the header). `produce` answers rather than
 * throws: an error is an answer too, replayed like a success unless it is a 5xx.
 */
export async function answerOnce<T extends Answer>(
  companyId: number,
  key: string,
  fingerprint: string,
  produce: () => Promise<T>,
  nowMs = Date.now(),
): Promise<OnceOutcome<T>> {
  const now = Math.floor(nowMs / 1000);
  const keyHash = sha256(key);
  const claimId = randomUUID();
  const claim = await claimIdempotencyKey(
    companyId,
    keyHash,
    { bodyHash: fingerprint, claimId, lockedUntil: now + CLAIM_LOCK_SECONDS, expiresAt: now + IDEMPOTENCY_KEY_HOURS * 3600 },
    now,
  );
  if (!claim.claimed) {
    const { existing } = claim;
    if (existing.bodyHash !== fingerprint) throw new IdempotencyKeyReusedError();
    if (existing.status === undefined || existing.answer === undefined) throw new IdempotencyKeyInUseError();
    return { replayed: true, answer: { status: existing.status, body: JSON.parse(existing.answer) } };
  }
  let answer: T;
  try {
    answer = await produce();
  } catch (error) {
    await releaseIdempotencyKey(companyId, keyHash, claimId);
    throw error;
  }
  if (answer.status >= 500) {
    await releaseIdempotencyKey(companyId, keyHash, claimId);
    return { replayed: false, answer };
  }
  try {
    await recordIdempotentAnswer(companyId, keyHash, claimId, answer);
  } catch (error) {
    // Sent already: the client gets its answer; a retry meets the claim (409) until its lock runs out.
    logger.error('Idempotent answer not recorded', { error: error instanceof Error ? error : String(error), companyId });
  }
  return { replayed: false, answer };
}
