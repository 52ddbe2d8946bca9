/**
 * Ticket history (BEHAVIOUR "Tickets"): every state change of a ticket with who and when, for the
 * dashboard (queued at, started at, finished at, rated at) and for audits.
 *
 *   event   pk = C#<cid>#TK#<padded ticketId>   sk = HIST#<at ISO>#<kind>
 *           Written in the SAME transaction as the state change it records (`historyPut` is a
 *           transaction item), so a change is never stored without its event or the reverse. It
 *           lives in the ticket's partition: the ticket's timeline is one Query, and deleting the
 *           ticket's partition removes it with the messages.
 *     gsi1  by day   gsi1pk = C#<cid>#TH#<YYYY-MM-DD>   gsi1sk = <at ISO>#<padded ticketId>#<kind>
 *           -> the dashboard reads a period as one Query per day (bounded by the period, never by
 *              the tenant's ticket count) and pairs queued -> started -> finished per ticket.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketHistoryKind } from '#contracts/ticket-history';
import { db, queryAll, type TransactItem, table } from '../db.ts';
import { pad, tenantPk } from '../table.ts';
import { ticketPk } from './tickets.ts';

// The kinds are the API's too: the conversation shows them (contracts/ticket-history.ts).
export { type TicketHistoryKind, ticketHistoryKinds } from '#contracts/ticket-history';

export interface TicketHistoryEvent {
  companyId: number;
  ticketId: number;
  kind: TicketHistoryKind;
  /** Who made the change; null for the system (inbound pipeline, sweeps). */
  actorUserId: number | null;
  at: string;
  /** State after the change. */
  status: string;
  queueId: number | null;
  userId: number | null;
  /** State before the change (null for `created`). */
  fromStatus: string | null;
  fromQueueId: number | null;
  fromUserId: number | null;
  whatsappId: number;
  rating?: number | null;
  /** Why, for `botFailed`. */
  detail?: string | null;
}

export const historyDayPartition = (companyId: number, day: string): string => `${tenantPk(companyId)}#TH#${day}`;

/** The Put of one event, to commit in the transaction of the change it records. */
export function historyPut(event: TicketHistoryEvent): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: {
        pk: ticketPk(event.companyId, event.ticketId),
        sk: `HIST#${event.at}#${event.kind}`,
        gsi1pk: historyDayPartition(event.companyId, event.at.slice(0, 10)),
        gsi1sk: `${event.at}#${pad(event.ticketId)}#${event.kind}`,
        entity: 'ticketHistory',
        ...event,
      },
    },
  };
}

/** A ticket's timeline, oldest first. Bounded by the ticket's own changes. */
export function listTicketHistory(companyId: number, ticketId: number): Promise<TicketHistoryEvent[]> {
  return queryAll<TicketHistoryEvent>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': ticketPk(companyId, ticketId), ':prefix': 'HIST#' },
    ConsistentRead: true,
  });
}

/**
 * The ticket's events with `from <= at < to` (either bound open), oldest first: the lines of one
 * page of its conversation (outbound/list.ts). One Query on the ticket's partition.
 */
export function listTicketHistoryBetween(companyId: number, ticketId: number, from?: string, to?: string): Promise<TicketHistoryEvent[]> {
  // `HIST#<at>#<kind>`: `HIST#<to>` sorts before every event at `to`, `HIST$` after every event.
  return queryAll<TicketHistoryEvent>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': ticketPk(companyId, ticketId), ':from': `HIST#${from ?? ''}`, ':to': to ? `HIST#${to}` : 'HIST$' },
  });
}

/** Events of one day (UTC, YYYY-MM-DD) of the tenant, oldest first, one page at a time for the dashboard. */
export async function listHistoryOfDay(
  companyId: number,
  day: string,
  options: { limit?: number; startKey?: Record<string, unknown> } = {},
): Promise<{ events: TicketHistoryEvent[]; nextKey?: Record<string, unknown> }> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': historyDayPartition(companyId, day) },
      Limit: options.limit ?? 500,
      ExclusiveStartKey: options.startKey,
    }),
  );
  const events = (out.Items ?? []).map(({ pk, sk, gsi1pk, gsi1sk, entity, ...event }) => event as TicketHistoryEvent);
  return { events, nextKey: out.LastEvaluatedKey };
}
