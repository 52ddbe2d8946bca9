/**
 * A WhatsApp message (or a rejected call) into the inbox, in resumable steps:
 *   1. store   the message, its WhatsApp link (the dedupe guard) and the ticket's activity in one
 *              transaction (a new contact's first message: with the contact and its ticket,
 *              storage/first-message.ts); a replay finds the link and stores nothing new (our own
 *              echo finds the link written when we queued the send);
 *   2. bot     rating reply or chatbot, committed with its replies and the link's `botDone`
 *              (nothing to do: `botDone` waits for step 3's write);
 *   3. send    the realtime events and the replies' commands, then the link's `dispatched`.
 * A retry after a crash at any point resumes at the first step not recorded on the link.
 * Within an SQS batch of the inbound consumer, step 1's search words and step 3's link mark wait
 * for the batch's end (handlers/consumers/inbound.ts), the words written before the marks: a
 * resumed message (its link not marked) writes its words again.
 */

import { logger } from '#commons/logger';
import type { Contact } from '#contracts/contacts';
import type { WaMessage } from '#contracts/session-events';
import type { settingDefaults } from '#contracts/settings';
import { queueBotTurnIfHeld } from '#domain/bots/queue';
import { runChatbot } from '#domain/chatbot/run';
import {
  type ContactSource,
  contactCreatedWebhook,
  contactNumber,
  findContact,
  keepsContact,
  settleContact,
} from '#domain/contacts/resolve';
import { cleanFileName } from '#domain/media/keys';
import type { Effects } from '#domain/messages/effects';
import { messageIdAt } from '#domain/messages/message-id';
import { dispatchOutgoing, quoting } from '#domain/messages/send';
import { afterTicketChange } from '#domain/tickets/auto-assign';
import { findOrCreateTicket, newConversation, readHintedTicket, ticketCreatedWithMessage } from '#domain/tickets/find-or-create';
import { publishTicketLost } from '#domain/tickets/notify';
import { loadTicketRefs, presentTicket, type TicketRefs } from '#domain/tickets/present';
import { publishContact, publishMessage } from '#domain/tickets/publish';
import { wakeOnContactMessage } from '#domain/tickets/snooze';
import { getItemBatched } from '#storage/batch-get';
import type { ConnectionRecord } from '#storage/connections';
import { contactKey, getContact, getContactByNumber } from '#storage/contacts';
import { storeFirstMessage } from '#storage/first-message';
import { type DeferredWords, type IndexedMessage, syncMessageWords } from '#storage/message-words';
import {
  getMessage,
  getMessageByWaId,
  getWaLink,
  type MessageRecord,
  storeMessage,
  ticketAfterActivity,
  updateWaLink,
  type WaLink,
  waLinkKey,
} from '#storage/messages';
import type { QueueRecord } from '#storage/queues';
import { hints } from '#storage/read-cache';
import { getTicket, type TicketRecord } from '#storage/tickets';
import { type BatchReferences, batchReferences } from './batch-references.ts';
import { markDispatched, type RecordMarks } from './dispatch-marks.ts';

export type MessageOutcome = 'stored' | 'duplicate' | 'resumed' | 'ignored';

type Settings = Record<keyof typeof settingDefaults, string>;

async function loadSettings(companyId: number, refs: BatchReferences): Promise<Settings> {
  return Object.fromEntries((await refs.settings(companyId)).map((s) => [s.key, s.value])) as Settings;
}

/** SPEC 2: a location body is image|link|description. */
function locationBody(message: WaMessage): string {
  const { latitude, longitude, description } = message.location ?? { latitude: 0, longitude: 0 };
  return [message.media?.key ?? '', `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`, description ?? ''].join('|');
}

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
  /** The SQS batch's deferred search words (storage/message-words.ts); without, written at once. */
  words?: DeferredWords,
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
  if (link) return (await resume(companyId, connectionId, wa.id, link, effects, refs, marks, words)) ? 'resumed' : 'duplicate';

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
    const first = await storeNewContactMessage({ source, wa, record, now, context, ...(words ? { words } : {}) });
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
    const storedAt = new Date().toISOString();
    const stored = await storeMessage(message, ticket, {
      unread: !wa.fromMe,
      requireActive: true,
      // Our own messages typed on the phone need no bot.
      link: wa.fromMe ? { botDone: true } : {},
      ...(words ? { words } : {}),
    });
    // A renamed contact's event (findContact) went out beside the store; it precedes the message's.
    await resolved.published;
    if (stored === 'ticketClosed') continue;
    if (stored === 'duplicate') return resumeRaced(companyId, connectionId, wa.id, effects, refs, marks, words);
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
      botDone: wa.fromMe,
    });
    return 'stored';
  }
  throw new Error(`Ticket of contact ${contact.id} kept closing under message ${wa.id}`);
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
 * message in one transaction (storage/first-message.ts), then steps 2 and 3. 'contactTaken': a
 * concurrent first message from the number created the contact; nothing was written.
 */
async function storeNewContactMessage(input: {
  source: ContactSource;
  wa: WaMessage;
  record: (ticket: TicketRecord, contact: Contact) => MessageRecord;
  now: Date;
  context: Arrival;
  words?: DeferredWords;
}): Promise<MessageOutcome | 'contactTaken'> {
  const { source, wa, now, context, words } = input;
  const { companyId, connectionId, connection, effects } = context;
  const { contact, ticket } = await newConversation(source, 'pending', now);
  const message = input.record(ticket, contact);
  const first = await storeFirstMessage({
    contact,
    ticket,
    message,
    unread: !wa.fromMe,
    link: wa.fromMe ? { botDone: true } : {},
    ...(words ? { words } : {}),
  });
  if (first === 'contactTaken') return first;
  if (first === 'duplicate') return resumeRaced(companyId, connectionId, wa.id, effects, context.refs, context.marks, words);
  contactHints.set(`${companyId}:${contact.number}`, contact.id);
  // The company's webhooks hear of the contact, then of its ticket; its socket event waits for the message's frame.
  await contactCreatedWebhook(contact);
  const { ticket: stored } = await ticketCreatedWithMessage(first.stored);
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
  words?: DeferredWords,
): Promise<'duplicate'> {
  const raced = await getWaLink(companyId, connectionId, waId);
  if (raced) await resume(companyId, connectionId, waId, raced, effects, refs, marks, words);
  return 'duplicate';
}

/** The message record of an inbound event on `ticket`. */
function inboundRecord(
  wa: WaMessage,
  at: {
    companyId: number;
    connectionId: number;
    ticket: TicketRecord;
    contact: Contact;
    quoted: MessageRecord | undefined;
    createdAt: string;
    now: Date;
  },
): MessageRecord {
  const { ticket, contact, quoted, createdAt } = at;
  return {
    id: messageIdAt(Date.parse(createdAt), ticket.id),
    companyId: at.companyId,
    ticketId: ticket.id,
    contactId: contact.id,
    whatsappId: at.connectionId,
    waId: wa.id,
    body: wa.location ? locationBody(wa) : wa.body,
    fromMe: wa.fromMe,
    read: wa.fromMe,
    mediaType: wa.location ? 'locationMessage' : (wa.mediaType ?? null),
    mediaPath: wa.media?.key ?? null,
    mediaUrl: wa.media?.key ?? null,
    // A contact's document name, as the attendant will read it: no bidi trick, no control character.
    mediaName: wa.media?.filename ? cleanFileName(wa.media.filename) || null : null,
    ack: wa.fromMe ? 1 : 0,
    isDeleted: false,
    isEdited: false,
    ...quoting(quoted),
    contact: wa.fromMe ? null : { name: wa.isGroup ? wa.pushName || wa.participantNumber || '' : contact.name },
    pending: false,
    error: null,
    bot: false,
    userId: null,
    createdAt,
    updatedAt: at.now.toISOString(),
  };
}

/** The queue and connection of the ticket from the cached references, so presenting it reads only its user. */
function knownRefs(ticket: TicketRecord, connection: ConnectionRecord, queues: QueueRecord[]): TicketRefs {
  const queue = ticket.queueId === null ? undefined : queues.find((q) => q.id === ticket.queueId);
  return { connection, ...(queue ? { queue } : {}) };
}

/** Steps 2 and 3 (see the top of the file). */
async function afterStore(input: {
  companyId: number;
  connectionId: number;
  waId: string;
  message: MessageRecord;
  /**
   * The ticket as the store left it and its names (undefined when resuming: read them); `previous`: a
   * reopened ticket as it was; `fresh`: this message created or reopened it.
   */
  stored?: { ticket: TicketRecord; refs: Promise<TicketRefs>; previous?: TicketRecord; fresh?: boolean };
  contact?: Contact;
  /**
   * A new contact's event: queued just before its first message's, so a coalescing publisher sends
   * both in one frame per socket (realtime/outbox.ts), the contact's first.
   */
  announce?: () => Promise<unknown>;
  connection: ConnectionRecord;
  settings: Settings;
  effects: Effects;
  refs: BatchReferences;
  botDone: boolean;
  marks?: RecordMarks;
}): Promise<void> {
  const { companyId, connectionId, waId, message, connection, effects } = input;
  const [read, allQueues] = await Promise.all([
    input.stored?.ticket ?? getTicket(companyId, message.ticketId),
    input.refs.queues(companyId),
  ]);
  if (!read) return;
  let ticket = read;
  const queues = allQueues.filter((queue) => connection.queueIds.includes(queue.id));
  let replies: MessageRecord[] = [];
  let botRecorded = input.botDone;
  if (!input.botDone) {
    const outcome = await runChatbot({
      ticket,
      inbound: message,
      waId,
      connection,
      queues,
      settings: input.settings,
      now: effects.now(),
    });
    replies = outcome.replies;
    ticket = outcome.ticket;
    botRecorded = outcome.committed;
  }
  // The names as read beside the store, unless the bot moved the ticket to another queue or user.
  const names =
    input.stored && ticket.queueId === read.queueId && ticket.userId === read.userId
      ? await input.stored.refs
      : await loadTicketRefs(ticket, knownRefs(ticket, connection, allQueues));
  const presented = presentTicket(ticket, names);
  const contact = input.contact?.id === message.contactId ? input.contact : await getContact(companyId, message.contactId);
  // The message's create event carries the ticket as the message left it (last message, unread
  // count, a new ticket whole) to the ticket's viewers, who put it in their lists from there: a
  // separate ticket `update` would repeat it to the same sockets. With the bot's replies, the
  // ticket's one update follows them (dispatchOutgoing): the bot may have moved it.
  await input.announce?.();
  if (contact) await publishMessage(effects, 'create', message, presented, contact);
  // The contact answered a snoozed ticket: it is back in its list now (issue 22 §5, tickets/snooze).
  if (!message.fromMe) ticket = await wakeOnContactMessage(ticket, effects);
  // The bot gave the ticket a queue, or the message reopened it without its attendant: who saw it before drops it (tickets/notify).
  await publishTicketLost(effects, input.stored?.previous ?? read, ticket);
  // The bot's replies go out with the ticket its turn committed (they leave the ticket item as it
  // is), the contact and names just read: a first message's greeting read them again otherwise.
  if (replies.length) await dispatchOutgoing(replies, ticket, effects, { connection }, contact ? { current: ticket, contact, names } : {});
  // A prompt or integration holds the ticket: its turn runs beside the pipeline (domain/bots).
  await queueBotTurnIfHeld(ticket, message);
  // The chatbot is done with it and it waits in a queue: an attendant with room takes it at once (issue 22 §2).
  await afterTicketChange(effects, input.stored?.fresh ? input.stored.previous : read, ticket);
  const mark = { companyId, connectionId, waId, botRecorded };
  if (input.marks) input.marks.defer(mark);
  else await markDispatched(mark);
}

/**
 * The message's create event (carrying the ticket) for a resumed event, from a fresh read of the
 * ticket. The contact is read unless known; queue and connection names come from the references.
 */
async function publishStored(
  message: MessageRecord,
  effects: Effects,
  known: { connection?: ConnectionRecord; queues?: NonNullable<TicketRefs['queue']>[]; contact?: Contact } = {},
): Promise<void> {
  const [ticket, contact] = await Promise.all([
    getTicket(message.companyId, message.ticketId),
    known.contact?.id === message.contactId ? known.contact : getContact(message.companyId, message.contactId),
  ]);
  if (!ticket || !contact) return;
  const queue = ticket.queueId === null ? undefined : known.queues?.find((q) => q.id === ticket.queueId);
  const presented = presentTicket(
    ticket,
    await loadTicketRefs(ticket, { ...(known.connection ? { connection: known.connection } : {}), ...(queue ? { queue } : {}) }),
  );
  await publishMessage(effects, 'create', message, presented, contact);
}

/** A replayed event: finish what a crashed attempt left undone. True when something was left. */
async function resume(
  companyId: number,
  connectionId: number,
  waId: string,
  link: WaLink,
  effects: Effects,
  refs: BatchReferences,
  marks?: RecordMarks,
  words?: DeferredWords,
): Promise<boolean> {
  // Done, or done earlier in this batch with its link's mark still to be written.
  if (link.dispatched || marks?.has(companyId, connectionId, waId)) return false;
  const [message, connection] = await Promise.all([
    getMessage(companyId, link.ticketId, link.messageId),
    refs.connection(companyId, connectionId),
  ]);
  if (!message || !connection) return false;
  // A batch's words are written before its marks: an attempt that stopped short of its mark may
  // have stopped short of its words too (they are Puts: writing them again changes nothing).
  // Outside a batch, they are written after the events, which they never hold back.
  const index = (message as MessageRecord & Pick<IndexedMessage, 'wordIndex'>).wordIndex;
  if (index?.words.length && words) words.defer(message, index);
  const writeWords = async () => {
    if (index?.words.length && !words) await syncMessageWords(message, index.shard, index.words, []);
  };
  if (!link.botDone) {
    await afterStore({
      companyId,
      connectionId,
      waId,
      message,
      connection,
      settings: await loadSettings(companyId, refs),
      effects,
      refs,
      botDone: false,
    });
    await writeWords();
    return true;
  }
  const ticket = await getTicket(companyId, link.ticketId);
  const replies = (await Promise.all((link.replyIds ?? []).map((id) => getMessage(companyId, link.ticketId, id)))).filter(
    (reply): reply is MessageRecord => reply !== undefined,
  );
  if (ticket && replies.length) await dispatchOutgoing(replies, ticket, effects, { connection });
  else await publishStored(message, effects, { connection });
  if (ticket) await queueBotTurnIfHeld(ticket, message);
  await writeWords();
  await updateWaLink(companyId, connectionId, waId, { dispatched: true });
  return true;
}
