/**
 * The app's one retry rule (lib/query-retry.ts, issue 25 item 2): a refused answer (401, 402, 403,
 * any 4xx but 429) is never asked again; a transient failure is, at most twice, each wait longer.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/lib/api-client.ts';
import { QUERY_RETRIES, queryRetryDelay, shouldRetryQuery } from '../src/lib/query-retry.ts';

describe('query retries', () => {
  it('never retries a refused answer', () => {
    for (const status of [400, 401, 402, 403, 404, 409]) expect(shouldRetryQuery(0, new ApiError(status, { error: 'ERR_X' }))).toBe(false);
  });

  it('retries a network failure, a 5xx or a 429, at most twice', () => {
    for (const error of [
      new TypeError('Failed to fetch'),
      new ApiError(500, undefined),
      new ApiError(503, undefined),
      new ApiError(429, undefined),
    ]) {
      expect(shouldRetryQuery(0, error)).toBe(true);
      expect(shouldRetryQuery(QUERY_RETRIES, error)).toBe(false);
    }
  });

  it('backs off: each wait longer than the one before, capped, with jitter', () => {
    const top = (attempt: number) => queryRetryDelay(attempt, () => 1);
    expect([0, 1, 2, 3].map(top)).toEqual([1000, 2000, 4000, 8000]);
    expect(top(20)).toBe(30_000);
    expect(queryRetryDelay(1, () => 0)).toBe(1000);
  });
});
