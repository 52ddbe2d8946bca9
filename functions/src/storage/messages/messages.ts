/**
 * Messages of a ticket. The WhatsApp ids that map to them (the inbound dedupe guard): wa-links.ts.
 *
 *   message   pk = C#<cid>#TK#<padded ticketId>   sk = MSG#<message id>
 *             The id is a UUID v7 built from the message's own time (WhatsApp's timestamp for
 *             inbound, now for ours), so the sort key orders the conversation by time, history
 *             delivered late included. A page of the N newest is one Query (ScanIndexForward=false,
 *             Limit N) and older ones on scroll continue from its cursor: N items read per page,
 *             whatever the ticket's length. The ticket item shares the partition (sk TICKET).
 *   id lookup pk = C#<cid>#MSG#<message id>        sk = LOOKUP   { ticketId }
 *             DELETE /messages/{id} names the message alone. A message whose id names its ticket
 *             (contracts/message-ticket-id.ts: every id built with its ticket known, issue 24) is
 *             read straight from that ticket and has none; the others (ids from before, a
 *             schedule's) get theirs written with the message, and getMessageById reads them after
 *             the ticket their id seems to name.
 *
 * Denormalisations: `quotedMsg` copies what a reply shows of the quoted message (body, sender,
 * media) at store time; `contact.name` is the author's name at the time (group members have no
 * contact of their own). The ticket's lastMessage/unreadMessages are updated in the same
 * transaction as the message (ticketActivity).
 *
 * Writes of a stored message (storeMessage), in one transaction: the message, its id lookup (only
 * for an id that does not name its ticket), its WhatsApp link (when it has a WhatsApp id), the ticket's activity, plus the list indexes' share:
 * one Update per tag of the ticket (its tag links' sort keys follow updatedAt, tickets/tickets.ts "tag
 * link"). The message records where its words go (`wordIndex`, at most MAX_MESSAGE_WORDS); the
 * search index's items follow it through the table's stream (messages/words.ts), off this path, and
 * edits and deletes take them back the same way.
 * Messages committed by other paths (chatbot replies, automatic messages: messageItems) and a
 * campaign's (storeMessage with indexWords false) are not word-indexed: the same text on every
 * ticket would make those words match everything.
 *
 * Changes to a stored message (acks, edits, deletes, the outcome of our sends): messages/status.ts.
 */

import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { messagePreview } from '#contracts/message-preview';
import { namesTicket, ticketNamedBy } from '#contracts/message-ticket-id';
import type { Message } from '#contracts/messages';
import { waMessageIdFor } from '#contracts/wa-message-id';
import { firstResponseCounterItems } from '../dashboard-counters.ts';
import { db, decodeCursor, encodeCursor, getItem, stripKeys, type TransactItem, table, transactionCancellationCodes } from '../db.ts';
import { messageWordItems, messageWords } from '../search-index.ts';
import { tenantPk } from '../table.ts';
import { listSortKey, tagLinkKey, tagsUnchanged, ticketListKeys } from '../tickets/list-keys.ts';
import type { TicketRecord } from '../tickets/record.ts';
import { ticketKey, ticketPk } from '../tickets/tickets.ts';
import { getWaLink, type WaLink, waLinkKey } from './wa-links.ts';
import { type IndexedMessage, newWordIndex, repairMessageWords, type WordRepairMarks } from './words.ts';

export type MessageRecord = Message;

export const messageKey = (companyId: number, ticketId: number, id: string) => ({ pk: ticketPk(companyId, ticketId), sk: `MSG#${id}` });
export const lookupKey = (companyId: number, id: string) => ({ pk: `${tenantPk(companyId)}#MSG#${id}`, sk: 'LOOKUP' });
export const getMessage = (companyId: number, ticketId: number, id: string): Promise<MessageRecord | undefined> =>
  getItem<MessageRecord>(ticketPk(companyId, ticketId), `MSG#${id}`);

/** The message of that id: on the ticket its id names, or else (an id that names none) through its lookup item. */
export async function getMessageById(companyId: number, id: string): Promise<MessageRecord | undefined> {
  const named = ticketNamedBy(id);
  const found = named === undefined ? undefined : await getMessage(companyId, named, id);
  if (found) return found;
  const lookup = await getItem<{ ticketId: number }>(lookupKey(companyId, id).pk, 'LOOKUP');
  return lookup ? getMessage(companyId, lookup.ticketId, id) : undefined;
}

export async function getMessageByWaId(companyId: number, connectionId: number, waId: string): Promise<MessageRecord | undefined> {
  const link = await getWaLink(companyId, connectionId, waId);
  return link ? getMessage(companyId, link.ticketId, link.messageId) : undefined;
}

export interface MessagePage {
  /** Newest first. */
  messages: MessageRecord[];
  cursor?: string;
}

/** The listMessagesPage cursor that continues after (older than) message `id` of the ticket. */
export const messageCursor = (companyId: number, ticketId: number, id: string): string =>
  encodeCursor(messageKey(companyId, ticketId, id)) as string;

export async function listMessagesPage(
  companyId: number,
  ticketId: number,
  options: { limit: number; cursor?: string },
): Promise<MessagePage> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': ticketPk(companyId, ticketId), ':prefix': 'MSG#' },
      ScanIndexForward: false,
      Limit: options.limit,
      ExclusiveStartKey: decodeCursor(options.cursor),
    }),
  );
  return { messages: (out.Items ?? []).map((item) => stripKeys<MessageRecord>(item)), cursor: encodeCursor(out.LastEvaluatedKey) };
}

/**
 * The ticket side of a new message: lastMessage (only if this message is the newest, history may
 * arrive late), updatedAt and the list sort keys, unread +1 for inbound. Never bumps revision.
 * The first item is the ticket's; then one per tag link (their sort keys follow the ticket's, on
 * condition that the ticket's tags are still those read). Only sort keys move: the partitions
 * (status, queue, user) are a state change's, whose transaction moves them.
 */
export function ticketActivity(
  ticket: TicketRecord,
  message: {
    body: string;
    at: number;
    unread: boolean;
    newest: boolean;
    requireActive: boolean;
    /** An attendant's first answer since the ticket entered its queue (tickets/sla.ts): when it was sent. */
    firstResponseAt?: string;
    /** The conversation's first response (dashboard-counters.ts F..): the ticket's convAt, counted once. */
    firstReplyOf?: string;
    /** Only while the ticket is at this revision (a state decided on it still holds). */
    revision?: number;
  },
  now = new Date().toISOString(),
): TransactItem[] {
  const sk = listSortKey(now, ticket.id);
  const sets = ['updatedAt = :now', 'gsi1sk = :sk', 'gsi3sk = :sk', 'gsi2sk = :sk'];
  const tags = tagsUnchanged(ticket.tags);
  const values: Record<string, unknown> = { ':now': now, ':sk': sk, ':inc': message.unread ? 1 : 0, ...tags.values };
  const conditions = ['attribute_exists(pk)', tags.condition];
  if (message.newest) {
    sets.push('lastMessage = :body', 'lastMessageAt = :at', 'lastMessageDeleted = :notDeleted');
    values[':body'] = message.body;
    values[':at'] = message.at;
    values[':notDeleted'] = false;
    conditions.push('(attribute_not_exists(lastMessageAt) OR lastMessageAt <= :at)');
  }
  const names: Record<string, string> = {};
  if (message.requireActive) {
    conditions.push('#status <> :closed');
    values[':closed'] = 'closed';
    names['#status'] = 'status';
  }
  // The ticket's state is pinned (its revision): its list partitions follow from it, so the ticket
  // moves to its shard now rather than at its next state change (a tenant sharded while its
  // conversations were under way, list-shards.ts). The same writes as moving the sort key alone.
  const pinned = message.revision !== undefined;
  if (pinned) {
    const { gsi1pk, gsi3pk } = ticketListKeys(ticket);
    conditions.push('revision = :revision');
    sets.push('gsi1pk = :gsi1pk', 'gsi3pk = :gsi3pk');
    Object.assign(values, { ':revision': message.revision, ':gsi1pk': gsi1pk, ':gsi3pk': gsi3pk });
  }
  if (message.firstResponseAt) {
    // The first one wins; the map must still be there (a state change may have replaced or dropped it: re-read then).
    sets.push('#sla.#responded = if_not_exists(#sla.#responded, :respondedAt)');
    conditions.push('attribute_exists(#sla.#firstDue)');
    values[':respondedAt'] = message.firstResponseAt;
    Object.assign(names, { '#sla': 'sla', '#responded': 'firstRespondedAt', '#firstDue': 'firstResponseDueAt' });
  }
  if (message.firstReplyOf) {
    // Once per conversation: a second first reply committed meanwhile fails this, re-reads, and counts nothing.
    sets.push('#replied = :conv');
    conditions.push('#conv = :conv AND (attribute_not_exists(#replied) OR #replied <> :conv)');
    values[':conv'] = message.firstReplyOf;
    Object.assign(names, { '#conv': 'convAt', '#replied': 'respondedConvAt' });
  }
  const linkMoves: TransactItem[] = (ticket.tags ?? []).map((tag) => {
    const partitions = pinned ? ticketListKeys(ticket, tag.id) : undefined;
    return {
      Update: {
        TableName: table(),
        Key: tagLinkKey(ticket.companyId, tag.id, ticket.id),
        UpdateExpression: `SET gsi1sk = :sk, gsi2sk = :sk, gsi3sk = :sk${partitions ? ', gsi1pk = :gsi1pk, gsi3pk = :gsi3pk' : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':sk': sk, ...(partitions ? { ':gsi1pk': partitions.gsi1pk, ':gsi3pk': partitions.gsi3pk } : {}) },
      },
    };
  });
  return [
    {
      Update: {
        TableName: table(),
        Key: ticketKey(ticket.companyId, ticket.id),
        UpdateExpression: `SET ${sets.join(', ')} ADD unreadMessages :inc`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeValues: values,
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      },
    },
    ...linkMoves,
  ];
}

/** The search index items of a message's words (search-index.ts), as plain items for a bulk load (the bench). */
export const messageSearchItems = (message: MessageRecord, shard = 0) =>
  messageWordItems(message.companyId, message.ticketId, message.id, { shard, words: messageWords(message.body ?? '') });

/**
 * The message, its id lookup (unless its id names its ticket) and (when it has one) its WhatsApp
 * link, each only if new. The link's condition is the dedupe guard; the lookup is a plain Put.
 */
export function messageItems(message: MessageRecord, link: Omit<WaLink, 'messageId' | 'ticketId'> = {}): TransactItem[] {
  const items: TransactItem[] = [];
  const waId =
    message.waId ?? (message.fromMe && message.pending ? waMessageIdFor(message.companyId, message.whatsappId, message.id) : null);
  if (waId) {
    items.push({
      Put: {
        TableName: table(),
        Item: {
          ...waLinkKey(message.companyId, message.whatsappId, waId),
          entity: 'waLink',
          messageId: message.id,
          ticketId: message.ticketId,
          // Our own send: its echo has nothing left to do.
          ...(message.waId ? {} : { botDone: true, dispatched: true }),
          ...link,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }
  items.push({
    Put: {
      TableName: table(),
      Item: { ...messageKey(message.companyId, message.ticketId, message.id), entity: 'message', ...message },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  if (!namesTicket(message.id, message.ticketId))
    items.push({
      Put: {
        TableName: table(),
        Item: { ...lookupKey(message.companyId, message.id), entity: 'messageLookup', ticketId: message.ticketId },
      },
    });
  return items;
}

export type StoreOutcome = 'stored' | 'duplicate' | 'ticketClosed' | 'ticketChanged';

/**
 * Whether `message` is the first response the ticket's service level waits for (tickets/sla.ts): a
 * message of ours typed by a person (in the inbox or on the phone: not the bot's, nor a campaign's,
 * a schedule's, the API's, a greeting or another automatic one; never a private note, which the
 * customer does not see), sent after the ticket entered its queue, while no first response is recorded.
 */
function answersFirst(message: MessageRecord, ticket: TicketRecord): boolean {
  const sla = ticket.sla;
  if (!message.fromMe || message.bot || message.origin || message.isPrivate || !sla?.firstResponseDueAt || sla.firstRespondedAt)
    return false;
  return Date.parse(message.createdAt) >= Date.parse(sla.startedAt);
}

/**
 * The convAt of the conversation `message` is the first response of, for the reports
 * (dashboard-counters.ts F..), or undefined: typed by an attendant (the same senders as
 * answersFirst, in any queue, with a service level or not), on an active ticket, at or after the
 * conversation began, none counted yet for that conversation.
 */
function firstReplyOf(message: MessageRecord, ticket: TicketRecord): string | undefined {
  if (!message.fromMe || message.bot || message.origin || message.isPrivate) return undefined;
  if (!ticket.convAt || ticket.status === 'closed' || ticket.respondedConvAt === ticket.convAt) return undefined;
  return Date.parse(message.createdAt) >= Date.parse(ticket.convAt) ? ticket.convAt : undefined;
}

/**
 * Stores a message with its guard and the ticket's activity, all or nothing.
 * `duplicate`: its WhatsApp id (or our id) is already stored; `ticketClosed`: the ticket closed
 * meanwhile (with requireActive), find the contact's current ticket and store again;
 * `ticketChanged`: the ticket left `botDoneAt`'s revision meanwhile, decide on it again.
 */
export async function storeMessage(
  message: MessageRecord,
  ticket: TicketRecord,
  options: {
    unread: boolean;
    requireActive: boolean;
    link?: Omit<WaLink, 'messageId' | 'ticketId'>;
    /** False for a text sent to many tickets (a campaign's): its words would match everything. */
    indexWords?: boolean;
    /** More writes that stand or fall with the message (a note's mentions, storage/mentions.ts). */
    extra?: TransactItem[];
    /**
     * The chatbot has nothing to do for this message on the ticket at this revision (an inbound
     * message, decided before the store): the link records `botDone`, and the store holds only while
     * the ticket is still at that revision.
     */
    botDoneAt?: number;
  },
): Promise<StoreOutcome> {
  const at = Date.parse(message.createdAt);
  let current = ticket;
  let newest = becomesLast(message, ticket);
  const indexed = withWordIndex(message, options.indexWords ?? true);
  const link = options.botDoneAt === undefined ? options.link : { ...options.link, botDone: true };
  for (let attempt = 0; attempt < 3; attempt++) {
    const items = messageItems(indexed, link);
    const replyOf = firstReplyOf(message, current);
    // The ticket's item first (its failure is read at items.length), then the first reply's counters.
    const activity = [
      ...ticketActivity(current, {
        body: messagePreview(message),
        at,
        unread: options.unread,
        newest,
        requireActive: options.requireActive,
        firstResponseAt: answersFirst(message, current) ? message.createdAt : undefined,
        firstReplyOf: replyOf,
        ...(options.botDoneAt === undefined ? {} : { revision: options.botDoneAt }),
      }),
      ...(replyOf ? await firstResponseCounterItems({ ...current, convAt: replyOf }, message.userId, message.createdAt) : []),
    ];
    try {
      await db().send(new TransactWriteCommand({ TransactItems: [...items, ...activity, ...(options.extra ?? [])] }));
      await repairWordsOf(current);
      return 'stored';
    } catch (error) {
      const codes = transactionCancellationCodes(error);
      if (!codes) throw error;
      // Only met another transaction on a shared item (a first reply's counter): nothing written, try again.
      if (codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed')) continue;
      if (codes.slice(0, items.length).includes('ConditionalCheckFailed')) return 'duplicate';
      if (codes[items.length] !== 'ConditionalCheckFailed') throw error;
      // The ticket failed its condition: closed, its tags changed, or a newer message is already its lastMessage.
      const reread = await getItem<TicketRecord>(ticketPk(ticket.companyId, ticket.id), 'TICKET');
      if (!reread || (options.requireActive && reread.status === 'closed')) return 'ticketClosed';
      if (options.botDoneAt !== undefined && reread.revision !== options.botDoneAt) return 'ticketChanged';
      current = reread;
      newest = becomesLast(message, reread);
    }
  }
  throw new Error(`Could not store message ${message.id} on ticket ${ticket.id}`);
}

type WordIndexed = MessageRecord & Partial<Pick<IndexedMessage, 'wordIndex'>>;

/**
 * Whether `message` becomes the ticket's last message (its list preview and lastMessageAt): sent no
 * earlier than the last one (history may arrive late), and never a private note, so a note does not
 * read as an answer (outbound/note.ts).
 */
const becomesLast = (message: MessageRecord, ticket: Pick<TicketRecord, 'lastMessageAt'>): boolean =>
  !message.isPrivate && Date.parse(message.createdAt) >= (ticket.lastMessageAt ?? 0);

/**
 * The message as stored: with its words' place in the index (messages/words.ts) recorded on it, for
 * the table's stream to index, an edit or a delete to change; none when `index` is false.
 */
export function withWordIndex(message: MessageRecord, index: boolean): WordIndexed {
  const wordIndex = index ? newWordIndex(message.companyId, message.ticketId, message.body) : undefined;
  return wordIndex ? { ...message, wordIndex } : message;
}

/**
 * The ticket as a message's activity leaves it (ticketActivity's writes, applied to the record): the
 * message as its last one when newest, one more unread for an inbound one, updated `at`.
 */
export function ticketAfterActivity(ticket: TicketRecord, message: MessageRecord, unread: boolean, at: string): TicketRecord {
  return {
    ...ticket,
    ...(becomesLast(message, ticket)
      ? { lastMessage: messagePreview(message), lastMessageAt: Date.parse(message.createdAt), lastMessageDeleted: false }
      : {}),
    unreadMessages: ticket.unreadMessages + (unread ? 1 : 0),
    updatedAt: at,
  };
}

/**
 * The ticket's earlier messages whose words failed to go in before the table's stream indexed them
 * (messages/words.ts): repaired by the next message stored on the ticket. Never fails the message.
 * The message's own words go in through the stream.
 */
export async function repairWordsOf(ticket: TicketRecord & WordRepairMarks): Promise<void> {
  if (ticket.wordRepairs?.size) await repairMessageWords(ticket.companyId, ticket.id, ticket.wordRepairs).catch(() => 0);
}

/** A message read with GetItem directly (for tests and resumption). */
export async function messageExists(companyId: number, ticketId: number, id: string): Promise<boolean> {
  const out = await db().send(new GetCommand({ TableName: table(), Key: messageKey(companyId, ticketId, id), ProjectionExpression: 'pk' }));
  return Boolean(out.Item);
}
