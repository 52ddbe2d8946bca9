/**
 * A WhatsApp message (or a rejected call) into the inbox, in resumable steps:
 *   1. store   the message, its WhatsApp link (the dedupe guard) and the ticket's activity in one
 *              transaction; a replay finds the link and stores nothing new (our own echo finds the
 *              link written when we queued the send);
 *   2. bot     rating reply or chatbot, committed with its replies and the link's `botDone`;
 *   3. send    the replies' commands and the realtime events, then the link's `dispatched`.
 * A retry after a crash at any point resumes at the first step not recorded on the link.
 */
import { logger } from '#commons/logger';
import type { Contact } from '#contracts/contacts';
import type { MediaType, WaMessage } from '#contracts/session-events';
import type { settingDefaults } from '#contracts/settings';
import { runChatbot } from '#domain/chatbot/run';
import { resolveContact } from '#domain/contacts/resolve';
import type { Effects } from '#domain/messages/effects';
import { messageIdAt } from '#domain/messages/message-id';
import { dispatchOutgoing } from '#domain/messages/send';
import { findOrCreateTicket } from '#domain/tickets/find-or-create';
import { loadTicketRefs, presentTicket, type TicketRefs } from '#domain/tickets/present';
import { publishMessage, publishTicket } from '#domain/tickets/publish';
import { getContact } from '#storage/contacts';
import { getMessage, getMessageByWaId, getWaLink, type MessageRecord, storeMessage, updateWaLink, type WaLink } from '#storage/messages';
import { getTicket, type TicketRecord } from '#storage/tickets';
import type { ConnectionRecord } from '#storage/whatsapps';
import { type BatchReferences, batchReferences } from './batch-references.ts';

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

export async function handleWaMessage(
  companyId: number,
  connectionId: number,
  wa: WaMessage,
  effects: Effects,
  refs: BatchReferences = batchReferences(),
): Promise<MessageOutcome> {
  // Independent reads side by side; settings and connection are shared by the batch anyway.
  const [link, settings, connection] = await Promise.all([
    getWaLink(companyId, connectionId, wa.id),
    loadSettings(companyId, refs),
    refs.connection(companyId, connectionId),
  ]);
  if (link) return (await resume(companyId, connectionId, wa.id, link, effects, refs)) ? 'resumed' : 'duplicate';

  if (wa.isGroup && settings.CheckMsgIsGroup === 'enabled') return 'ignored';
  if (!connection) {
    logger.warn('inbound message for an unknown connection', { companyId, connectionId });
    return 'ignored';
  }
  const [contact, quoted] = await Promise.all([
    resolveContact({ companyId, connectionId, number: wa.number, isGroup: wa.isGroup, fromMe: wa.fromMe, pushName: wa.pushName }, effects),
    wa.quotedId ? getMessageByWaId(companyId, connectionId, wa.quotedId) : undefined,
  ]);
  const now = effects.now();
  const createdAt = new Date(wa.timestamp || now.getTime()).toISOString();
  const mediaType: MediaType | null = wa.location ? 'locationMessage' : (wa.mediaType ?? null);

  for (let attempt = 0; attempt < 3; attempt++) {
    const { ticket } = await findOrCreateTicket({
      companyId,
      connectionId,
      contact,
      reopenWithinHours: Number(settings.timeCreateNewTicket) || 0,
      now,
    });
    const message: MessageRecord = {
      id: messageIdAt(Date.parse(createdAt)),
      companyId,
      ticketId: ticket.id,
      contactId: contact.id,
      whatsappId: connectionId,
      waId: wa.id,
      body: wa.location ? locationBody(wa) : wa.body,
      fromMe: wa.fromMe,
      read: wa.fromMe,
      mediaType,
      mediaPath: wa.media?.key ?? null,
      mediaUrl: wa.media?.key ?? null,
      mediaName: wa.media?.filename ?? null,
      ack: wa.fromMe ? 1 : 0,
      isDeleted: false,
      isEdited: false,
      quotedMsgId: quoted?.id ?? null,
      quotedMsg: quoted
        ? {
            id: quoted.id,
            body: quoted.body,
            fromMe: quoted.fromMe,
            mediaType: quoted.mediaType,
            mediaUrl: quoted.mediaUrl,
            contact: quoted.contact,
          }
        : null,
      contact: wa.fromMe ? null : { name: wa.isGroup ? wa.pushName || wa.participantNumber || '' : contact.name },
      pending: false,
      error: null,
      bot: false,
      userId: null,
      createdAt,
      updatedAt: now.toISOString(),
    };
    const stored = await storeMessage(message, ticket, {
      unread: !wa.fromMe,
      requireActive: true,
      // Our own messages typed on the phone need no bot.
      link: wa.fromMe ? { botDone: true } : {},
    });
    if (stored === 'ticketClosed') continue;
    if (stored === 'duplicate') {
      const raced = await getWaLink(companyId, connectionId, wa.id);
      if (raced) await resume(companyId, connectionId, wa.id, raced, effects, refs);
      return 'duplicate';
    }
    await afterStore({
      companyId,
      connectionId,
      waId: wa.id,
      message,
      ticket: afterActivity(ticket, message, !wa.fromMe),
      contact,
      connection,
      settings,
      effects,
      refs,
      botDone: wa.fromMe,
    });
    return 'stored';
  }
  throw new Error(`Ticket of contact ${contact.id} kept closing under message ${wa.id}`);
}

/**
 * The ticket as the store's transaction left it, without reading it back: the chatbot only decides
 * on its state fields (status, queue, bot, rating), which the store does not touch, and commits
 * conditionally on `revision` (also untouched), so a concurrent change still makes it re-read and
 * decide again. The events are built from a fresh read (publishStored, dispatchOutgoing).
 */
function afterActivity(ticket: TicketRecord, message: MessageRecord, unread: boolean): TicketRecord {
  const at = Date.parse(message.createdAt);
  const newest = at >= (ticket.lastMessageAt ?? 0);
  return {
    ...ticket,
    ...(newest ? { lastMessage: message.body, lastMessageAt: at } : {}),
    unreadMessages: ticket.unreadMessages + (unread ? 1 : 0),
  };
}

/** Steps 2 and 3 (see the top of the file). */
async function afterStore(input: {
  companyId: number;
  connectionId: number;
  waId: string;
  message: MessageRecord;
  /** Undefined when resuming: read it. */
  ticket?: TicketRecord;
  contact?: Contact;
  connection: ConnectionRecord;
  settings: Settings;
  effects: Effects;
  refs: BatchReferences;
  botDone: boolean;
}): Promise<void> {
  const { companyId, connectionId, waId, message, connection, effects } = input;
  const [stored, allQueues] = await Promise.all([input.ticket ?? getTicket(companyId, message.ticketId), input.refs.queues(companyId)]);
  let ticket = stored;
  if (!ticket) return;
  const queues = allQueues.filter((queue) => connection.queueIds.includes(queue.id));
  let replies: MessageRecord[] = [];
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
  }
  await publishStored(message, effects, { connection, queues: allQueues, contact: input.contact });
  if (replies.length) await dispatchOutgoing(replies, ticket, effects, { connection });
  await updateWaLink(companyId, connectionId, waId, { dispatched: true });
}

/**
 * The message's create event and the ticket's update, from a fresh read of the ticket (its counters
 * may have moved since the store). The contact is the one this event resolved, when there is one
 * (a rename after that is published as its own contact event); queue and connection names come
 * from the batch's references.
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
  await publishTicket(effects, presented);
}

/** A replayed event: finish what a crashed attempt left undone. True when something was left. */
async function resume(
  companyId: number,
  connectionId: number,
  waId: string,
  link: WaLink,
  effects: Effects,
  refs: BatchReferences,
): Promise<boolean> {
  if (link.dispatched) return false;
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
  await updateWaLink(companyId, connectionId, waId, { dispatched: true });
  return true;
}
