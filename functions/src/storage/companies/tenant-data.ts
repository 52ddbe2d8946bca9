/**
 * Clearing a tenant's data. Every partition key of tenant data starts with the tenant (table.ts):
 * `C#<companyId>` itself (settings, counters, users, tags, queues, the session-host's Baileys auth
 * state, leases and send records...) and `C#<companyId>#<scope>` for the large collections (tickets
 * TK#, contacts CT#, search words SRCH#, message lookups MSG#/W#, the audit trail AUDIT, the
 * dashboard DASH, ticket lists TS#/TG#, history TH#, chats, contact lists...). Platform-wide guards
 * that belong to one tenant (a connection's token, under `PLATFORM#...`) carry its `companyId`.
 * Records with their own platform-wide guards (users' e-mails, the company name) are deleted through
 * their own entity first, so the guards are freed too.
 */
import { BatchWriteCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '../db.ts';
import { PLATFORM_PK, tenantPk } from '../table.ts';
import { companyKey } from './companies.ts';

const BATCH = 25;

type Key = { pk: string; sk: string };

async function deleteKeys(companyId: number, keys: Key[]): Promise<void> {
  for (let i = 0; i < keys.length; i += BATCH) {
    let pending = keys.slice(i, i + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
    // BatchWrite may hand back unprocessed items under throttling; retry them until none are left.
    for (let attempt = 0; pending.length && attempt < 8; attempt++) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
      pending = (out.UnprocessedItems?.[table()] ?? []) as typeof pending;
      if (pending.length) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
    if (pending.length) throw new Error(`Could not purge ${pending.length} items of company ${companyId}`);
  }
}

/** The `C#<companyId>` partition alone: a signup rolled back has written nothing elsewhere. */
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
    await deleteKeys(companyId, keys);
    deleted += keys.length;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return deleted;
}

/**
 * Every item of the tenant, wherever its partition is: a Scan of the whole table, because the scoped
 * partitions (`C#<id>#TK#<ticket>`, `C#<id>#SRCH#<word>`, ...) are too many and too varied to list.
 * A company is deleted rarely, by a super admin; the Scan reads keys only, a page (1 MB) at a time,
 * and deletes each page's matches before reading the next, so a retry after a crash simply finishes
 * what is left. The company record itself stays, for companies.deleteCompany to remove last (and
 * free its name): while it exists, a retry finds the company. Answers how many items went.
 */
export async function purgeTenantData(companyId: number): Promise<number> {
  let deleted = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: '(pk = :pk AND sk <> :record) OR begins_with(pk, :scoped) OR (begins_with(pk, :platform) AND companyId = :id)',
        ExpressionAttributeValues: {
          ':pk': tenantPk(companyId),
          ':record': companyKey(companyId).sk,
          ':scoped': `${tenantPk(companyId)}#`,
          ':platform': `${PLATFORM_PK}#`,
          ':id': companyId,
        },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey,
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk }));
    await deleteKeys(companyId, keys);
    deleted += keys.length;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return deleted;
}
