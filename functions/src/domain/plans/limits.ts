/**
 * Plan limits (users, connections, queues, ...). A limit of 0 means "no limit", so the spec's
 * default plan (every limit 0) stays usable. Shared by every use case that creates a counted record.
 */
import { AppError, ForbiddenError } from '#commons/errors';
import type { ErrorCode } from '#contracts/errors';
import { type LimitClaim, LimitClaimLost, type LimitedKind, readLimitClaim } from '#storage/plans/limits';

/** True when one more record still fits under `limit`. */
export function hasRoomFor(limit: number | undefined, currentCount: number): boolean {
  if (!limit || limit <= 0) return true;
  return currentCount < limit;
}

/** Throws 403 with `code` when the company already holds `limit` records. */
export function assertPlanLimit(limit: number | undefined, currentCount: number, code: ErrorCode): void {
  if (!hasRoomFor(limit, currentCount)) throw new ForbiddenError(code, { limit });
}

/** Each lost claim means another create committed; past this many the caller is told to retry. */
const MAX_ATTEMPTS = 10;

/**
 * Creates one counted record within the plan's limit, also when creates race: the count is taken
 * under a claim that `create` commits with the record (storage/plans/limits.ts), and a create that
 * lost its claim counts again. Without a limit there is nothing to claim.
 */
export async function createWithinPlanLimit<T>(input: {
  companyId: number;
  kind: LimitedKind;
  limit: number | undefined;
  code: ErrorCode;
  count: () => Promise<number>;
  create: (claim: LimitClaim | undefined) => Promise<T>;
}): Promise<T> {
  if (!input.limit || input.limit <= 0) return input.create(undefined);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const claim = await readLimitClaim(input.companyId, input.kind);
    assertPlanLimit(input.limit, await input.count(), input.code);
    try {
      return await input.create(claim);
    } catch (error) {
      if (!(error instanceof LimitClaimLost)) throw error;
    }
  }
  throw new AppError('ERR_TOO_MANY_REQUESTS', 429);
}
