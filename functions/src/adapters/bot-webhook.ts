/**
 * The n8n and webhook integrations: the contact's message is POSTed as JSON to the tenant's URL,
 * signed so the receiver can tell it came from us: `X-Conversa-Signature: sha256=<hex HMAC-SHA256 of
 * the raw body with the integration's signing secret>` and `X-Conversa-Timestamp` (Unix seconds).
 * The answer: JSON `{reply?: string, replies?: string[], handBack?: boolean}` (n8n's "Respond to
 * Webhook" may wrap items in an array: each counts), or text/plain (one reply); 204 or an empty body
 * is no reply.
 */
import { createHmac } from 'node:crypto';
import { ProviderError } from './provider-error.ts';
import { isRecord, MAX_BOT_REPLIES, providerFetch } from './provider-http.ts';

export interface WebhookAnswer {
  replies: string[];
  handBack: boolean;
}

export const SIGNATURE_HEADER = 'X-Conversa-Signature';
export const TIMESTAMP_HEADER = 'X-Conversa-Timestamp';

/** `sha256=<hex>` of the exact bytes sent: what the receiver recomputes with its copy of the secret. */
export const webhookSignature = (secret: string, rawBody: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;

export async function postToWebhook(o: { url: string; secret: string; payload: unknown; timeoutMs?: number }): Promise<WebhookAnswer> {
  const body = JSON.stringify(o.payload ?? {});
  const answer = await providerFetch('webhook', o.url.trim(), {
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: webhookSignature(o.secret, body),
      [TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)),
    },
    body,
    timeoutMs: o.timeoutMs,
    tenantUrl: true,
  });
  const text = answer.text.trim();
  if (answer.status === 204 || !text) return { replies: [], handBack: false };
  if (/json/i.test(answer.contentType)) return answerOf(parseJson(text));
  // text/plain, or a server that names no type: words are one reply, a JSON-looking body is read as JSON.
  if (!answer.contentType || /^text\/plain/i.test(answer.contentType)) {
    return /^[[{]/.test(text) ? answerOf(parseJson(text, text)) : { replies: [text], handBack: false };
  }
  // An HTML page (a proxy's error, a login wall) is not an answer for the contact.
  throw new ProviderError('webhook', 'invalid', `unexpected answer type ${answer.contentType.slice(0, 60)}`);
}

function parseJson(text: string, fallback?: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (fallback !== undefined) return fallback;
    throw new ProviderError('webhook', 'invalid', 'the answer is not valid JSON');
  }
}

function answerOf(parsed: unknown): WebhookAnswer {
  const replies: string[] = [];
  let handBack = false;
  const take = (item: unknown) => {
    if (typeof item === 'string') {
      if (item.trim()) replies.push(item.trim());
      return;
    }
    if (!isRecord(item)) throw new ProviderError('webhook', 'invalid', 'the answer is neither text nor {reply, replies, handBack}');
    if (typeof item.reply === 'string' && item.reply.trim()) replies.push(item.reply.trim());
    if (Array.isArray(item.replies)) {
      for (const reply of item.replies) if (typeof reply === 'string' && reply.trim()) replies.push(reply.trim());
    }
    if (item.handBack === true) handBack = true;
  };
  if (Array.isArray(parsed)) for (const item of parsed) take(item);
  else take(parsed);
  return { replies: replies.slice(0, MAX_BOT_REPLIES), handBack };
}
