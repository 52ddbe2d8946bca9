/**
 * The one way the bot provider clients talk HTTP: fetch with a timeout covering the whole exchange
 * (headers and body), answers read up to a size cap, redirects not followed (a tenant's URL must not
 * bounce us somewhere else), and every failure turned into a ProviderError with a status. A URL a
 * tenant typed goes through the tenant URL guard (tenant-url-guard.ts). Bodies are parsed
 * defensively: a provider's 200 with an HTML page is 'invalid', not a crash. What a refusal quotes
 * of the provider's words is short: it reaches the tenant (a test's reason), and must not turn an
 * endpoint into a way to read whatever answers there.
 */
import { type BotProvider, ProviderError } from './provider-error.ts';
import { fetchTenantUrl, TenantUrlRefused } from './tenant-url-guard.ts';

/** The default per call; the bot-turns consumer may pass less to stay inside its queue's visibility timeout. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** No chat answer, token or webhook reply we use comes near this; anything larger is not one. */
export const MAX_PROVIDER_BODY_BYTES = 1024 * 1024;

/** At most this much of a provider's own words is quoted in a ProviderError (see describeRefusal). */
export const MAX_QUOTED_PROVIDER_TEXT = 100;

/** A bot's answer to one message becomes at most this many WhatsApp messages (a runaway webhook must not flood the contact). */
export const MAX_BOT_REPLIES = 20;

export interface ProviderAnswer {
  status: number;
  contentType: string;
  text: string;
}

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | FormData | URLSearchParams;
  timeoutMs?: number;
  /** A URL a tenant typed (Typebot, webhook, token_uri): it must not reach our own network (tenant-url-guard.ts). */
  tenantUrl?: boolean;
}

/** An http(s) URL or a ProviderError: tenants type these URLs, and fetch's TypeError names nothing useful. */
export function providerUrl(provider: BotProvider, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderError(provider, 'invalid', 'the URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderError(provider, 'invalid', 'the URL is not http(s)');
  return url;
}

/** `https://host/path/` -> `https://host/path`, so paths can be appended with one slash. */
export const withoutTrailingSlash = (base: string): string => base.replace(/\/+$/, '');

/** A 2xx answer's status, content type and text; anything else throws ProviderError. */
export async function providerFetch(provider: BotProvider, url: string | URL, req: ProviderRequest = {}): Promise<ProviderAnswer> {
  const target = typeof url === 'string' ? providerUrl(provider, url) : url;
  const timeoutMs = req.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const init = {
    method: req.method ?? 'POST',
    headers: { 'user-agent': 'Conversa', accept: 'application/json, text/plain;q=0.9, */*;q=0.1', ...req.headers },
    body: req.body,
    redirect: 'manual' as const,
    signal: AbortSignal.timeout(timeoutMs),
  };
  const read = async (res: FetchedAnswer) => ({
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await readCapped(provider, res),
  });
  let status: number;
  let contentType: string;
  let text: string;
  try {
    // Only the deployment's own endpoints (OpenAI's base URL, Dialogflow's API root) skip the guard.
    ({ status, contentType, text } = req.tenantUrl
      ? await fetchTenantUrl(target, { ...init, body: textBody(provider, req.body) }, read)
      : await read(await fetch(target, init)));
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (error instanceof TenantUrlRefused)
      throw error.reason === 'private'
        ? new ProviderError(provider, 'invalid', error.message)
        : new ProviderError(provider, 'network', `unreachable (${error.message})`);
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError(provider, 'timeout', `no answer within ${timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new ProviderError(provider, 'network', `unreachable${cause ? ` (${cause})` : ''}`);
  }
  if (status < 200 || status >= 300) throw new ProviderError(provider, status, `HTTP ${status}${describeRefusal(text)}`);
  return { status, contentType, text };
}

/** The guard's fetch (undici's) takes text bodies; no tenant endpoint is sent a multipart upload. */
function textBody(provider: BotProvider, body: ProviderRequest['body']): string | URLSearchParams | undefined {
  if (body instanceof FormData) throw new ProviderError(provider, 'invalid', 'a multipart body is not sent to a tenant URL');
  return body;
}

/** What readCapped needs of an answer: global fetch's and undici's (the guard's) Response both fit. */
interface FetchedAnswer {
  status: number;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

async function readCapped(provider: BotProvider, res: FetchedAnswer): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_PROVIDER_BODY_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw new ProviderError(provider, 'invalid', `answer of ${declared} bytes is over the ${MAX_PROVIDER_BODY_BYTES} limit`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_PROVIDER_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ProviderError(provider, 'invalid', `answer over the ${MAX_PROVIDER_BODY_BYTES} bytes limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The provider's own words for a refusal (OpenAI and Google: error.message; OAuth: error_description;
 * Typebot: message), cut to MAX_QUOTED_PROVIDER_TEXT: enough to tell the admin what is wrong, too
 * little to read a page through.
 */
function describeRefusal(text: string): string {
  const body = tryJson(text);
  if (!isRecord(body)) return '';
  const error = body.error;
  const said =
    (isRecord(error) && typeof error.message === 'string' && error.message) ||
    (typeof body.error_description === 'string' && body.error_description) ||
    (typeof body.message === 'string' && body.message) ||
    (typeof error === 'string' && error) ||
    '';
  return said ? `: ${said.slice(0, MAX_QUOTED_PROVIDER_TEXT)}` : '';
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object or ProviderError 'invalid' (HTML error pages, truncated bodies, `null`, arrays). */
export function parseJsonObject(provider: BotProvider, text: string): Record<string, unknown> {
  const value = tryJson(text);
  if (!isRecord(value)) throw new ProviderError(provider, 'invalid', 'the answer is not a JSON object');
  return value;
}
