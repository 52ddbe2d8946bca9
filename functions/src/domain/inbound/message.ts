/**
 * A WhatsApp message (or a rejected call) into the inbox, in resumable steps:
 *   1. store   the message, its WhatsApp link (the dedupe guard) and the ticket's activity in one
 *              transaction (a new contact's first message: with the contact and its ticket,
 *              storage/messages/first-message.ts); a replay finds the link and stores nothing new (our own
 *              echo finds the link written when we queued the send);
 *   2. bot     rating reply or chatbot, committed with its replies and the link's `botDone`
 *              (nothing to do: `botDone` waits for step 3's write);
 *   3. send    the realtime events and the replies' commands, then the link's `dispatched`.
 * A retry after a crash at any point resumes at the first step not recorded on the link.
 * Most messages need no bot (a ticket with its attendant, or in its queue past the menu): decided
 * before step 1 on the ticket as read, the store records `botDone` itself (conditional on the
 * ticket's revision), and step 3 writes no mark: its events are all it does, and a replay of the
 * event publishes them again (steps.ts resume).
 * Within an SQS batch of the inbound consumer, step 3's link mark waits for the batch's end
 * (handlers/consumers/inbound.ts). The message's search words go in through the table's stream
 * (storage/messages/words.ts), off this path.
 */

import { logger } from '#commons/logger';
import type { Contact } from '#contracts/contacts';
import type { WaMessage } from '#contracts/session-events';
import { botHolds } from '#domain/bots/holds';
import { chatbotWouldAct } from '#domain/chatbot/run';
import {
  type ContactSource,
  contactCreatedWebhook,
  contactNumber,
  findContact,
  keepsContact,
  settleContact,
} from '#domain/contacts/resolve';
import type { Effects } from '#domain/messages/effects';
import { findOrCreateTicket, newConversation, readHintedTicket, ticketCreated } from '#domain/tickets/find-or-create';
import { loadTicketRefs } from '#domain/tickets/present';
import { publishContact } from '#domain/tickets/publish';
import { getItemBatched } from '#storage/batch-get';
import type { ConnectionRecord } from '#storage/connections';
import { contactKey, getContactByNumber } from '#storage/contacts/contacts';
import { storeFirstMessage } from '#storage/messages/first-message';
import { getMessageByWaId, type MessageRecord, storeMessage, ticketAfterActivity } from '#storage/messages/messages';
import { getWaLink, type WaLink, waLinkKey } from '#storage/messages/wa-links';
import type { QueueRecord } from '#storage/queues/queues';
import { hints } from '#storage/read-cache';
import type { TicketRecord } from '#storage/tickets/record';
import { type BatchReferences, batchReferences } from './batch-references.ts';
import type { RecordMarks } from './dispatch-marks.ts';
import { inboundRecord } from './record.ts';
import { afterStore, knownRefs, loadSettings, resume, type Settings } from './steps.ts';

export type MessageOutcome = 'stored' | 'duplicate' | 'resumed' | 'ignored';

/**
 * Per container: the contact id last resolved for a number (see storage/read-cache.ts `hints`).
 * A contact read through it counts only while it still has that number (the number guard makes a
 * number one contact's), and only when resolveContact would return it unchanged (keepsContact): a
 * contact whose name is just its number goes through resolveContact when the message carries a
 * pushName that may rename it, and stays on the hint when it carries none.
 */
const contactHints = hints<number>();

async function readHintedContact(source: ContactSource, number: string): Promise<Contact | undefined> {
  const id = contactHints.get(`${source.companyId}:${number}`);
  if (id === undefined) return undefined;
  const contact = await getItemBatched<Contact>(contactKey(source.companyId, id));
  return contact && contact.number === number && keepsContact(contact, source) ? contact : undefined;
}

export async function handleWaMessage(
  companyId: number,
  connectionId: number,
  wa: WaMessage,
  effects: Effects,
  refs: BatchReferences = batchReferences(),
  /** The SQS batch's deferred link marks (dispatch-marks.ts); without, each is written at once. */
  marks?: RecordMarks,
): Promise<MessageOutcome> {
  // One round of independent reads: the dedupe link, the cached references, and (for a contact
  // this container has seen) the contact and its active ticket through the hints. The point reads
  // go out with those of the batch's other messages as one BatchGetItem (storage/batch-get.ts).
  const source = { companyId, connectionId, number: wa.number, isGroup: wa.isGroup, fromMe: wa.fromMe, pushName: wa.pushName };
  const number = contactNumber(source);
  const hintedContactId = contactHints.get(`${companyId}:${number}`);
  // A number this container has not seen: its contact (through the number guard) is read in this round too.
  const [link, settings, connection, allQueues, hintedContact, hintedTicket, quoted, numberContact] = await Promise.all([
    getItemBatched<WaLink>(waLinkKey(companyId, connectionId, wa.id)),
    loadSettings(companyId, refs),
    refs.connection(companyId, connectionId),
    refs.queues(companyId),
    readHintedContact(source, number),
    hintedContactId === undefined ? undefined : readHintedTicket(companyId, hintedContactId, connectionId),
    wa.quotedId ? getMessageByWaId(companyId, connectionId, wa.quotedId) : undefined,
    hintedContactId === undefined ? getContactByNumber(companyId, number) : undefined,
  ]);
  if (link) return (await resume(companyId, connectionId, wa.id, link, effects, refs, marks)) ? 'resumed' : 'duplicate';

  if (wa.isGroup && settings.CheckMsgIsGroup === 'enabled') return 'ignored';
  if (!connection) {
    logger.warn('inbound message for an unknown connection', { companyId, connectionId });
    return 'ignored';
  }
  const now = effects.now();
  const createdAt = new Date(wa.timestamp || now.getTime()).toISOString();
  const record = (ticket: TicketRecord, contact: Contact) =>
    inboundRecord(wa, { companyId, connectionId, ticket, contact, quoted, createdAt, now });
  const found = hintedContact
    ? { contact: hintedContact }
    : hintedContactId === undefined
      ? await settleContact(source, effects, numberContact)
      : await findContact(source, effects);
  const context: Arrival = { companyId, connectionId, connection, allQueues, settings, effects, refs, ...(marks ? { marks } : {}) };
  if (!found) {
    // A new contact: the contact, its ticket and the message in one transaction.
    const first = await storeNewContactMessage({ source, wa, record, now, context });
    if (first !== 'contactTaken') return first;
  }
  // Known, or created a moment ago by a concurrent first message from the number: on with it.
  const resolved = found ?? (await findContact(source, effects));
  if (!resolved) throw new Error(`The contact of ${number} was created meanwhile but is missing`);
  const { contact } = resolved;
  contactHints.set(`${companyId}:${number}`, contact.id);

  for (let attempt = 0; attempt < 3; attempt++) {
    const { ticket, previous, outcome } = await findOrCreateTicket({
      companyId,
      connectionId,
      contact,
      reopenWithinHours: Number(settings.timeCreateNewTicket) || 0,
      now,
      // Only on the first attempt: after 'ticketClosed' the slot is read again.
      ...(attempt === 0 && hintedTicket ? { current: hintedTicket } : {}),
    });
    const message = record(ticket, contact);
    // The names the events show, read beside the store (they do not depend on it).
    const ticketRefs = loadTicketRefs(ticket, knownRefs(ticket, connection, allQueues));
    ticketRefs.catch(() => undefined); // awaited only after a successful store; its failure surfaces there
    const botDoneAt = wa.fromMe ? undefined : await botIdleAt(ticket, message, wa.id, context, now);
    const storedAt = new Date().toISOString();
    const stored = await storeMessage(message, ticket, {
      unread: !wa.fromMe,
      requireActive: true,
      // Our own messages typed on the phone need no bot.
      link: wa.fromMe ? { botDone: true } : {},
      ...(botDoneAt === undefined ? {} : { botDoneAt }),
    });
    // A renamed contact's event (findContact) went out beside the store; it precedes the message's.
    await resolved.published;
    // Closed, or moved off the revision the bot was decided on: read the ticket and decide again.
    if (stored === 'ticketClosed' || stored === 'ticketChanged') continue;
    if (stored === 'duplicate') return resumeRaced(companyId, connectionId, wa.id, effects, refs, marks);
    await afterStore({
      ...context,
      waId: wa.id,
      message,
      stored: {
        // As the store left it, without reading it back: the chatbot decides only on the state fields
        // (status, queue, bot, rating), which the store does not touch, and commits on `revision`
        // (untouched too), so a concurrent change still makes it re-read and decide again. A counter
        // moved by someone else meanwhile (an attendant opening the ticket resets unread) is published
        // by that change's own event.
        ticket: ticketAfterActivity(ticket, message, !wa.fromMe, storedAt),
        refs: ticketRefs,
        previous,
        fresh: outcome !== 'existing',
      },
      contact,
      botDone: wa.fromMe || botDoneAt !== undefined,
    });
    return 'stored';
  }
  throw new Error(`Ticket of contact ${contact.id} kept closing under message ${wa.id}`);
}

/**
 * The ticket's revision when the chatbot has nothing to do for `message` on it (a ticket with its
 * attendant, or waiting in its queue past the menu): the store records `botDone` on the link,
 * conditional on that revision, so the message needs no write after it (steps.ts afterStore).
 * Undefined when the bot would act, or a bot integration holds the ticket (its turn is queued in step 3).
 */
async function botIdleAt(
  ticket: TicketRecord,
  message: MessageRecord,
  waId: string,
  arrival: Arrival,
  now: Date,
): Promise<number | undefined> {
  if (botHolds(ticket)) return undefined;
  const queues = arrival.allQueues.filter((queue) => arrival.connection.queueIds.includes(queue.id));
  const acts = await chatbotWouldAct({
    ticket,
    inbound: message,
    waId,
    connection: arrival.connection,
    queues,
    settings: arrival.settings,
    now,
  });
  return acts ? undefined : ticket.revision;
}

/** What a message's steps share once its connection and references are read. */
interface Arrival {
  companyId: number;
  connectionId: number;
  connection: ConnectionRecord;
  allQueues: QueueRecord[];
  settings: Settings;
  effects: Effects;
  refs: BatchReferences;
  marks?: RecordMarks;
}

/**
 * A new contact's first message: the contact, its ticket (ids allocated side by side) and the
 * message in one transaction (storage/messages/first-message.ts), then steps 2 and 3. 'contactTaken': a
 * concurrent first message from the number created the contact; nothing was written.
 */
async function storeNewContactMessage(input: {
  source: ContactSource;
  wa: WaMessage;
  record: (ticket: TicketRecord, contact: Contact) => MessageRecord;
  now: Date;
  context: Arrival;
}): Promise<MessageOutcome | 'contactTaken'> {
  const { source, wa, now, context } = input;
  const { companyId, connectionId, connection, effects } = context;
  const { contact, ticket } = await newConversation(source, 'pending', now);
  const message = input.record(ticket, contact);
  const first = await storeFirstMessage({
    contact,
    ticket,
    message,
    unread: !wa.fromMe,
    link: wa.fromMe ? { botDone: true } : {},
  });
  if (first === 'contactTaken') return first;
  if (first === 'duplicate') return resumeRaced(companyId, connectionId, wa.id, effects, context.refs, context.marks);
  contactHints.set(`${companyId}:${contact.number}`, contact.id);
  // The company's webhooks hear of the contact, then of its ticket; its socket event waits for the message's frame.
  await contactCreatedWebhook(contact);
  const { ticket: stored } = await ticketCreated(first.stored);
  const ticketRefs = loadTicketRefs(stored, knownRefs(stored, connection, context.allQueues));
  await afterStore({
    ...context,
    waId: wa.id,
    message,
    stored: { ticket: stored, refs: ticketRefs, fresh: true },
    contact,
    announce: () => publishContact(effects, contact),
    botDone: wa.fromMe,
  });
  return 'stored';
}

/** The same event stored by a concurrent run a moment ago: finish what it may have left. */
async function resumeRaced(
  companyId: number,
  connectionId: number,
  waId: string,
  effects: Effects,
  refs: BatchReferences,
  marks?: RecordMarks,
): Promise<'duplicate'> {
  const raced = await getWaLink(companyId, connectionId, waId);
  if (raced) await resume(companyId, connectionId, waId, raced, effects, refs, marks);
  return 'duplicate';
}
