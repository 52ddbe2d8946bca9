/**
 * Steps 2 and 3 of an inbound message (message.ts has the steps and step 1): the rating reply or the
 * chatbot, then the realtime events, the replies' commands and the link's marks; and the resumption of
 * an event whose earlier attempt stopped short of them.
 */

import type { Contact } from '#contracts/contacts';
import type { settingDefaults } from '#contracts/settings';
import { queueBotTurnIfHeld } from '#domain/bots/queue';
import { runChatbot } from '#domain/chatbot/run';
import type { Effects } from '#domain/messages/effects';
import { dispatchOutgoing } from '#domain/messages/send';
import { afterTicketChange } from '#domain/tickets/auto-assign';
import { publishTicketLost } from '#domain/tickets/notify';
import { loadTicketRefs, presentTicket, type TicketRefs } from '#domain/tickets/present';
import { publishMessage } from '#domain/tickets/publish';
import { wakeOnContactMessage } from '#domain/tickets/snooze';
import type { ConnectionRecord } from '#storage/connections';
import { getContact } from '#storage/contacts/contacts';
import { getMessage, type MessageRecord } from '#storage/messages/messages';
import { updateWaLink, type WaLink } from '#storage/messages/wa-links';
import type { QueueRecord } from '#storage/queues/queues';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';
import type { BatchReferences } from './batch-references.ts';
import { markDispatched, type RecordMarks } from './dispatch-marks.ts';

export type Settings = Record<keyof typeof settingDefaults, string>;

export async function loadSettings(companyId: number, refs: BatchReferences): Promise<Settings> {
  return Object.fromEntries((await refs.settings(companyId)).map((s) => [s.key, s.value])) as Settings;
}

/** The queue and connection of the ticket from the cached references, so presenting it reads only its user. */
export function knownRefs(ticket: TicketRecord, connection: ConnectionRecord, queues: QueueRecord[]): TicketRefs {
  const queue = ticket.queueId === null ? undefined : queues.find((q) => q.id === ticket.queueId);
  return { connection, ...(queue ? { queue } : {}) };
}

/** Steps 2 and 3 (see message.ts). */
export async function afterStore(input: {
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
  const queued = await queueBotTurnIfHeld(ticket, message);
  // The chatbot is done with it and it waits in a queue: an attendant with room takes it at once (issue 22 §2).
  await afterTicketChange(effects, input.stored?.fresh ? input.stored.previous : read, ticket);
  const mark = { companyId, connectionId, waId, botRecorded };
  // `botDone` went in with the store and all since were events: nothing a replay must not repeat,
  // so no write (a replay publishes them again). The batch still counts the message as done.
  if (input.stored && input.botDone && !queued) input.marks?.settle(mark);
  else if (input.marks) input.marks.defer(mark);
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
export async function resume(
  companyId: number,
  connectionId: number,
  waId: string,
  link: WaLink,
  effects: Effects,
  refs: BatchReferences,
  marks?: RecordMarks,
): Promise<boolean> {
  // Done, or done earlier in this batch with its link's mark still to be written.
  if (link.dispatched || marks?.has(companyId, connectionId, waId)) return false;
  const [message, connection] = await Promise.all([
    getMessage(companyId, link.ticketId, link.messageId),
    refs.connection(companyId, connectionId),
  ]);
  if (!message || !connection) return false;
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
    return true;
  }
  const ticket = await getTicket(companyId, link.ticketId);
  const replies = (await Promise.all((link.replyIds ?? []).map((id) => getMessage(companyId, link.ticketId, id)))).filter(
    (reply): reply is MessageRecord => reply !== undefined,
  );
  if (ticket && replies.length) await dispatchOutgoing(replies, ticket, effects, { connection });
  else await publishStored(message, effects, { connection });
  if (ticket) await queueBotTurnIfHeld(ticket, message);
  await updateWaLink(companyId, connectionId, waId, { dispatched: true });
  return true;
}
