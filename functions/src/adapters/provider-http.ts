/**
 * The one way the bot provider clients talk HTTP: global fetch with a timeout covering the whole
 * exchange (headers and body), answers read up to a size cap, redirects not followed (a tenant's
 * URL must not bounce us somewhere else), and every failure turned into a ProviderError with a
 * status. Bodies are parsed defensively: a provider's 200 with an HTML page is 'invalid', not a crash.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { env } from '#commons/env';
import { type BotProvider, ProviderError } from './provider-error.ts';

/** The default per call; the bot-turns consumer may pass less to stay inside its queue's visibility timeout. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** No chat answer, token or webhook reply we use comes near this; anything larger is not one. */
export const MAX_PROVIDER_BODY_BYTES = 1024 * 1024;

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
  /** A URL a tenant typed (Typebot, webhook, token_uri): it must not reach our own network (see assertPublicHost). */
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
  if (req.tenantUrl) await assertPublicHost(provider, target);
  let status: number;
  let contentType: string;
  let text: string;
  try {
    const res = await fetch(target, {
      method: req.method ?? 'POST',
      headers: { 'user-agent': 'Conversa', accept: 'application/json, text/plain;q=0.9, */*;q=0.1', ...req.headers },
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.status;
    contentType = res.headers.get('content-type') ?? '';
    text = await readCapped(provider, res);
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError(provider, 'timeout', `no answer within ${timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new ProviderError(provider, 'network', `unreachable${cause ? ` (${cause})` : ''}`);
  }
  if (status < 200 || status >= 300) throw new ProviderError(provider, status, `HTTP ${status}${describeRefusal(text)}`);
  return { status, contentType, text };
}

async function readCapped(provider: BotProvider, res: Response): Promise<string> {
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

/** The provider's own words for a refusal (OpenAI and Google: error.message; OAuth: error_description; Typebot: message), short. */
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
  return said ? `: ${said.slice(0, 200)}` : '';
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

/**
 * A tenant's URL may not point at loopback, private, link-local or other non-public addresses: from a
 * Lambda that would reach the runtime API on 127.0.0.1 or whatever else the deployment's network
 * holds, with our credentials' reach instead of the tenant's. Names are resolved first (a redirect
 * cannot bypass this: redirects are not followed). The local stack, whose fakes listen on 127.0.0.1,
 * allows them with ALLOW_PRIVATE_BOT_URLS.
 */
export async function assertPublicHost(provider: BotProvider, url: URL): Promise<void> {
  if (env.allowPrivateBotUrls) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw new ProviderError(provider, 'network', 'unreachable (the host name does not resolve)');
    }
  }
  if (addresses.length === 0 || addresses.some(isNonPublicAddress))
    throw new ProviderError(provider, 'invalid', 'the URL points at a local or private network address');
}

export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isNonPublicAddress(mapped);
  if (isIP(address) === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 0 || // "this" network
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
      (a === 169 && b === 254) || // link-local, cloud metadata
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) || // benchmarking
      a >= 224 // multicast and reserved
    );
  }
  const v6 = address.toLowerCase();
  return (
    v6 === '::' ||
    v6 === '::1' ||
    /^f[cd]/.test(v6) ||
    /^fe[89ab]/.test(v6) ||
    /^ff/.test(v6) ||
    v6.startsWith('64:ff9b:') ||
    v6.startsWith('100::')
  );
}
