/**
 * Tickets. Designed for issue 4's cost rule: a page of 40 tickets costs a bounded number of
 * requests and items read whether the tenant has 1k or 1M tickets. Every list is one Query (or one
 * per selected queue, merged) over an index partition that holds exactly the rows of that list,
 * newest first, so no list reads rows it then throws away.
 *
 *   ticket         pk = C#<cid>#TK#<padded id>      sk = TICKET
 *                  (its messages share the partition, see messages/messages.ts: a conversation is one
 *                   item collection, and a ticket is fetched by id with one GetItem)
 *     gsi1  status x queue   gsi1pk = C#<cid>#TS#<status>#Q#<queueId | 0>
 *           -> Pending of the user's queues (one Query per queue, k-way merged), "no queue"
 *              pending (Q#0, for allTicket users), show-all Open/Closed filtered by queueIds
 *     gsi2  status x user    gsi2pk = C#<cid>#TS#<status>#U#<userId>   (absent when unassigned)
 *           -> Assigned (open by user), a user's closed tickets (search's user filter)
 *     gsi3  status           gsi3pk = C#<cid>#TS#<status>
 *           -> admin show-all without a queue filter, Closed tab, dashboard counters
 *     every index sorts on   gsiNsk = <updatedAt ISO>#<padded id>  (newest first, ties by id)
 *     (the keys are built in tickets/list-keys.ts, for the ticket and its tag links alike)
 *     a busy tenant's gsi1 and gsi3 partitions are write-sharded by ticket id (`...#s<n>`, see
 *     list-shards.ts); its readers read every shard and merge them like any other sources
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
 *   tag link       pk = C#<cid>#TG#<tagId>          sk = TICKET#<padded id>   { ticketId }
 *                  (written by tags.ts) carries the ticket's three list keys scoped to the tag
 *                  (gsiNpk = C#<cid>#TG#<tagId>#TS#..., same gsiNsk): a tag-filtered list reads the
 *                  tag's partition of exactly the list it filters, newest first. Every write that
 *                  moves the ticket in its lists (state change, message activity) rewrites its tag
 *                  links' keys in the same transaction, on condition that the ticket's tags are still
 *                  the ones it read (tagsUnchanged), so the links never lag or miss a tag.
 *   search words   see search-index.ts: the contact's words (N items) are written with the ticket and
 *                  rewritten by refreshTicketContact (tickets/contact-copy.ts)
 *
 * Denormalisations (each saves reads on every list page):
 *   - contact {name, number, profilePicUrl}: copied at creation, refreshed by refreshTicketContact
 *     when the contact changes (bounded by that contact's tickets).
 *   - lastMessage, unreadMessages: kept by the message writes (messages/messages.ts) in the same transaction;
 *     lastMessage is the message's preview, capped (contracts/message-preview.ts PREVIEW_MAX) so that
 *     the item, rewritten with its list copies by every message, stays under 1 KB.
 *   queue / user / connection names are NOT copied: they are per-tenant sets bounded by the plan,
 *   read once per page, and renaming one must not rewrite a million tickets.
 *
 * Concurrency: `revision` counts state changes (status, queue, user, chatbot, rating); a state
 * change is a conditional Update on it. Message activity (lastMessage, unread, updatedAt) is an
 * Update of its own fields only and never bumps it, so routing and traffic never lose each other.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { capPreview } from '#contracts/message-preview';
import type { TicketStatus } from '#contracts/tickets';
import { contactPk } from '../contacts/contacts.ts';
import { type Deltas, ticketCounterItems, trackingFields } from '../dashboard-counters.ts';
import { db, getItem, isConditionalCheckFailed, type TransactItem, table, transactionCancellationCodes } from '../db.ts';
import { primeListShards } from '../list-shards.ts';
import { contactWords, ticketSearchItems } from '../search-index.ts';
import { pad, tenantPk } from '../table.ts';
import { tagLinkMoves, tagsUnchanged, ticketListKeys } from './list-keys.ts';
import type { TicketRecord, TicketStatePatch } from './record.ts';
import { routingItems, SEAT_CONDITION, SeatTakenError } from './routing.ts';
import { applySlaChange, slaChangeOf, slaDueItems, slaMoveItems } from './sla.ts';

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

/**
 * A ticket created closed (a campaign's conversation) becomes the slot's latest ticket without
 * holding it: the contact's answer reopens it (within timeCreateNewTicket) instead of starting
 * another. Never over an active ticket (SlotTakenError, as a claim).
 */
const pointSlot = (ticket: TicketRecord): TransactItem => ({
  Put: {
    TableName: table(),
    Item: { ...slotKey(ticket.companyId, ticket.contactId, ticket.whatsappId), entity: 'ticketSlot', ticketId: ticket.id, active: false },
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
 * Every item a created ticket stores (createTicket's writes, without their conditions): for loaders
 * that write straight into the table (tests/bench/ticket-list.ts), so their data has every index.
 */
export function ticketStoredItems(ticket: TicketRecord): Record<string, unknown>[] {
  return [
    { ...ticketKey(ticket.companyId, ticket.id), ...ticketListKeys(ticket), entity: 'ticket', ...ticket },
    { ...uuidKey(ticket.companyId, ticket.uuid), entity: 'ticketUuid', ticketId: ticket.id },
    {
      ...linkKey(ticket.companyId, ticket.contactId, ticket.id),
      entity: 'contactTicket',
      ticketId: ticket.id,
      whatsappId: ticket.whatsappId,
    },
    ...(isActive(ticket.status)
      ? [{ ...slotKey(ticket.companyId, ticket.contactId, ticket.whatsappId), entity: 'ticketSlot', ticketId: ticket.id, active: true }]
      : []),
    ...ticketSearchItems(ticket.companyId, 'N', ticket.id, contactWords(ticket.contact)),
  ];
}

/**
 * A new ticket with its uuid lookup and contact link, claiming the (contact, connection) slot when
 * it is open or pending, pointing it at the ticket when closed. SlotTakenError when another active
 * ticket holds it.
 */
export async function createTicket(created: TicketRecord, extra: TransactItem[] = []): Promise<TicketRecord> {
  const { ticket, items } = await ticketCreateItems(created, extra);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionCancellationCodes(error)?.[SLOT_INDEX] === 'ConditionalCheckFailed') throw new SlotTakenError();
    throw error;
  }
  return ticket;
}

/** Where a new ticket's slot claim sits among ticketCreateItems' items: a slot taken fails there. */
export const SLOT_INDEX = 3;

/**
 * createTicket's writes, and the ticket as they store it (its tracking and service-level fields
 * set): the ticket, its uuid lookup, its contact link, the slot, then `extra` (its history event;
 * a first message's writes), its counters with `alsoCounted` merged in (a new contact's,
 * storage/messages/first-message.ts), its routing and search items, its service-level due items.
 */
export async function ticketCreateItems(
  created: TicketRecord,
  extra: TransactItem[] = [],
  alsoCounted?: Deltas,
): Promise<{ ticket: TicketRecord; items: TransactItem[] }> {
  await primeListShards(created.companyId);
  const slaChange = await slaChangeOf(undefined, created, created.createdAt);
  const ticket: TicketRecord = {
    ...created,
    ...trackingFields(undefined, created, created.createdAt),
    ...(slaChange ? { sla: applySlaChange(created.sla, slaChange) } : {}),
  };
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table(),
        Item: { ...ticketKey(ticket.companyId, ticket.id), ...ticketListKeys(ticket), entity: 'ticket', ...ticket },
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
    isActive(ticket.status) ? claimSlot(ticket) : pointSlot(ticket),
    ...extra,
    ...(await ticketCounterItems(undefined, ticket, ticket.createdAt, alsoCounted)),
    ...routingItems(undefined, ticket),
  ];
  for (const Item of ticketSearchItems(ticket.companyId, 'N', ticket.id, contactWords(ticket.contact)))
    items.push({ Put: { TableName: table(), Item } });
  items.push(...slaDueItems(ticket.companyId, ticket.id, slaChange));
  return { ticket, items };
}

/**
 * The Update item of a state change: sets `patch` and the index keys of the resulting state, bumps
 * revision, and fails unless the stored revision is still `ticket.revision`. Exposed so a caller can
 * commit it with other writes (the chatbot commits its replies with it).
 */
export async function ticketStateUpdate(
  ticket: TicketRecord,
  given: TicketStatePatch,
  now = new Date().toISOString(),
): Promise<{ item: TransactItem; next: TicketRecord }> {
  // A bot's or a closing message's text as the preview: capped like every other (contracts/message-preview.ts).
  const patch = given.lastMessage === undefined ? given : { ...given, lastMessage: capPreview(given.lastMessage) };
  // The state's partitions are where the ticket is written from now on: in the tenant's shards as this container knows them.
  await primeListShards(ticket.companyId);
  const patched: TicketRecord = { ...ticket, ...patch, updatedAt: now, revision: ticket.revision + 1 };
  // The dashboard's tracking fields move with the state, in this same write (only those that change).
  const tracking = Object.fromEntries(
    Object.entries(trackingFields(ticket, patched, now)).filter(
      ([field, value]) => (ticket[field as keyof TicketRecord] ?? null) !== value,
    ),
  );
  // The service level moves with the queue and the status (tickets/sla.ts), in this same write.
  const slaChange = await slaChangeOf(ticket, patched, now);
  const next: TicketRecord = { ...patched, ...tracking, ...(slaChange ? { sla: applySlaChange(ticket.sla, slaChange) } : {}) };
  const keys = ticketListKeys(next);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':expected': ticket.revision };
  const sets: string[] = [];
  const removes: string[] = [];
  const fields: Record<string, unknown> = { ...patch, ...tracking, updatedAt: now, revision: next.revision, ...keys };
  Object.entries(fields).forEach(([field, value], i) => {
    if (value === undefined && !(field in keys)) return;
    names[`#f${i}`] = field;
    if (value === undefined) removes.push(`#f${i}`);
    else {
      values[`:v${i}`] = value;
      sets.push(`#f${i} = :v${i}`);
    }
  });
  if (slaChange?.kind === 'replace') {
    names['#sla'] = 'sla';
    if (slaChange.sla) {
      values[':sla'] = slaChange.sla;
      sets.push('#sla = :sla');
    } else removes.push('#sla');
  } else if (slaChange?.kind === 'resolve') {
    // Only the close's time: a first response stored meanwhile (messages/messages.ts) stays.
    names['#sla'] = 'sla';
    names['#slaResolvedAt'] = 'resolvedAt';
    values[':slaResolvedAt'] = slaChange.at;
    sets.push('#sla.#slaResolvedAt = :slaResolvedAt');
  }
  names['#rev'] = 'revision';
  // The tag links move with the ticket (slotTransition): only valid for the tags read.
  const tags = tagsUnchanged(ticket.tags);
  return {
    next,
    item: {
      Update: {
        TableName: table(),
        Key: ticketKey(ticket.companyId, ticket.id),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: `#rev = :expected AND ${tags.condition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ...tags.values },
      },
    },
  };
}

function slotWrites(ticket: TicketRecord, next: TicketRecord): TransactItem[] {
  if (isActive(ticket.status) && !isActive(next.status)) return [releaseSlot(ticket)];
  if (!isActive(ticket.status) && isActive(next.status)) return [claimSlot(next)];
  return [];
}

/**
 * The writes a state change needs beside the ticket's own, in its transaction: the slot (claim on
 * closed -> active, release on active -> closed), first, then the tag links' move to the ticket's
 * new list position, then the due items of a new service level (tickets/sla.ts). Every caller of
 * ticketStateUpdate commits these.
 */
export function slotTransition(ticket: TicketRecord, next: TicketRecord): TransactItem[] {
  return [...slotWrites(ticket, next), ...tagLinkMoves(next), ...slaMoveItems(ticket, next)];
}

/**
 * The counters of a state change, for its transaction: the dashboard's (dashboard-counters.ts) and
 * the attendants' seats and queues' waiting lines (tickets/routing.ts). Every caller of
 * ticketStateUpdate commits these too. `seatLimit`: the router's conditional take of a seat.
 */
export const stateCounterItems = async (ticket: TicketRecord, next: TicketRecord, seatLimit?: number): Promise<TransactItem[]> => [
  ...(await ticketCounterItems(ticket, next, next.updatedAt)),
  ...routingItems(ticket, next, seatLimit),
];

/** Tries of a transaction cancelled only by a concurrent one on a shared item (a seat, a counter). */
const CONFLICT_ATTEMPTS = 4;

/**
 * Applies a state change atomically with its slot transition and any `extra` writes.
 * StaleTicketError when the ticket changed since it was read (re-read and decide again);
 * SlotTakenError when reopening while another ticket of the contact is active on the connection;
 * SeatTakenError when `options.seatLimit` is given and the new attendant has no free seat left.
 */
export async function updateTicketState(
  ticket: TicketRecord,
  patch: TicketStatePatch,
  extra: TransactItem[] = [],
  options: { seatLimit?: number } = {},
): Promise<TicketRecord> {
  const { item, next } = await ticketStateUpdate(ticket, patch);
  const slotItems = slotWrites(ticket, next);
  const counters = await stateCounterItems(ticket, next, options.seatLimit);
  const items = [item, ...slotItems, ...tagLinkMoves(next), ...slaMoveItems(ticket, next), ...extra, ...counters];
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return next;
    } catch (error) {
      const codes = transactionCancellationCodes(error);
      if (codes?.[0] === 'ConditionalCheckFailed') throw new StaleTicketError();
      if (slotItems.length && codes?.[1] === 'ConditionalCheckFailed') throw new SlotTakenError();
      const failed = codes?.indexOf('ConditionalCheckFailed') ?? -1;
      if (failed >= 0 && items[failed]?.Update?.ConditionExpression === SEAT_CONDITION) throw new SeatTakenError();
      // Nothing was written: a transaction that met another on a shared item (a seat, a counter) is tried again.
      const conflictOnly = codes?.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
      if (!conflictOnly || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt + Math.random() * 20));
    }
  }
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
