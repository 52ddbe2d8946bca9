/**
 * Reading the ticket list partitions of tickets/tickets.ts (gsi1 status x queue, gsi2 status x user, gsi3
 * status, and the same three scoped to a tag on the tag links) by position, for the inbox's merged,
 * filtered pages (domain/tickets/list.ts), and a contact's tickets.
 *
 * A position is the list sort key (`<updatedAt>#<padded id>`) of the last row consumed: the
 * ExclusiveStartKey is rebuilt from it, so a cursor is a short string per partition instead of a
 * DynamoDB key blob, and it only ever points inside partitions the caller is allowed to read
 * (the domain derives the partitions from the caller, never from the cursor).
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { contactPk } from '../contacts/contacts.ts';
import { db, decodeCursor, encodeCursor, stripKeys, table } from '../db.ts';
import { tagLinkKey } from './list-keys.ts';
import type { TicketRecord } from './record.ts';
import { TICKET_SK, ticketKey, ticketPk } from './tickets.ts';

export type ListIndex = 'gsi1' | 'gsi2' | 'gsi3';

export interface ListSlice {
  tickets: Array<TicketRecord & { listSk: string }>;
  /** Sort key of the last row read (filtered or not): where the next read continues. */
  lastSk?: string;
  /** Nothing more in the partition (within the range) after this slice. */
  exhausted: boolean;
}

const idOfSortKey = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));

/** Tickets by id, in the order of `ids`; ids whose ticket is gone are left out. */
export async function getTickets(companyId: number, ids: number[], consistent = false): Promise<TicketRecord[]> {
  if (!ids.length) return [];
  const found = new Map<number, TicketRecord>();
  // BatchGetItem takes at most 100 keys a request.
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let keys: Record<string, unknown>[] = unique.slice(i, i + 100).map((id) => ticketKey(companyId, id));
    for (let attempt = 0; keys.length; attempt++) {
      if (attempt > 8) throw new Error('BatchGet left unprocessed keys');
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
      const out = await db().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys, ConsistentRead: consistent } } }));
      for (const item of out.Responses?.[table()] ?? []) {
        const ticket = stripKeys<TicketRecord>(item);
        found.set(ticket.id, ticket);
      }
      keys = out.UnprocessedKeys?.[table()]?.Keys ?? [];
    }
  }
  return ids.flatMap((id) => {
    const ticket = found.get(id);
    return ticket ? [ticket] : [];
  });
}

/**
 * One Query, newest first, `limit` rows read, continuing after `afterSk`. `range` bounds the sort
 * key (an updatedAt day: `from` = '2030-01-07', `to` = '2030-01-07~'). With `tagId` the partition is
 * a tag's (tickets/tickets.ts tagListPartition): its rows are tag links, and the tickets follow in one
 * BatchGet (a page of a tag costs its links plus its tickets).
 */
export async function readListSlice(
  companyId: number,
  index: ListIndex,
  partition: string,
  options: { limit: number; afterSk?: string; range?: { from: string; to: string }; tagId?: number },
): Promise<ListSlice> {
  const values: Record<string, unknown> = { ':pk': partition };
  let condition = `${index}pk = :pk`;
  if (options.range) {
    condition += ` AND ${index}sk BETWEEN :from AND :to`;
    values[':from'] = options.range.from;
    values[':to'] = options.range.to;
  }
  const tagId = options.tagId;
  const baseKey = (id: number) => (tagId === undefined ? { pk: ticketPk(companyId, id), sk: TICKET_SK } : tagLinkKey(companyId, tagId, id));
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: index,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: options.limit,
      ExclusiveStartKey: options.afterSk
        ? { ...baseKey(idOfSortKey(options.afterSk)), [`${index}pk`]: partition, [`${index}sk`]: options.afterSk }
        : undefined,
    }),
  );
  const items = out.Items ?? [];
  const lastSk = items.length ? String(items.at(-1)?.[`${index}sk`]) : options.afterSk;
  let tickets: Array<TicketRecord & { listSk: string }>;
  if (tagId === undefined) {
    tickets = items.map((item) => ({ ...stripKeys<TicketRecord>(item), listSk: String(item[`${index}sk`]) }));
  } else {
    const listSk = new Map(items.map((item) => [Number(item.ticketId), String(item[`${index}sk`])]));
    tickets = (await getTickets(companyId, [...listSk.keys()])).map((ticket) => ({ ...ticket, listSk: listSk.get(ticket.id) as string }));
  }
  return { tickets, lastSk, exhausted: !out.LastEvaluatedKey };
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
  return getTickets(
    companyId,
    (links.Items ?? []).map((link) => link.ticketId as number),
    true,
  );
}

export interface TicketPage {
  tickets: TicketRecord[];
  cursor?: string;
}

/** One page of a list partition (tickets/tickets.ts ticketLists), newest first: one Query, `limit` items read. */
export async function listTicketsPage(
  index: ListIndex,
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
