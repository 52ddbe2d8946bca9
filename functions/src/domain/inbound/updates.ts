/**
 * Events about messages already stored: acks (only ever upwards), deletes, edits, and the results
 * of our sends (`sent` gives the pending message its WhatsApp id, `sendFailed` marks it with the
 * error: never silently lost). Each publishes the message's `appMessage` update, naming the
 * ticket's queue and connection from the cached references (batch-references.ts). The point reads
 * (link, ticket, contact) of a batch's events go out together as one BatchGetItem (storage/batch-get.ts):
 * acks come in bursts (a read receipt acks every message it covers).
 */

import type { Contact } from '#contracts/contacts';
import type { InboundEvent } from '#contracts/session-events';
import type { Effects } from '#domain/messages/effects';
import { scheduleSendFailed } from '#domain/schedules/send';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import { emitMessageAck, publishMessage } from '#domain/tickets/publish';
import { getItemBatched } from '#storage/batch-get';
import { recordShipAck } from '#storage/campaigns/ships';
import { contactKey } from '#storage/contacts/contacts';
import type { MessageRecord } from '#storage/messages/messages';
import { editBody, markDeleted, markFailed, markSent, raiseAck } from '#storage/messages/status';
import { type WaLink, waLinkKey } from '#storage/messages/wa-links';
import type { TicketRecord } from '#storage/tickets/record';
import { ticketKey } from '#storage/tickets/tickets';
import { type BatchReferences, batchReferences } from './batch-references.ts';

type Event<K extends InboundEvent['kind']> = Extract<InboundEvent, { kind: K }>;
export type UpdateOutcome = 'updated' | 'unchanged' | 'unknown';

/** `ack`: the update is an ack that went up, also the company's webhook event `message.ack` (issue 23 §2). */
async function publishUpdate(
  message: MessageRecord | undefined,
  effects: Effects,
  refs: BatchReferences,
  ack = false,
): Promise<UpdateOutcome> {
  if (!message) return 'unchanged';
  const [ticket, contact, connection, queues] = await Promise.all([
    getItemBatched<TicketRecord>(ticketKey(message.companyId, message.ticketId)),
    getItemBatched<Contact>(contactKey(message.companyId, message.contactId)),
    refs.connection(message.companyId, message.whatsappId),
    refs.queues(message.companyId),
  ]);
  if (!ticket || !contact) return 'updated';
  const queue = queues.find((q) => q.id === ticket.queueId);
  const names = await loadTicketRefs(ticket, { ...(connection ? { connection } : {}), ...(queue ? { queue } : {}) });
  const presented = presentTicket(ticket, names);
  await Promise.all([
    publishMessage(effects, 'update', message, presented, contact),
    ack && message.fromMe && emitMessageAck(message, presented, contact),
  ]);
  return 'updated';
}

async function onLinked(
  event: { companyId: number; connectionId: number; waMessageId: string },
  update: (ticketId: number, messageId: string, link: WaLink) => Promise<MessageRecord | undefined>,
  effects: Effects,
  refs: BatchReferences,
  ack = false,
): Promise<UpdateOutcome> {
  const link = await getItemBatched<WaLink>(waLinkKey(event.companyId, event.connectionId, event.waMessageId));
  // An ack or delete of a message we never stored (sent before the connection was ours, or ignored).
  if (!link) return 'unknown';
  return publishUpdate(await update(link.ticketId, link.messageId, link), effects, refs, ack);
}

/**
 * The ack raises the message's; a campaign's message (its link names the ship record) also moves
 * its recipient in the campaign report to delivered or read, whether or not the message's ack
 * moved (a retry after a crash between the two still records it; recordShipAck sets each once).
 * Other messages' acks cost nothing more: the link is read anyway.
 */
export const handleAck = (event: Event<'ack'>, effects: Effects, refs = batchReferences()) =>
  onLinked(
    event,
    async (ticketId, id, link) => {
      const raised = await raiseAck(event.companyId, ticketId, id, event.ack);
      if (link.campaignShip)
        await recordShipAck(
          event.companyId,
          link.campaignShip.campaignId,
          link.campaignShip.itemId,
          event.ack,
          effects.now().toISOString(),
        );
      return raised;
    },
    effects,
    refs,
    true,
  );

export const handleRevoke = (event: Event<'revoke'>, effects: Effects, refs = batchReferences()) =>
  onLinked(event, (ticketId, id) => markDeleted(event.companyId, ticketId, id), effects, refs);

export const handleEdit = (event: Event<'edit'>, effects: Effects, refs = batchReferences()) =>
  onLinked(event, (ticketId, id) => editBody(event.companyId, ticketId, id, event.body), effects, refs);

export const handleSent = async (event: Event<'sent'>, effects: Effects, refs = batchReferences()) =>
  publishUpdate(await markSent(event.companyId, event.connectionId, event.ticketId, event.messageId, event.waMessageId), effects, refs);

/** A failed send is marked on the message and, when a schedule sent it, on the schedule (ERRO). */
export async function handleSendFailed(event: Event<'sendFailed'>, effects: Effects, refs = batchReferences()): Promise<UpdateOutcome> {
  // Only the current attempt's failure counts: a late one of an attempt already retried changes nothing.
  const failed = await markFailed(event.companyId, event.ticketId, event.messageId, event.error, event.attempt ?? 0);
  if (failed) await scheduleSendFailed(effects, event.companyId, event.messageId, event.error);
  return publishUpdate(failed, effects, refs);
}
