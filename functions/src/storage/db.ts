/**
 * Thin helpers over the DocumentClient shared by every entity file. Entities own their keys; this
 * module owns only the mechanics (table name, counters, pagination cursors).
 */
import {
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#commons/dynamodb';
import { env } from '#commons/env';

/** One item of a TransactWriteItems call (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const table = (): string => env.tableName;
export const db = () => documentClient();

/** Strips the storage keys (pk, sk, gsi*, expiresAt, entity) from an item before it leaves the storage layer. */
export function stripKeys<T extends object>(item: Record<string, unknown>): T {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, expiresAt, entity, ...rest } = item;
  return rest as T;
}

/**
 * Atomic per-scope counter for the spec's numeric ids (users, queues, ...). `scopePk` is the tenant
 * (`C#7`) or `PLATFORM` for platform-level records (plans, companies, helps).
 */
export async function nextId(scopePk: string, counter: string): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: scopePk, sk: `COUNTER#${counter}` },
      UpdateExpression: 'ADD #v :one',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.value);
}

/**
 * The next id of a counter, taken only by the create that commits with `item` in its transaction:
 * a create refused by a condition (a taken unique value) leaves the number to the next record,
 * where nextId's ADD would have burnt it. A create that lost the id to a concurrent one fails its
 * claim (IdClaimLost) and takes the next again.
 */
export interface IdClaim {
  id: number;
  item: TransactItem;
}

export class IdClaimLost extends Error {
  constructor() {
    super('id taken by a concurrent create');
  }
}

export async function readNextId(scopePk: string, counter: string): Promise<IdClaim> {
  const Key = { pk: scopePk, sk: `COUNTER#${counter}` };
  const out = await db().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true }));
  const current = out.Item?.value === undefined ? undefined : Number(out.Item.value);
  const id = (current ?? 0) + 1;
  return {
    id,
    item: {
      Update: {
        TableName: table(),
        Key,
        UpdateExpression: 'SET #v = :next',
        ConditionExpression: current === undefined ? 'attribute_not_exists(#v)' : '#v = :current',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':next': id, ...(current === undefined ? {} : { ':current': current }) },
      },
    },
  };
}

export async function getItem<T extends object>(pk: string, sk: string, consistent = true): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: table(), Key: { pk, sk }, ConsistentRead: consistent }));
  return out.Item ? stripKeys<T>(out.Item) : undefined;
}

/** Reads every page of a bounded query (a tenant's users, settings, ...). Not for unbounded collections. */
export async function queryAll<T extends object>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...input, TableName: table(), ExclusiveStartKey }));
    for (const item of out.Items ?? []) items.push(stripKeys<T>(item));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/**
 * Reads a query's items page by page until `limit` items or the end: the due-time indexes (snoozes,
 * service levels) read what is due now, a bounded batch a run. Items come raw (keys kept).
 */
export async function queryUpTo(
  input: Omit<QueryCommandInput, 'TableName' | 'Limit'>,
  limit: number,
  pageSize = limit,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({ ...input, TableName: table(), Limit: Math.min(pageSize, limit - items.length), ExclusiveStartKey }),
    );
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  return items;
}

/** Opaque cursor for key-based pagination. */
export const encodeCursor = (key: Record<string, unknown> | undefined): string | undefined =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;

export function decodeCursor(cursor: string | undefined): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * SET clause for a partial update. `undefined` values are skipped (so a zod output with absent
 * optional fields never erases data); `null` is stored as null.
 */
export function updateExpression(patch: Record<string, unknown>): {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(patch).forEach(([key, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = key;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  });
  if (!sets.length) throw new Error('updateExpression: empty patch');
  return { UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** Cancellation reason codes of a failed TransactWrite, one per item (`ConditionalCheckFailed`, `None`, ...). */
export function transactionCancellationCodes(error: unknown): string[] | undefined {
  if (!error || typeof error !== 'object' || (error as { name?: string }).name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

export function isConditionalCheckFailed(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && (error as { name?: string }).name === 'ConditionalCheckFailedException');
}

/**
 * An UpdateItem whose condition may say no (the item is gone, already changed): true when it applied,
 * false when its ConditionExpression failed; any other error is thrown.
 */
export async function updateIf(input: Omit<UpdateCommandInput, 'TableName'> & { ConditionExpression: string }): Promise<boolean> {
  try {
    await db().send(new UpdateCommand({ TableName: table(), ...input }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
