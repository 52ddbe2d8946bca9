/**
 * Audit entries (issue 21 §3): one immutable item per security-relevant or administrative act.
 *
 *   entry   pk = C#<cid>#AUDIT     sk = <createdAt ISO>#<uuid>        { the AuditEntry, expiresAt }
 *     gsi1  by user          gsi1pk = C#<cid>#AUDIT#U#<userId>         (absent when no user acted)
 *     gsi2  by action        gsi2pk = C#<cid>#AUDIT#A#<action>
 *     gsi3  by target type   gsi3pk = C#<cid>#AUDIT#T#<targetType>
 *     every index sorts on   gsiNsk = sk                               (time-ordered, newest first)
 *
 * Why this shape. The trail is read per company, newest first, within a date range and by at most
 * three equality filters. Each filter has its own index partition, so a busy company's "what did
 * Ana do" reads Ana's entries only, not the company's; the date range is a key condition on the
 * time-ordered sort key in every one of them. With two or three filters the query takes the
 * narrowest index (user, then action, then target type) and filters the others, so it reads at most
 * that index's partition within the dates. A page is newest-first by `pageNumber` as the other
 * list routes: page N reads the N x 40 (+1) newest matching entries, so it is capped at page 250
 * (10,000 entries: a narrower date range reaches older ones), and no page reads rows of another
 * company or outside the dates. Writes are one item and three index rows per act; admin acts and
 * sign-ins are far below a partition's 1,000 writes a second, so the company partition is not
 * write-sharded.
 *
 * Immutable: this module writes an entry once (conditional put) and offers no update or delete;
 * entries leave by the table's TTL (`expiresAt`) a year after they were written.
 */
import { PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuditAction, AuditEntry, AuditTargetType } from '#contracts/audit';
import { db, stripKeys, type TransactItem, table } from '../db.ts';
import { tenantPk } from '../table.ts';

/** Entries live one year. */
export const AUDIT_RETENTION_SECONDS = 365 * 24 * 60 * 60;

const auditPk = (companyId: number): string => `${tenantPk(companyId)}#AUDIT`;
const entrySk = (entry: Pick<AuditEntry, 'createdAt' | 'id'>): string => `${entry.createdAt}#${entry.id}`;

function entryItem(entry: AuditEntry): Record<string, unknown> {
  const pk = auditPk(entry.companyId);
  const sk = entrySk(entry);
  return {
    pk,
    sk,
    entity: 'AUDIT',
    ...entry,
    ...(entry.userId != null ? { gsi1pk: `${pk}#U#${entry.userId}`, gsi1sk: sk } : {}),
    gsi2pk: `${pk}#A#${entry.action}`,
    gsi2sk: sk,
    gsi3pk: `${pk}#T#${entry.targetType}`,
    gsi3sk: sk,
    expiresAt: Math.floor(Date.parse(entry.createdAt) / 1000) + AUDIT_RETENTION_SECONDS,
  };
}

/** The entry as one item of the transaction that makes the act it records. */
export function auditEntryPut(entry: AuditEntry): TransactItem {
  return { Put: { TableName: table(), Item: entryItem(entry), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** Writes the entry on its own (an act that is not one DynamoDB transaction); never overwrites one. */
export async function putAuditEntry(entry: AuditEntry): Promise<void> {
  await db().send(new PutCommand({ TableName: table(), Item: entryItem(entry), ConditionExpression: 'attribute_not_exists(pk)' }));
}

export interface AuditFilter {
  companyId: number;
  /** Inclusive ISO bounds. */
  from?: string;
  to?: string;
  userId?: number;
  action?: AuditAction;
  targetType?: AuditTargetType;
}

/** The narrowest index for the filter, with the other filters left to a FilterExpression. */
function queryOf(filter: AuditFilter): Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'> {
  const pk = auditPk(filter.companyId);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filters: string[] = [];
  let index: string | undefined;
  let keyPk = pk;
  const narrow = (name: 'gsi1' | 'gsi2' | 'gsi3', value: string): boolean => {
    if (index) return false;
    index = name;
    keyPk = value;
    return true;
  };
  // The user's index comes first, so a user filter always narrows and never filters.
  if (filter.userId !== undefined) narrow('gsi1', `${pk}#U#${filter.userId}`);
  if (filter.action && !narrow('gsi2', `${pk}#A#${filter.action}`)) {
    names['#action'] = 'action';
    values[':action'] = filter.action;
    filters.push('#action = :action');
  }
  if (filter.targetType && !narrow('gsi3', `${pk}#T#${filter.targetType}`)) {
    names['#targetType'] = 'targetType';
    values[':targetType'] = filter.targetType;
    filters.push('#targetType = :targetType');
  }
  const pkName = index ? `${index}pk` : 'pk';
  const skName = index ? `${index}sk` : 'sk';
  names['#pk'] = pkName;
  names['#sk'] = skName;
  values[':pk'] = keyPk;
  // The sort key is `<ISO time>#<uuid>`: '#' sorts below every digit, '~' above them.
  values[':from'] = filter.from ?? '0';
  values[':to'] = `${filter.to ?? '9999'}~`;
  return {
    ...(index ? { IndexName: index } : {}),
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/**
 * The `limit` newest entries matching the filter (fewer when there are no more), reading newest
 * first and stopping as soon as it has them.
 */
export async function listAuditEntries(filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
  const input = queryOf(filter);
  const entries: AuditEntry[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    // Without a FilterExpression every item read is kept, so read no more than still missing.
    const want = limit - entries.length;
    const Limit = input.FilterExpression ? Math.max(want, 100) : want;
    const out = await db().send(new QueryCommand({ ...input, TableName: table(), Limit: Math.min(Limit, 1000), ExclusiveStartKey }));
    for (const item of out.Items ?? []) {
      if (entries.length < limit) entries.push(stripKeys<AuditEntry>(item));
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && entries.length < limit);
  return entries;
}
