/**
 * When snoozed tickets wake (issue 22 §5), every tenant's in one index partition, read by the
 * ticket-sweeps job once a minute (domain/tickets/snooze.ts):
 *
 *   due      pk = C#<cid>#TK#<padded id>   sk = SNOOZE     { companyId, ticketId, until }
 *     gsi1   gsi1pk = SNOOZE_DUE            gsi1sk = <until ISO>#<cid>#<padded id>
 *            -> the snoozes due before now, oldest first: one Query however many tenants and
 *               tickets there are, never a scan. A run that finds nothing reads nothing.
 *
 * One item per ticket (a new snooze overwrites it), in the ticket's partition so that deleting the
 * ticket or the company removes it; written and deleted in the same transaction as the ticket's
 * snoozedUntil (tickets.ts), so a snoozed ticket always has its due item. One partition: snoozes are
 * people's clicks, far below a partition's write rate (the scheduled messages shard theirs because
 * campaigns and the API write them in bulk).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, type TransactItem, table } from './db.ts';
import { pad } from './table.ts';
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
  const out: DueSnooze[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        // '$' sorts after '#': every key of an instant <= until.
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :until',
        ExpressionAttributeValues: { ':pk': SNOOZE_DUE_PK, ':until': `${until}$` },
        ProjectionExpression: 'companyId, ticketId, #until',
        ExpressionAttributeNames: { '#until': 'until' },
        Limit: limit - out.length,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? [])
      out.push({ companyId: Number(item.companyId), ticketId: Number(item.ticketId), until: String(item.until) });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && out.length < limit);
  return out;
}
