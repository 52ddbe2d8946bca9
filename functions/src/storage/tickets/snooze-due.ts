import { queryUpTo, type TransactItem, table } from '../db.ts';
import { pad } from '../table.ts';
import { ticketPk } from './tickets.ts';

export const SNOOZE_DUE_PK = 'SNOOZE_DUE';
const SNOOZE_SK = 'SNOOZE';

export interface DueSnooze {
  companyId: number;
  ticketId: number;
  until: string;
}

const dueKey = (companyId: number, ticketId: number) => ({ pk: ticketPk(companyId, ticketId), sk: SNOOZE_SK });

/** The due item of a snooze, for the transaction that sets the ticket's snoozedUntil. */
export const snoozeDuePut = (companyId: number, ticketId: number, until: string): TransactItem => ({
  Put: {
    TableName: table(),
    Item: {
      ...dueKey(companyId, ticketId),
      gsi1pk: SNOOZE_DUE_PK,
      gsi1sk: `${until}#${companyId}#${pad(ticketId)}`,
      entity: 'snoozeDue',
      companyId,
      ticketId,
      until,
    },
  },
});

/** Removes the due item, for the transaction that wakes the ticket (any snooze of it: the ticket's own condition decides). */
export const snoozeDueDelete = (companyId: number, ticketId: number): TransactItem => ({
  Delete: { TableName: table(), Key: dueKey(companyId, ticketId) },
});

/** Every snooze due at or before `until` (ISO), oldest first, at most `limit`. */
export async function dueSnoozes(until: string, limit = 500): Promise<DueSnooze[]> {
  const items = await queryUpTo(
    {
      IndexName: 'gsi1',
      // '$' sorts after '#': every key of an instant <= until.
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :until',
      ExpressionAttributeValues: { ':pk': SNOOZE_DUE_PK, ':until': `${until}$` },
      ProjectionExpression: 'companyId, ticketId, #until',
      ExpressionAttributeNames: { '#until': 'until' },
    },
    limit,
  );
  return items.map((item) => ({ companyId: Number(item.companyId), ticketId: Number(item.ticketId), until: String(item.until) }));
}
