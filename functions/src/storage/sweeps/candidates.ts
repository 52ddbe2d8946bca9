/**
 * The tickets a sweep looks at: one list partition of storage/tickets/tickets.ts (gsi1 status x queue,
 * gsi3 status), read oldest first over a range of its sort key `<updatedAt ISO>#<padded id>` with a
 * key condition, so only tickets last changed within [after, until] are read, page by page. Never
 * a scan, and never the part of the list newer than the cutoff.
 *
 * And the expire rule's second read, for candidates only: the newest message of the ticket's
 * partition (messages/messages.ts "message": sk MSG#<time-ordered id>), one Query with Limit 1.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, stripKeys, table } from '../db.ts';
import type { TicketRecord } from '../tickets/record.ts';
import { ticketPk } from '../tickets/tickets.ts';

export interface UpdatedRange {
  /** Inclusive lower bound (an ISO time); undefined = from the oldest ticket. */
  after?: string;
  /** Inclusive upper bound (an ISO time): tickets updated at or before it. */
  until: string;
}

const PAGE = 100;

/**
 * Upper bound of the sort key for "updatedAt <= until": `<until>#<id>` < `<until>$` ('$' follows
 * '#'), and every later instant sorts after it (ISO strings of one length compare as times).
 */
const upperKey = (until: string) => `${until}$`;

export async function* ticketsUpdatedWithin(
  index: 'gsi1' | 'gsi3',
  partition: string,
  range: UpdatedRange,
  whatsappId: number,
): AsyncGenerator<TicketRecord> {
  const values: Record<string, unknown> = { ':pk': partition, ':to': upperKey(range.until), ':w': whatsappId };
  if (range.after) values[':from'] = range.after;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: index,
        KeyConditionExpression: range.after
          ? `${index}pk = :pk AND ${index}sk BETWEEN :from AND :to`
          : `${index}pk = :pk AND ${index}sk < :to`,
        // The list holds every connection's tickets; each connection has its own minutes.
        FilterExpression: 'whatsappId = :w',
        ExpressionAttributeValues: values,
        ScanIndexForward: true,
        Limit: PAGE,
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) yield stripKeys<TicketRecord>(item);
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** True when the ticket's newest message is ours (fromMe). */
export async function lastMessageIsOurs(ticket: Pick<TicketRecord, 'companyId' | 'id'>): Promise<boolean> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': ticketPk(ticket.companyId, ticket.id), ':prefix': 'MSG#' },
      ProjectionExpression: 'fromMe',
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return out.Items?.[0]?.fromMe === true;
}
