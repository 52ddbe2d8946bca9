/**
 * Pages of a tenant's contacts for the contacts page (GET /contacts), over the indexes contacts.ts
 * keeps: name order (gsi1) with name-prefix search, and number-prefix search (gsi2). A page is one
 * Query of `limit` items; a date filter reads at most FILTERED_READS batches before answering with
 * what it found and a cursor, so a page's cost never grows with the tenant.
 */
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type ContactRecord, contactIndexPartitions, contactPk } from './contacts.ts';
import { db, decodeCursor, encodeCursor, stripKeys, table } from './db.ts';

export const FILTERED_READS = 5;

export interface ContactPageQuery {
  /** Name prefix (normalised as the index) or digits prefix. */
  prefix?: { by: 'name' | 'number'; value: string };
  /** Inclusive ISO bounds on createdAt. */
  createdFrom?: string;
  createdTo?: string;
  limit: number;
  cursor?: string;
}

export interface ContactPage {
  contacts: ContactRecord[];
  cursor?: string;
}

export async function listContactsPage(companyId: number, query: ContactPageQuery): Promise<ContactPage> {
  const partitions = contactIndexPartitions(companyId);
  const byNumber = query.prefix?.by === 'number';
  const index = byNumber ? 'gsi2' : 'gsi1';
  const values: Record<string, unknown> = { ':pk': byNumber ? partitions.byNumber : partitions.byName };
  let condition = `${index}pk = :pk`;
  if (query.prefix?.value) {
    condition += ` AND begins_with(${index}sk, :prefix)`;
    values[':prefix'] = query.prefix.value;
  }
  const filters: string[] = [];
  if (query.createdFrom) {
    filters.push('createdAt >= :from');
    values[':from'] = query.createdFrom;
  }
  if (query.createdTo) {
    filters.push('createdAt <= :to');
    values[':to'] = query.createdTo;
  }
  const contacts: ContactRecord[] = [];
  let start = decodeCursor(query.cursor);
  for (let read = 0; read < (filters.length ? FILTERED_READS : 1); read++) {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: index,
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        Limit: query.limit - contacts.length,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) contacts.push(stripKeys<ContactRecord>(item));
    start = out.LastEvaluatedKey;
    if (!start || contacts.length >= query.limit) break;
  }
  return { contacts, cursor: encodeCursor(start) };
}

/** Sort keys of a contact's ticket slots and ticket links (bounded by that contact's tickets). */
export async function contactPartitionItems(companyId: number, contactId: number): Promise<{ sk: string; active?: boolean }[]> {
  const items: { sk: string; active?: boolean }[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': contactPk(companyId, contactId) },
        ProjectionExpression: 'sk, active',
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) items.push({ sk: String(item.sk), active: item.active as boolean | undefined });
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Removes what is left of a deleted contact's partition (released slots, ticket links). */
export async function purgeContactPartition(companyId: number, contactId: number, sks: string[]): Promise<void> {
  const pk = contactPk(companyId, contactId);
  for (let i = 0; i < sks.length; i += 25) {
    let requests = sks.slice(i, i + 25).map((sk) => ({ DeleteRequest: { Key: { pk, sk } } }));
    for (let attempt = 0; requests.length && attempt < 8; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: requests } }));
      requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
}
