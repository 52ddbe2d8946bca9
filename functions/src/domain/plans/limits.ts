/**
 * Plan limits (users, connections, queues, ...). A limit of 0 means "no limit", so the spec's
 * default plan (every limit 0) stays usable. Shared by every use case that creates a counted record.
 */
import { ForbiddenError } from '#commons/errors';
import type { ErrorCode } from '#contracts/errors';

/** True when one more record still fits under `limit`. */
export function hasRoomFor(limit: number | undefined, currentCount: number): boolean {
  if (!limit || limit <= 0) return true;
  return currentCount < limit;
}

/** Throws 403 with `code` when the company already holds `limit` records. */
export function assertPlanLimit(limit: number | undefined, currentCount: number, code: ErrorCode): void {
  if (!hasRoomFor(limit, currentCount)) throw new ForbiddenError(code, { limit });
}
