/**
 * The WhatsApp id of one of our sends, derived from our messageId (the session-host sends with it;
 * see session-host/src/wa-message-id.ts, which must compute the same). Knowing it when the message
 * is queued lets the inbound pipeline map the id before the send, so our own echo (a `fromMe`
 * message event) links to the stored message whichever arrives first: the echo or the `sent` result.
 * Not exported from contracts/index.ts: it needs node:crypto, and the web never computes it.
 */
import { createHash } from 'node:crypto';

export function waMessageIdFor(companyId: number, connectionId: number, messageId: string): string {
  const digest = createHash('sha256').update(`${companyId}:${connectionId}:${messageId}`).digest('hex');
  return `3EB0${digest.slice(0, 18).toUpperCase()}`;
}
