/**
 * The WhatsApp id of one of our sends, derived from our messageId. Deterministic on purpose: the
 * send record is written after the provider has sent, so a crash in between leads to a resend, and
 * that resend must carry the same id for WhatsApp to treat it as the same message.
 * Shape of Baileys' own ids: `3EB0` + 18 upper-case hex digits.
 */
import { createHash } from 'node:crypto';

export function waMessageIdFor(companyId: number, connectionId: number, messageId: string): string {
  const digest = createHash('sha256').update(`${companyId}:${connectionId}:${messageId}`).digest('hex');
  return `3EB0${digest.slice(0, 18).toUpperCase()}`;
}
