/**
 * The WhatsApp id of one of our sends, derived from our messageId. The session-host sends with it,
 * so a resend after a crash between the send and its record carries the same id and WhatsApp treats
 * it as the same message. Knowing it when the message
 * is queued lets the inbound pipeline map the id before the send, so our own echo (a `fromMe`
 * message event) links to the stored message whichever arrives first: the echo or the `sent` result.
 * Not exported from contracts/index.ts: it needs node:crypto, and the web never computes it.
 */
import { createHash } from 'node:crypto';

export function waMessageIdFor(companyId: number, connectionId: number, messageId: string): string {
  const digest = createHash('sha256').update(`${companyId}:${connectionId}:${messageId}`).digest('hex');
  return `3EB0${digest.slice(0, 18).toUpperCase()}`;
}
