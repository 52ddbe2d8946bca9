/**
 * The signature of a webhook delivery (issue 23 §2), Stripe's scheme: `X-Conversa-Signature:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint's secret>`. The time is
 * inside the signed text, so a receiver that rejects old `t` values (5 minutes is the usual
 * tolerance) cannot be fed a captured request again; `v1` names the scheme so a later one can sit
 * beside it during a change. The receiver's side is `verifyWebhookSignature`, also shown in the docs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, text: string): string => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

export const signWebhookBody = (secret: string, body: string, unixSeconds: number): string =>
  `t=${unixSeconds},v1=${hmacHex(secret, `${unixSeconds}.${body}`)}`;

/** What a receiver does: the header parses, one v1 matches the body, and t is within the tolerance of now. */
export function verifyWebhookSignature(
  header: string,
  body: string,
  secret: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(t)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(hmacHex(secret, `${t}.${body}`), 'hex');
  return parts
    .filter(([name, value]) => name === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value))
    .some(([, value]) => timingSafeEqual(Buffer.from(value as string, 'hex'), expected));
}
