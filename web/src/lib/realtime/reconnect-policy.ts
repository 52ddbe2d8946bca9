/**
 * How long a dropped socket waits before it tries again (issue 15). A deploy drops every socket at
 * once, and API Gateway opens 500 new connections per second per account and Region (a token
 * bucket; an upgrade over it is answered 429). Clients that wait the same time come back together,
 * are refused together and retry together, so every wait is drawn uniformly from zero up to a
 * window ("full jitter"):
 * - the first retry after a drop spreads over FIRST_RETRY_WINDOW_MS: a crowd of up to 2,500 sockets
 *   arrives under the quota, and a lone client is back in 2.5 s on average;
 * - each attempt that closes without opening (refused, 429 or not) doubles the window, up to
 *   MAX_RETRY_WINDOW_MS, so a larger crowd thins out by itself to what the quota lets in.
 * Pure, so bench:reconnect replays it against the local gateway.
 */
export const FIRST_RETRY_WINDOW_MS = 5_000;
export const MAX_RETRY_WINDOW_MS = 30_000;

/** `failures`: attempts since the socket last opened that closed without opening; 0 for the first retry after a drop. */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  return random() * Math.min(MAX_RETRY_WINDOW_MS, FIRST_RETRY_WINDOW_MS * 2 ** failures);
}
