/**
 * Clearing a tenant's partition (`pk = C#<companyId>`): settings, counters and every other record
 * kept there. Used when a company is deleted or its signup is rolled back. Records with their own
 * platform-wide guards (users' e-mails, the company name) must be deleted through their own entity
 * first, so the guards are freed too.
 */
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from './db.ts';
import { tenantPk } from './table.ts';

const BATCH = 25;

export async function purgeTenantPartition(companyId: number): Promise<number> {
  const pk = tenantPk(companyId);
  let deleted = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey,
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk }));
    for (let i = 0; i < keys.length; i += BATCH) {
      let pending = keys.slice(i, i + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
      // BatchWrite may hand back unprocessed items under throttling; retry them until none are left.
      for (let attempt = 0; pending.length && attempt < 8; attempt++) {
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
        pending = (out.UnprocessedItems?.[table()] ?? []) as typeof pending;
        if (pending.length) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
      if (pending.length) throw new Error(`Could not purge ${pending.length} items of company ${companyId}`);
      deleted += Math.min(BATCH, keys.length - i);
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return deleted;
}
