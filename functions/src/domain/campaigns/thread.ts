/**
 * A campaign's sends in the contact's conversation (issue 25): every part the phone sent (the
 * confirmation request, the message, the files, the media) is stored on the contact's ticket on the
 * connection, marked `origin: 'campaign'`, so an answer reads after what it answers.
 *
 * Stored when the session-host reports the send (`campaignResult` with what it sent), not when the
 * tick queues it: the tick stays one transaction for a batch of contacts, and a send that never
 * happened leaves nothing in the thread. The result shares the contact's inbound FIFO group, so it
 * is stored before the contact's answer is processed.
 *
 * The ticket: the contact's open or pending one on the connection; else its latest closed one
 * updated within `timeCreateNewTicket` (at least MIN_THREAD_HOURS, so a campaign's parts, seconds
 * apart, share one), left closed; else a new one created closed (find-or-create.ts `createClosed`),
 * so a campaign to 10,000 contacts fills nobody's Pending list. The contact's answer reopens it as
 * pending within `timeCreateNewTicket` (BEHAVIOUR "Inbound").
 *
 * Exactly once: the send's WhatsApp link is read first (a redelivered result stops there, and an
 * echo of the send that the phone reported first is only marked campaign), and the
 * message is stored with that link on condition that it does not exist, so two deliveries racing
 * store one message; a retry after a crash between a ticket's creation and the store finds that
 * ticket as the recent closed one. Cost per send: the link, the contact, the slot and the ticket
 * (point reads; a write when the ticket is new), then one transaction with the message, its id
 * lookup, its WhatsApp link and the ticket's activity; to a number with no contact yet, the link and
 * the number's guard, then ONE transaction with the contact, its closed ticket and the message
 * (storage/messages/first-message.ts). Its words are not indexed: the same text on every ticket would make
 * them match everything.
 */
import type { InboundEvent } from '#contracts/session-events';
import { announceContact, findContact, resolveContact } from '#domain/contacts/resolve';
import type { Effects } from '#domain/messages/effects';
import { derivedMessageId } from '#domain/messages/message-id';
import { buildOutgoingMessage, dispatchOutgoing } from '#domain/messages/send';
import { findOrCreateTicket, newConversation, ticketCreated } from '#domain/tickets/find-or-create';
import { getItemBatched } from '#storage/batch-get';
import { storeFirstMessage } from '#storage/messages/first-message';
import { type MessageRecord, storeMessage } from '#storage/messages/messages';
import { linkCampaignShip, markOrigin } from '#storage/messages/status';
import { type WaLink, waLinkKey } from '#storage/messages/wa-links';
import { listSettingsCached } from '#storage/settings';
import type { TicketRecord } from '#storage/tickets/record';
import { parseShipMessageId } from './compose.ts';

type CampaignResult = Extract<InboundEvent, { kind: 'campaignResult' }>;

/** The shortest window in which a contact's closed ticket takes a campaign's next part. */
export const MIN_THREAD_HOURS = 1;

export async function threadCampaignSend(event: CampaignResult, effects: Effects): Promise<'stored' | 'duplicate' | 'skipped'> {
  // A failed send did not reach the contact; an event from before results carried their text has nothing to show.
  const { companyId, connectionId, body, waMessageId } = event;
  if (event.error || !waMessageId || body === undefined) return 'skipped';
  // The message's link names its contact's ship record, so its read receipt reaches the report.
  const ship = parseShipMessageId(event.messageId);
  const campaignShip = ship?.part === 'm' ? { campaignId: ship.campaignId, itemId: ship.itemId } : undefined;
  const source = { companyId, connectionId, number: event.number, isGroup: false, fromMe: true };
  // The send's link and the number's contact in one request (storage/batch-get.ts); our own send renames nobody.
  const [link, known] = await Promise.all([
    getItemBatched<WaLink>(waLinkKey(companyId, connectionId, waMessageId)),
    findContact(source, effects),
  ]);
  if (link) {
    // Stored already: by a redelivered result, or by the phone's echo of the send (Baileys reports
    // our own sends), which came first and knew nothing of the campaign: it gets the label.
    await markOrigin(companyId, link.ticketId, link.messageId, 'campaign');
    if (campaignShip && !link.campaignShip) await linkCampaignShip(companyId, connectionId, waMessageId, campaignShip);
    return 'duplicate';
  }
  const sentAt = new Date(event.timestamp ?? effects.now().getTime());
  const sent = async (ticket: TicketRecord): Promise<MessageRecord> => {
    const built = await buildOutgoingMessage(
      {
        companyId,
        ticket,
        body,
        media: event.media,
        origin: 'campaign',
        id: derivedMessageId(sentAt.getTime(), `${companyId}:${connectionId}:${event.messageId}`, ticket.id),
      },
      sentAt,
    );
    // Already on WhatsApp: sent (ack 1), with the id the phone reported.
    return { ...built, waId: waMessageId, pending: false, ack: 1 };
  };
  // Its echo, if the phone reports one, has nothing left to do.
  const linkMarks = { botDone: true, dispatched: true, ...(campaignShip ? { campaignShip } : {}) };

  if (!known) {
    // A number with no contact yet: the contact, its ticket (closed) and the message in one transaction.
    const { contact, ticket } = await newConversation(source, 'closed', sentAt);
    const message = await sent(ticket);
    const first = await storeFirstMessage({ contact, ticket, message, unread: false, link: linkMarks, indexWords: false });
    if (first === 'duplicate') return 'duplicate';
    if (first !== 'contactTaken') {
      await announceContact(effects, contact);
      const { ticket: stored } = await ticketCreated(first.stored);
      await dispatchOutgoing([message], stored, effects, {}, { contact });
      return 'stored';
    }
  }
  const contact = known?.contact ?? (await resolveContact(source, effects));
  const window = Number((await listSettingsCached(companyId)).find((s) => s.key === 'timeCreateNewTicket')?.value) || 0;
  const { ticket } = await findOrCreateTicket({
    companyId,
    connectionId,
    contact,
    reopenWithinHours: Math.max(window, MIN_THREAD_HOURS),
    now: sentAt,
    createClosed: true,
  });
  const message = await sent(ticket);
  // On the ticket as read, whatever its status now (a closed one takes it as well).
  const outcome = await storeMessage(message, ticket, { unread: false, requireActive: false, link: linkMarks, indexWords: false });
  if (outcome === 'duplicate') return 'duplicate';
  await dispatchOutgoing([message], ticket, effects, {}, { contact });
  return 'stored';
}
