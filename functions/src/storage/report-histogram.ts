/**
 * The reports' duration histograms (issue 22 §4), kept as counter attributes on the dashboard's
 * items (dashboard-counters.ts): a duration counts +1 in one of BUCKETS log-scale buckets, so a
 * median or a p90 over any set of days, queues and attendants is a sum of counts, never a read of
 * the tickets.
 *
 *   bucket 0                  [0, 30 s)
 *   bucket i (1..14)          [30 s x RATIO^(i-1), 30 s x RATIO^i),  RATIO = 5760^(1/14) ~ 1.857
 *                             (bucket 14 ends at exactly 2 days)
 *   bucket 15                 [2 days, infinity)
 *
 * Error bound of quantile(): the q-quantile is the nearest-rank one (the ceil(q x N)-th smallest
 * duration). Both it and the estimate lie in the same bucket, so the estimate is within a factor
 * RATIO (~1.86) of the true value inside 30 s .. 2 days, within 30 s below 30 s, and at least 2
 * days (reported as exactly 2 days) above. Inside a bucket the estimate is interpolated
 * geometrically (linearly in bucket 0) at the rank's position, the middle of the bucket's share.
 */

import { REPORT_MAX_SECONDS, REPORT_MIN_SECONDS } from '#contracts/reports';

export const HISTOGRAM_BUCKETS = 16;
export const HISTOGRAM_MIN_SECONDS = REPORT_MIN_SECONDS;
export const HISTOGRAM_MAX_SECONDS = REPORT_MAX_SECONDS;
const LOG_BUCKETS = HISTOGRAM_BUCKETS - 2;
/** The ratio between a log bucket's end and its start: the relative error bound of a quantile. */
export const HISTOGRAM_RATIO = (HISTOGRAM_MAX_SECONDS / HISTOGRAM_MIN_SECONDS) ** (1 / LOG_BUCKETS);

/** Two digits, so attribute names sort and parse the same way: F00..F15. */
export const bucketName = (bucket: number): string => String(bucket).padStart(2, '0');

/** Where [lo, hi) of bucket `b` starts, in seconds (hi of the last is Infinity). */
export function bucketStart(bucket: number): number {
  if (bucket <= 0) return 0;
  if (bucket >= HISTOGRAM_BUCKETS - 1) return HISTOGRAM_MAX_SECONDS;
  return HISTOGRAM_MIN_SECONDS * HISTOGRAM_RATIO ** (bucket - 1);
}

/** The bucket of a duration in seconds. */
export function bucketOf(seconds: number): number {
  if (!(seconds >= HISTOGRAM_MIN_SECONDS)) return 0;
  if (seconds >= HISTOGRAM_MAX_SECONDS) return HISTOGRAM_BUCKETS - 1;
  // Floating point at a boundary: settle on the bucket whose [start, next start) holds it.
  let b = 1 + Math.floor(Math.log(seconds / HISTOGRAM_MIN_SECONDS) / Math.log(HISTOGRAM_RATIO));
  if (b > LOG_BUCKETS) b = LOG_BUCKETS;
  if (seconds < bucketStart(b)) b--;
  else if (b < LOG_BUCKETS && seconds >= bucketStart(b + 1)) b++;
  return b;
}

/** The q-quantile (0 < q <= 1) of the durations counted in `counts` (index = bucket), in whole seconds; null when empty. */
export function quantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (!total) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let before = 0;
  for (let b = 0; b < HISTOGRAM_BUCKETS; b++) {
    const n = counts[b] ?? 0;
    if (before + n >= rank) {
      const position = (rank - before - 0.5) / n;
      // Stays under 30 s: a client tells bucket 0 apart by its value.
      if (b === 0) return Math.min(HISTOGRAM_MIN_SECONDS - 1, Math.round(HISTOGRAM_MIN_SECONDS * position));
      if (b === HISTOGRAM_BUCKETS - 1) return HISTOGRAM_MAX_SECONDS;
      const lo = bucketStart(b);
      return Math.round(lo * HISTOGRAM_RATIO ** position);
    }
    before += n;
  }
  return HISTOGRAM_MAX_SECONDS;
}
