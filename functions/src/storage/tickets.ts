/**
 * Tickets. Designed for issue 4's cost rule: a page of 40 tickets costs a bounded number of
 * requests and items read whether the tenant has 1k or 1M tickets. Every list is one Query (or one
 * per selected queue, merged) over an index partition that holds exactly the rows of that list,
 * newest first, so no list reads rows it then throws away.
 *
 *   ticket         pk = C#<cid>#TK#<padded id>      sk = TICKET
 *                  (its messages share the partition, see messages.ts: a conversation is one
 *                   item collection, and a ticket is fetched by id with one GetItem)
 *     gsi1  status x queue   gsi1pk = C#<cid>#TS#<status>#Q#<queueId | 0>
 *           -> Pending of the user's queues (one Query per queue, k-way merged), "no queue"
 *              pending (Q#0, for allTicket users), show-all Open/Closed filtered by queueIds
 *     gsi2  status x user    gsi2pk = C#<cid>#TS#<status>#U#<userId>   (absent when unassigned)
 *           -> Assigned (open by user), a user's closed tickets (search's user filter)
 *     gsi3  status           gsi3pk = C#<cid>#TS#<status>
 *           -> admin show-all without a queue filter, Closed tab, dashboard counters
 *     every index sorts on   gsiNsk = <updatedAt ISO>#<padded id>  (newest first, ties by id)
 *   uuid lookup    pk = C#<cid>#TKU#<uuid>          sk = LOOKUP   { ticketId }
 *                  -> GET /tickets/u/{uuid}; written with the ticket, strongly consistent
 *   slot           pk = C#<cid>#CT#<contactId>      sk = SLOT#W#<padded connectionId>  { ticketId, active }
 *                  -> the guard of "never two open/pending tickets per (contact, connection)":
 *                     claimed (active) with a conditional write in the transaction that creates
 *                     or reopens a ticket, released in the one that closes it; while released it
 *                     still names the latest ticket, which is the reopen-within-timeCreateNewTicket
 *                     candidate (one GetItem instead of a search)
 *   contact link   pk = C#<cid>#CT#<contactId>      sk = TICKET#<padded id>   { ticketId, whatsappId }
 *                  -> a contact's tickets, and the tickets whose contact copy to refresh
 *
 * Denormalisations (each saves reads on every list page):
 *   - contact {name, number, profilePicUrl}: copied at creation, refreshed by refreshTicketContact
 *     when the contact changes (bounded by that contact's tickets).
 *   - lastMessage, unreadMessages: kept by the message writes (messages.ts) in the same transaction.
 *   queue / user / connection names are NOT copied: they are per-tenant sets bounded by the plan,
 *   read once per page, and renaming one must not rewrite a million tickets.
 *
 * Concurrency: `revision` counts state changes (status, queue, user, chatbot, rating); a state
 * change is a conditional Update on it. Message activity (lastMessage, unread, updatedAt) is an
 * Update of its own fields only and never bumps it, so routing and traffic never lose each other.
 */
import { BatchGetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketContactSummary, TicketStatus } from '#contracts/tickets';
import { contactPk } from './contacts.ts';
import { db, decodeCursor, encodeCursor, getItem, isConditionalCheckFailed, stripKeys, table, transactionCancellationCodes } from './db.ts';
import { pad, tenantPk } from './table.ts';

/** Where the chatbot is with this ticket (domain/chatbot). */
export interface BotState {
  /** `menu`: the queue menu was sent; `options`: walking `queueId`'s option tree at `optionId` (null = root). */
  stage: 'menu' | 'options';
  optionId: number | null;
  /** Menus sent in the current window (BEHAVIOUR: at most maxUseBotQueues within timeUseBotQueues). */
  menuCount: number;
  menuWindowStart: string | null;
}

export interface TicketRecord {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  contactId: number;
  contact: TicketContactSummary;
  whatsappId: number;
  isGroup: boolean;
  lastMessage: string;
  /** Epoch ms of the message shown as lastMessage (history may arrive out of order). */
  lastMessageAt: number;
  unreadMessages: number;
  chatbot: boolean;
  bot: BotState | null;
  /** When the out-of-hours message last went out (at most once per 5 minutes). */
  outOfHoursAt: string | null;
  awaitingRating: boolean;
  rating: number | null;
  ratedAt: string | null;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
  /** Copy of the ticket's tags, kept by the tags feature (storage/ticket-tags.ts); absent = none. */
  tags?: { id: number; name: string; color: string }[];
}

/** Fields a state change may set (not the message counters). */
export type TicketStatePatch = Partial<
  Pick<
    TicketRecord,
    | 'status'
    | 'userId'
    | 'queueId'
    | 'chatbot'
    | 'bot'
    | 'outOfHoursAt'
    | 'awaitingRating'
    | 'rating'
    | 'ratedAt'
    | 'useIntegration'
    | 'promptId'
    | 'integrationId'
    | 'lastMessage'
    | 'lastMessageAt'
    | 'unreadMessages'
  >
>;

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export const ticketPk = (companyId: number, ticketId: number): string => `${tenantPk(companyId)}#TK#${pad(ticketId)}`;
export const TICKET_SK = 'TICKET';
export const ticketKey = (companyId: number, ticketId: number) => ({ pk: ticketPk(companyId, ticketId), sk: TICKET_SK });
const uuidKey = (companyId: number, uuid: string) => ({ pk: `${tenantPk(companyId)}#TKU#${uuid}`, sk: 'LOOKUP' });
const slotKey = (companyId: number, contactId: number, connectionId: number) => ({
  pk: contactPk(companyId, contactId),
  sk: `SLOT#W#${pad(connectionId)}`,
});
const linkKey = (companyId: number, contactId: number, ticketId: number) => ({
  pk: contactPk(companyId, contactId),
  sk: `TICKET#${pad(ticketId)}`,
});

export const isActive = (status: TicketStatus): boolean => status !== 'closed';
export const listSortKey = (updatedAt: string, id: number): string => `${updatedAt}#${pad(id)}`;

/** Index partitions of the lists above. */
export const ticketLists = {
  byStatusAndQueue: (companyId: number, status: TicketStatus, queueId: number | null) =>
    `${tenantPk(companyId)}#TS#${status}#Q#${queueId ?? 0}`,
  byStatusAndUser: (companyId: number, status: TicketStatus, userId: number) => `${tenantPk(companyId)}#TS#${status}#U#${userId}`,
  byStatus: (companyId: number, status: TicketStatus) => `${tenantPk(companyId)}#TS#${status}`,
};

function indexKeys(ticket: Pick<TicketRecord, 'companyId' | 'id' | 'status' | 'queueId' | 'userId' | 'updatedAt'>) {
  const sk = listSortKey(ticket.updatedAt, ticket.id);
  return {
    gsi1pk: ticketLists.byStatusAndQueue(ticket.companyId, ticket.status, ticket.queueId),
    gsi1sk: sk,
    gsi2pk: ticket.userId ? ticketLists.byStatusAndUser(ticket.companyId, ticket.status, ticket.userId) : undefined,
    gsi2sk: ticket.userId ? sk : undefined,
    gsi3pk: ticketLists.byStatus(ticket.companyId, ticket.status),
    gsi3sk: sk,
  };
}

export const getTicket = (companyId: number, ticketId: number): Promise<TicketRecord | undefined> =>
  getItem<TicketRecord>(ticketPk(companyId, ticketId), TICKET_SK);

export async function getTicketByUuid(companyId: number, uuid: string): Promise<TicketRecord | undefined> {
  const lookup = await getItem<{ ticketId: number }>(uuidKey(companyId, uuid).pk, 'LOOKUP');
  return lookup ? getTicket(companyId, lookup.ticketId) : undefined;
}

export interface TicketSlot {
  ticketId: number;
  active: boolean;
}

/** The (contact, connection) slot: its active ticket, or its latest closed one. */
export const getSlot = (companyId: number, contactId: number, connectionId: number): Promise<TicketSlot | undefined> =>
  getItem<TicketSlot>(slotKey(companyId, contactId, connectionId).pk, slotKey(companyId, contactId, connectionId).sk);

export class SlotTakenError extends Error {
  constructor() {
    super('The contact already has an open or pending ticket on this connection');
    this.name = 'SlotTakenError';
  }
}

export class StaleTicketError extends Error {
  constructor() {
    super('The ticket changed since it was read');
    this.name = 'StaleTicketError';
  }
}

const claimSlot = (ticket: TicketRecord): TransactItem => ({
  Put: {
    TableName: table(),
    Item: { ...slotKey(ticket.companyId, ticket.contactId, ticket.whatsappId), entity: 'ticketSlot', ticketId: ticket.id, active: true },
    ConditionExpression: 'attribute_not_exists(pk) OR active = :false',
    ExpressionAttributeValues: { ':false': false },
  },
});

const releaseSlot = (ticket: TicketRecord): TransactItem => ({
  Update: {
    TableName: table(),
    Key: slotKey(ticket.companyId, ticket.contactId, ticket.whatsappId),
    UpdateExpression: 'SET active = :false',
    ConditionExpression: 'ticketId = :id',
    ExpressionAttributeValues: { ':false': false, ':id': ticket.id },
  },
});

/**
 * A new ticket with its uuid lookup and contact link, claiming the (contact, connection) slot when
 * it is open or pending. SlotTakenError when another active ticket holds it.
 */
export async function createTicket(ticket: TicketRecord, extra: TransactItem[] = []): Promise<TicketRecord> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table(),
        Item: { ...ticketKey(ticket.companyId, ticket.id), ...indexKeys(ticket), entity: 'ticket', ...ticket },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: table(), Item: { ...uuidKey(ticket.companyId, ticket.uuid), entity: 'ticketUuid', ticketId: ticket.id } } },
    {
      Put: {
        TableName: table(),
        Item: {
          ...linkKey(ticket.companyId, ticket.contactId, ticket.id),
          entity: 'contactTicket',
          ticketId: ticket.id,
          whatsappId: ticket.whatsappId,
        },
      },
    },
  ];
  if (isActive(ticket.status)) items.push(claimSlot(ticket));
  // Writes committed with the ticket (its history event), after the slot so its index stays 3.
  items.push(...extra);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionCancellationCodes(error)?.[3] === 'ConditionalCheckFailed') throw new SlotTakenError();
    throw error;
  }
  return ticket;
}

/**
 * The Update item of a state change: sets `patch` and the index keys of the resulting state, bumps
 * revision, and fails unless the stored revision is still `ticket.revision`. Exposed so a caller can
 * commit it with other writes (the chatbot commits its replies with it).
 */
export function ticketStateUpdate(
  ticket: TicketRecord,
  patch: TicketStatePatch,
  now = new Date().toISOString(),
): { item: TransactItem; next: TicketRecord } {
  const next: TicketRecord = { ...ticket, ...patch, updatedAt: now, revision: ticket.revision + 1 };
  const keys = indexKeys(next);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':expected': ticket.revision };
  const sets: string[] = [];
  const removes: string[] = [];
  const fields: Record<string, unknown> = { ...patch, updatedAt: now, revision: next.revision, ...keys };
  Object.entries(fields).forEach(([field, value], i) => {
    if (value === undefined && !(field in keys)) return;
    names[`#f${i}`] = field;
    if (value === undefined) removes.push(`#f${i}`);
    else {
      values[`:v${i}`] = value;
      sets.push(`#f${i} = :v${i}`);
    }
  });
  names['#rev'] = 'revision';
  return {
    next,
    item: {
      Update: {
        TableName: table(),
        Key: ticketKey(ticket.companyId, ticket.id),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: '#rev = :expected',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  };
}

/** The slot writes a status change needs (claim on closed -> active, release on active -> closed). */
export function slotTransition(ticket: TicketRecord, next: TicketRecord): TransactItem[] {
  if (isActive(ticket.status) && !isActive(next.status)) return [releaseSlot(ticket)];
  if (!isActive(ticket.status) && isActive(next.status)) return [claimSlot(next)];
  return [];
}

/**
 * Applies a state change atomically with its slot transition and any `extra` writes.
 * StaleTicketError when the ticket changed since it was read (re-read and decide again);
 * SlotTakenError when reopening while another ticket of the contact is active on the connection.
 */
export async function updateTicketState(ticket: TicketRecord, patch: TicketStatePatch, extra: TransactItem[] = []): Promise<TicketRecord> {
  const { item, next } = ticketStateUpdate(ticket, patch);
  const slotItems = slotTransition(ticket, next);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [item, ...slotItems, ...extra] }));
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (codes?.[0] === 'ConditionalCheckFailed') throw new StaleTicketError();
    if (slotItems.length && codes?.[1] === 'ConditionalCheckFailed') throw new SlotTakenError();
    throw error;
  }
  return next;
}

/**
 * Unread back to 0 when an attendant opens the ticket (BEHAVIOUR). A counter, not a state change:
 * no revision bump. False when there was nothing to reset (or no such ticket).
 */
export async function resetUnread(companyId: number, ticketId: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: ticketKey(companyId, ticketId),
        UpdateExpression: 'SET unreadMessages = :zero',
        ConditionExpression: 'attribute_exists(pk) AND unreadMessages > :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Refreshes the contact copy on every ticket of the contact (after a contact edit). */
export async function refreshTicketContact(companyId: number, contactId: number, contact: TicketContactSummary): Promise<number> {
  let refreshed = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': contactPk(companyId, contactId), ':prefix': 'TICKET#' },
        ExclusiveStartKey,
      }),
    );
    for (const link of page.Items ?? []) {
      await db()
        .send(
          new UpdateCommand({
            TableName: table(),
            Key: ticketKey(companyId, link.ticketId as number),
            UpdateExpression: 'SET contact = :contact',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':contact': contact },
          }),
        )
        .then(
          () => refreshed++,
          (error: unknown) => {
            // A link whose ticket was deleted: nothing to refresh.
            if (!isConditionalCheckFailed(error)) throw error;
          },
        );
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return refreshed;
}

export interface TicketPage {
  tickets: TicketRecord[];
  cursor?: string;
}

/** One page of a list partition (see ticketLists), newest first: one Query, `limit` items read. */
export async function listTicketsPage(
  index: 'gsi1' | 'gsi2' | 'gsi3',
  partition: string,
  options: { limit: number; cursor?: string },
): Promise<TicketPage> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: false,
      Limit: options.limit,
      ExclusiveStartKey: decodeCursor(options.cursor),
    }),
  );
  return { tickets: (out.Items ?? []).map((item) => stripKeys<TicketRecord>(item)), cursor: encodeCursor(out.LastEvaluatedKey) };
}

/** A contact's tickets, newest first (contact links, then one BatchGet). */
export async function listContactTickets(companyId: number, contactId: number, limit = 40): Promise<TicketRecord[]> {
  const links = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': contactPk(companyId, contactId), ':prefix': 'TICKET#' },
      ScanIndexForward: false,
      Limit: Math.min(limit, 100),
    }),
  );
  const ids = (links.Items ?? []).map((link) => link.ticketId as number);
  if (!ids.length) return [];
  const out = await db().send(
    new BatchGetCommand({ RequestItems: { [table()]: { Keys: ids.map((id) => ticketKey(companyId, id)), ConsistentRead: true } } }),
  );
  const tickets = (out.Responses?.[table()] ?? []).map((item) => stripKeys<TicketRecord>(item));
  return tickets.sort((a, b) => b.id - a.id);
}
