/**
 * Posts one webhook delivery to a tenant's endpoint, through the tenant URL guard (no private,
 * loopback or metadata address; the connection pinned to the checked address; no redirect
 * followed: a 3xx is a failed attempt). 10 s for the whole exchange; the answer's body is not read
 * beyond its status (a receiver's page must not cost us its size). Never throws: what happened is
 * the outcome, for the log.
 */
import { fetchTenantUrl, TenantUrlRefused } from './tenant-url-guard.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface PostOutcome {
  /** The HTTP status, when something answered. */
  status: number | null;
  latencyMs: number;
  /** Why it is not a 2xx, in a few words; null on success. */
  error: string | null;
}

export type WebhookPoster = (url: string, headers: Record<string, string>, body: string) => Promise<PostOutcome>;

export const postWebhook: WebhookPoster = async (url, headers, body) => {
  const started = Date.now();
  const done = (status: number | null, error: string | null): PostOutcome => ({ status, latencyMs: Date.now() - started, error });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done(null, 'invalid URL');
  }
  try {
    const status = await fetchTenantUrl(
      target,
      {
        method: 'POST',
        headers: { 'user-agent': 'Conversa-Webhooks/1', ...headers },
        body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      },
      async (response) => {
        await response.body?.cancel().catch(() => undefined);
        return response.status;
      },
    );
    return done(status, status >= 200 && status < 300 ? null : `HTTP ${status}`);
  } catch (error) {
    if (error instanceof TenantUrlRefused) return done(null, error.reason === 'private' ? 'private address refused' : 'host not found');
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return done(null, 'timeout');
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return done(null, code ? `unreachable (${code})` : 'unreachable');
  }
};
