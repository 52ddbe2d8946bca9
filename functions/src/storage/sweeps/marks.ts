/**
 * How far each sweep has read, per (company, rule, connection):
 *
 *   mark   pk = C#<cid>   sk = SWEEP#<rule>#W#<padded connectionId>   { until: <ISO> }
 *
 * A sweep reads the tickets whose `updatedAt` lies between its previous cutoff and this run's
 * cutoff (now - the connection's minutes), not every ticket older than the cutoff. Tickets the rule
 * left alone (an open ticket whose last message is the contact's) stay older than every later
 * cutoff until they change, and a change moves them to the top of the index: re-reading them every
 * minute would make each run cost the whole backlog. With the mark a run reads about one minute of
 * a tenant's ticket activity per connection and rule.
 *
 * Kept in the tenant partition, so deleting the company (purgeTenantPartition) removes it too.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionalCheckFailed, table } from '../db.ts';
import { pad, tenantPk } from '../table.ts';

export type SweepRule = 'expire' | 'transfer';

const PREFIX = 'SWEEP#';
const markName = (rule: SweepRule, connectionId: number) => `${rule}#W#${pad(connectionId)}`;
const markSk = (rule: SweepRule, connectionId: number) => `${PREFIX}${markName(rule, connectionId)}`;

/** The company's marks, by `<rule>#W#<padded connectionId>`: one Query (a few items per connection). */
export async function getSweepMarks(companyId: number): Promise<Map<string, string>> {
  const marks = new Map<string, string>();
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': PREFIX },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) marks.set((item.sk as string).slice(PREFIX.length), item.until as string);
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return marks;
}

export const markOf = (marks: Map<string, string>, rule: SweepRule, connectionId: number): string | undefined =>
  marks.get(markName(rule, connectionId));

/** Moves the mark forward to `until`; never back (two overlapping runs may finish in any order). */
export async function advanceSweepMark(companyId: number, rule: SweepRule, connectionId: number, until: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: tenantPk(companyId), sk: markSk(rule, connectionId) },
        UpdateExpression: 'SET #until = :until, entity = :entity',
        ConditionExpression: 'attribute_not_exists(#until) OR #until < :until',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':until': until, ':entity': 'sweepMark' },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}
