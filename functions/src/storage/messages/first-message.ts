/**
 * A new contact's first message, in one transaction (issue 24 §2): the contact with its number guard
 * (contacts/contacts.ts), its first ticket claiming the (contact, connection) slot with the message's activity
 * already applied (tickets/tickets.ts), and the message with its WhatsApp link (messages/messages.ts): the contact's
 * own first message (domain/inbound/message.ts) or a campaign's first send to a new number
 * (domain/campaigns/thread.ts, its ticket created closed). Written apart,
 * they took three transactions one after the other; together they stand or fall as one, so a crash
 * leaves no contact without its ticket nor a ticket without the message that opened it.
 *
 * The contact's dashboard count and the ticket's may fall on the same counter item (same day, queue
 * 0, shard), which one transaction may touch once: they are merged into the ticket's counter items.
 *
 * Outcomes: 'contactTaken' when a concurrent first message from the number created the contact
 * (its guard's condition failed): nothing is written, the caller goes on with that contact;
 * 'duplicate' when the message's link exists (the same event stored meanwhile).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type ContactRecord, contactCreateItems } from '../contacts/contacts.ts';
import { contactCounterDeltas } from '../dashboard-counters.ts';
import { db, transactionCancellationCodes } from '../db.ts';
import type { TicketRecord } from '../tickets/record.ts';
import { ticketCreateItems } from '../tickets/tickets.ts';
import { type MessageRecord, messageItems, ticketAfterActivity, withWordIndex } from './messages.ts';
import type { WaLink } from './wa-links.ts';

export type FirstMessageOutcome = { stored: TicketRecord } | 'contactTaken' | 'duplicate';

/** Attempts when the transaction only met another one on a shared item (a counter): nothing was written. */
const MAX_ATTEMPTS = 3;

export async function storeFirstMessage(input: {
  contact: ContactRecord;
  /** The new ticket as it starts (newTicketRecord), on `contact` and the message's connection. */
  ticket: TicketRecord;
  message: MessageRecord;
  /** Whether the message counts as unread (an inbound one). */
  unread: boolean;
  link?: Omit<WaLink, 'messageId' | 'ticketId'>;
  /** False for a text sent to many tickets (a campaign's): its words would match everything. */
  indexWords?: boolean;
}): Promise<FirstMessageOutcome> {
  const { contact, message } = input;
  const indexed = withWordIndex(message, input.indexWords ?? true);
  const contactItems = contactCreateItems(contact);
  const { ticket, items: ticketItems } = await ticketCreateItems(
    ticketAfterActivity(input.ticket, message, input.unread, input.ticket.createdAt),
    [],
    await contactCounterDeltas(contact),
  );
  const linkAt = contactItems.length + ticketItems.length;
  const items = [...contactItems, ...ticketItems, ...messageItems(indexed, input.link)];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      // Its words go in through the table's stream (messages/words.ts).
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { stored: ticket };
    } catch (error) {
      const codes = transactionCancellationCodes(error);
      if (!codes) throw error;
      if (codes[linkAt] === 'ConditionalCheckFailed') return 'duplicate';
      if (codes[0] === 'ConditionalCheckFailed') return 'contactTaken';
      if (codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed')) continue;
      throw error;
    }
  }
  throw new Error(`Could not store the first message ${message.id} of contact ${contact.id}`);
}
