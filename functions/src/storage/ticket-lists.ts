/**
 * Reading the ticket list partitions of tickets.ts (gsi1 status x queue, gsi2 status x user, gsi3
 * status) by position, for the inbox's merged, filtered pages (domain/tickets/list.ts).
 *
 * A position is the list sort key (`<updatedAt>#<padded id>`) of the last row consumed: the
 * ExclusiveStartKey is rebuilt from it, so a cursor is a short string per partition instead of a
 * DynamoDB key blob, and it only ever points inside partitions the caller is allowed to read
 * (the domain derives the partitions from the caller, never from the cursor).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, stripKeys, table } from './db.ts';
import { TICKET_SK, type TicketRecord, ticketPk } from './tickets.ts';

export type ListIndex = 'gsi1' | 'gsi2' | 'gsi3';

export interface ListSlice {
  tickets: Array<TicketRecord & { listSk: string }>;
  /** Sort key of the last row read (filtered or not): where the next read continues. */
  lastSk?: string;
  /** Nothing more in the partition (within the range) after this slice. */
  exhausted: boolean;
}

const idOfSortKey = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));

/**
 * One Query, newest first, `limit` rows read, continuing after `afterSk`. `range` bounds the sort
 * key (an updatedAt day: `from` = '2030-01-07', `to` = '2030-01-07~').
 */
export async function readListSlice(
  companyId: number,
  index: ListIndex,
  partition: string,
  options: { limit: number; afterSk?: string; range?: { from: string; to: string } },
): Promise<ListSlice> {
  const values: Record<string, unknown> = { ':pk': partition };
  let condition = `${index}pk = :pk`;
  if (options.range) {
    condition += ` AND ${index}sk BETWEEN :from AND :to`;
    values[':from'] = options.range.from;
    values[':to'] = options.range.to;
  }
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: index,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: options.limit,
      ExclusiveStartKey: options.afterSk
        ? {
            pk: ticketPk(companyId, idOfSortKey(options.afterSk)),
            sk: TICKET_SK,
            [`${index}pk`]: partition,
            [`${index}sk`]: options.afterSk,
          }
        : undefined,
    }),
  );
  const items = out.Items ?? [];
  const tickets = items.map((item) => ({ ...stripKeys<TicketRecord>(item), listSk: String(item[`${index}sk`]) }));
  return {
    tickets,
    lastSk: tickets.at(-1)?.listSk ?? options.afterSk,
    exhausted: !out.LastEvaluatedKey,
  };
}
