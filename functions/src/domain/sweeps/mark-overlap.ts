/**
 * Re-read before the previous cutoff: a ticket (or message) stamped just before it by a Lambda whose
 * clock runs behind, or still propagating to the index when that run read it, is seen by the next
 * run. Its own module so that a sweep reading only this (retention) does not bundle the ticket
 * sweeps and their session commands.
 */
export const MARK_OVERLAP_MS = 2 * 60_000;
