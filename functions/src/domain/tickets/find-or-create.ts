/**
 * The ticket an inbound message belongs to (BEHAVIOUR "Inbound WhatsApp messages"): the contact's
 * open or pending ticket on the connection; else its latest ticket there, if closed within
 * `timeCreateNewTicket` hours, reopened as pending; else a new pending ticket. The (contact,
 * connection) slot is claimed by a conditional write in the same transaction as the create or the
 * reopen, so concurrent messages can race here and still make exactly one active ticket: the losers
 * see SlotTakenError and read the winner's ticket.
 */
import type { Contact } from '#contracts/contacts';
import { type ContactSource, newContactRecord } from '#domain/contacts/resolve';
import { emitWebhookEvent } from '#domain/webhooks/emit';
import { getItemBatched } from '#storage/batch-get';
import { newConversationIds, newTicketId } from '#storage/contacts/conversation-ids';
import { hints } from '#storage/read-cache';
import { newTicketRecord, type TicketRecord } from '#storage/tickets/record';
import {
  createTicket,
  getSlot,
  getTicket,
  isActive,
  SlotTakenError,
  StaleTicketError,
  ticketKey,
  updateTicketState,
} from '#storage/tickets/tickets';
import { historyItems } from './history.ts';
import { contactSummary, presentTicket } from './present.ts';

export interface FoundTicket {
  ticket: TicketRecord;
  outcome: 'existing' | 'reopened' | 'created';
  /**
   * Reopened: the closed ticket as its viewers last saw it. Reopening clears its attendant, so an
   * attendant who saw it only as theirs (outside its queue) must get its `delete`
   * (notify.ts publishTicketLost from this to what the message leaves). A created ticket is a new
   * one: the contact's previous ticket stays as it was, nobody loses anything.
   */
  previous?: TicketRecord;
}

const MAX_ATTEMPTS = 6;

/**
 * Per container: the ticket last found active in a (contact, connection) slot, so a contact's next
 * message reads its ticket at once instead of the slot and then the ticket. Only a hint: a ticket
 * read through it counts only while it is still active on that contact and connection, which makes
 * it the slot's ticket (one active ticket per slot, claimed in the ticket's own transaction).
 */
const slotHints = hints<number>();
const slotHintKey = (companyId: number, contactId: number, connectionId: number) => `${companyId}:${contactId}:${connectionId}`;

const holdsSlot = (ticket: TicketRecord, contactId: number, connectionId: number): boolean =>
  isActive(ticket.status) && ticket.contactId === contactId && ticket.whatsappId === connectionId;

/**
 * The slot's active ticket through this container's hint (one point read, batched with the reads
 * beside it), or undefined: then findOrCreateTicket reads the slot.
 */
export async function readHintedTicket(companyId: number, contactId: number, connectionId: number): Promise<TicketRecord | undefined> {
  const id = slotHints.get(slotHintKey(companyId, contactId, connectionId));
  if (id === undefined) return undefined;
  const ticket = await getItemBatched<TicketRecord>(ticketKey(companyId, id));
  return ticket && holdsSlot(ticket, contactId, connectionId) ? ticket : undefined;
}

function found(result: FoundTicket): FoundTicket {
  const { ticket } = result;
  slotHints.set(slotHintKey(ticket.companyId, ticket.contactId, ticket.whatsappId), ticket.id);
  return result;
}

/**
 * A contact the number does not have yet and its first ticket on the connection, as records: their
 * ids taken together (storage/contacts/conversation-ids.ts), for the caller to build the message on the ticket and store the three
 * in one transaction (storage/messages/first-message.ts). `status`: pending for a contact's own first
 * message, closed for a campaign's send (it fills nobody's Pending list).
 */
export async function newConversation(
  source: ContactSource,
  status: 'pending' | 'closed',
  now: Date,
): Promise<{ contact: Contact; ticket: TicketRecord }> {
  const { companyId, connectionId } = source;
  const { contactId, ticketId } = await newConversationIds(companyId);
  const contact = newContactRecord(source, contactId, now.toISOString());
  return { contact, ticket: messageTicket(ticketId, contact, connectionId, status, now.toISOString()) };
}

/** A ticket a message opens for `contact` on the connection: no queue, no attendant yet. */
const messageTicket = (id: number, contact: Contact, connectionId: number, status: 'pending' | 'closed', at: string): TicketRecord =>
  newTicketRecord({
    id,
    companyId: contact.companyId,
    status,
    userId: null,
    queueId: null,
    contactId: contact.id,
    contact: contactSummary(contact),
    whatsappId: connectionId,
    isGroup: contact.isGroup,
    createdAt: at,
  });

/**
 * A ticket just created for an inbound message (here, or with a new contact's first message in one
 * transaction: storage/messages/first-message.ts): this container's slot hint points at it, and the company's
 * webhooks hear of it (issue 23 §2); a new ticket has no queue or attendant to name yet.
 */
export async function ticketCreated(ticket: TicketRecord): Promise<FoundTicket> {
  await emitWebhookEvent(ticket.companyId, 'ticket.created', { ticket: presentTicket(ticket, {}) });
  return found({ ticket, outcome: 'created' });
}

export async function findOrCreateTicket(input: {
  companyId: number;
  connectionId: number;
  contact: Contact;
  /** Setting timeCreateNewTicket. */
  reopenWithinHours: number;
  now: Date;
  /** A ticket the caller read a moment ago (readHintedTicket): taken when it still holds the slot. */
  current?: TicketRecord;
  /**
   * A campaign's send (campaigns/thread.ts): with no active ticket, the latest closed one updated
   * within `reopenWithinHours` takes the message as it is (closed), else a new one is created closed,
   * so a campaign fills nobody's Pending list; the contact's answer reopens it. Nothing is reopened here.
   */
  createClosed?: boolean;
}): Promise<FoundTicket> {
  const { companyId, connectionId, contact, now } = input;
  if (input.current && holdsSlot(input.current, contact.id, connectionId)) return found({ ticket: input.current, outcome: 'existing' });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const slot = await getSlot(companyId, contact.id, connectionId);
    const latest = slot ? await getTicket(companyId, slot.ticketId) : undefined;
    if (slot?.active && latest && isActive(latest.status)) return found({ ticket: latest, outcome: 'existing' });

    const recent =
      latest?.status === 'closed' &&
      input.reopenWithinHours > 0 &&
      now.getTime() - Date.parse(latest.updatedAt) <= input.reopenWithinHours * 3_600_000;
    if (latest && recent && input.createClosed) return found({ ticket: latest, outcome: 'existing' });
    if (latest && recent) {
      try {
        const patch = { status: 'pending', userId: null, chatbot: false, bot: null, awaitingRating: false } as const;
        // The conversation's line (tickets/thread-events.ts): the contact's message brought it back.
        const history = historyItems(['reopened'], latest, { ...latest, ...patch }, null, now.toISOString());
        const reopened = await updateTicketState(latest, patch, history);
        return found({ ticket: reopened, outcome: 'reopened', previous: latest });
      } catch (error) {
        if (error instanceof SlotTakenError || error instanceof StaleTicketError) continue;
        throw error;
      }
    }

    const at = now.toISOString();
    const ticket = messageTicket(await newTicketId(companyId), contact, connectionId, input.createClosed ? 'closed' : 'pending', at);
    try {
      return await ticketCreated(await createTicket(ticket));
    } catch (error) {
      if (error instanceof SlotTakenError) continue;
      throw error;
    }
  }
  throw new Error(`No ticket for contact ${contact.id} on connection ${connectionId} after ${MAX_ATTEMPTS} attempts`);
}
