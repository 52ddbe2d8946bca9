/**
 * How every query of the app retries (set once on the QueryClient, app.tsx). Only a failure that may
 * pass by itself is tried again: no answer (network), a 5xx, a 429. Any other 4xx is the answer: a
 * 401 ends the session, a 402 confines an expired company to billing, a 403 was already retried once
 * with a fresh token (api-client.ts), and asking again would only repeat it (issue 25: an expired
 * company's app asked 326 times in 10 s). Each retry waits longer than the one before, with jitter,
 * so a crowd of browsers does not come back in step.
 */
export const QUERY_RETRIES = 2;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

const statusOf = (error: unknown): number | undefined =>
  error && typeof error === 'object' && 'status' in error && typeof error.status === 'number' ? error.status : undefined;

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= QUERY_RETRIES) return false;
  const status = statusOf(error);
  return status === undefined || status >= 500 || status === 429;
}

/** 1 s, 2 s, 4 s... up to 30 s, each drawn between half and all of it. */
export function queryRetryDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(FIRST_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
  return Math.round(ceiling * (0.5 + random() / 2));
}
