/**
 * The delivery log of a webhook endpoint (issue 23 §2): one item per event sent to it, updated by
 * each attempt, read newest first by GET /webhooks/{id}/deliveries.
 *
 *   delivery  pk = C#<cid>#WHD#<endpoint id>   sk = D#<delivery id>   { the record below }
 *             -> the endpoint's log is one Query (ScanIndexForward false: the ids sort by time);
 *                the consumer and the resend route read one item by its key
 *             gsi1 (only while SQS has not taken its attempt): the unqueued index, storage/webhooks/unqueued.ts
 *
 * The body is stored as sent (`body`, the exact JSON the signature covers), so every retry and a
 * resend post the same bytes with the same X-Conversa-Delivery. Items expire (TTL `expiresAt`)
 * DELIVERY_RETENTION_DAYS after their creation: a log, not an archive. A deleted company's items
 * go with it (its partitions all start with C#<id>#).
 */
import { randomBytes } from 'node:crypto';
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookDelivery } from '#contracts/webhooks';
import { db, isConditionalCheckFailed, stripKeys, table, updateExpression } from '../db.ts';
import { tenantPk } from '../table.ts';

export const DELIVERY_RETENTION_DAYS = 30;

/** A line of the log as the API shows it, plus what only the delivery path reads. */
export interface WebhookDeliveryRecord extends WebhookDelivery {
  companyId: number;
  endpointId: number;
  /** The JSON posted, as signed. */
  body: string;
  /** Bumped by a resend: an attempt of an older round (a retry still queued) does nothing. */
  round: number;
  /** When the current round started: its retry window runs from here. */
  roundStartedAt: string;
  /**
   * Asked for by an admin (a test event, a resend): sent even while the endpoint is off. Events
   * queued by the inbox are not: an endpoint switched off gets nothing of them.
   */
  explicit: boolean;
  expiresAt: number;
}

const partition = (companyId: number, endpointId: number) => `${tenantPk(companyId)}#WHD#${endpointId}`;
/** A delivery's log item key (also the unqueued index's updates, storage/webhooks/unqueued.ts). */
export const deliveryKey = (companyId: number, endpointId: number, id: string) => ({ pk: partition(companyId, endpointId), sk: `D#${id}` });
const key = deliveryKey;

/** `whd_` + the time in base 36 (10 characters, sorts by time until the year 5188) + 8 random bytes. */
export const newDeliveryId = (now = Date.now()): string => `whd_${now.toString(36).padStart(10, '0')}${randomBytes(8).toString('hex')}`;

export async function createDelivery(record: Omit<WebhookDeliveryRecord, 'expiresAt'>): Promise<WebhookDeliveryRecord> {
  const item: WebhookDeliveryRecord = {
    ...record,
    expiresAt: Math.floor(Date.parse(record.createdAt) / 1000) + DELIVERY_RETENTION_DAYS * 86_400,
  };
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...key(record.companyId, record.endpointId, record.id), entity: 'webhookDelivery', ...item },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return item;
}

/** Items one BatchWriteItem call takes at most. */
export const DELIVERY_WRITE_BATCH = 25;
const UNPROCESSED_ROUNDS = 8;

/**
 * Up to DELIVERY_WRITE_BATCH log items in one BatchWriteItem (many events at once: a phone import's
 * contacts), its unprocessed items tried again a few rounds. Unconditional, unlike createDelivery:
 * the ids are new (time + 8 random bytes). Answers the records written; those still unprocessed
 * after the rounds are left out (the caller queues only what was written).
 */
export async function createDeliveries(records: readonly Omit<WebhookDeliveryRecord, 'expiresAt'>[]): Promise<WebhookDeliveryRecord[]> {
  if (records.length > DELIVERY_WRITE_BATCH) throw new RangeError(`at most ${DELIVERY_WRITE_BATCH} deliveries a call`);
  const items = records.map((record) => ({
    ...record,
    expiresAt: Math.floor(Date.parse(record.createdAt) / 1000) + DELIVERY_RETENTION_DAYS * 86_400,
  }));
  const put = (item: WebhookDeliveryRecord) => ({
    PutRequest: { Item: { ...key(item.companyId, item.endpointId, item.id), entity: 'webhookDelivery', ...item } },
  });
  let pending = items.map(put);
  for (let round = 0; pending.length && round < UNPROCESSED_ROUNDS; round++) {
    if (round) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
    const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
    pending = (out.UnprocessedItems?.[table()] ?? []) as typeof pending;
  }
  const unwritten = new Set(pending.map((request) => String(request.PutRequest.Item.sk)));
  return items.filter((item) => !unwritten.has(`D#${item.id}`));
}

export async function getDelivery(companyId: number, endpointId: number, id: string): Promise<WebhookDeliveryRecord | undefined> {
  const out = await db().send(new GetCommand({ TableName: table(), Key: key(companyId, endpointId, id), ConsistentRead: true }));
  return out.Item ? stripKeys<WebhookDeliveryRecord>(out.Item) : undefined;
}

/** A page of the log, newest first; reads at most `pageNumber * pageSize + 1` items (the pages are capped). */
export async function listDeliveries(
  companyId: number,
  endpointId: number,
  pageNumber: number,
  pageSize: number,
): Promise<{ deliveries: WebhookDeliveryRecord[]; hasMore: boolean }> {
  const wanted = pageNumber * pageSize + 1;
  const items: WebhookDeliveryRecord[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :d)',
        ExpressionAttributeValues: { ':pk': partition(companyId, endpointId), ':d': 'D#' },
        ScanIndexForward: false,
        Limit: wanted - items.length,
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) items.push(stripKeys<WebhookDeliveryRecord>(item));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < wanted);
  const start = (pageNumber - 1) * pageSize;
  return { deliveries: items.slice(start, start + pageSize), hasMore: items.length > start + pageSize };
}

export type AttemptPatch = Pick<WebhookDeliveryRecord, 'status' | 'responseCode' | 'latencyMs' | 'error' | 'nextRetryAt' | 'lastAttemptAt'>;

/**
 * An attempt's outcome (counted when it was made: `lastAttemptAt` set), on condition that the delivery is still in `round` (a resend
 * started a new one meanwhile: the stale attempt's outcome is not written). False when it was not.
 */
export async function recordAttempt(
  companyId: number,
  endpointId: number,
  id: string,
  round: number,
  patch: AttemptPatch,
): Promise<boolean> {
  const set = updateExpression({ ...patch });
  const count = patch.lastAttemptAt !== null;
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, endpointId, id),
        ...set,
        // An attempt was made, so it was queued: out of the unqueued index (storage/webhooks/unqueued.ts) if it was parked there.
        UpdateExpression: `${set.UpdateExpression}${count ? ' ADD attempts :one' : ''} REMOVE gsi1pk, gsi1sk`,
        ConditionExpression: 'attribute_exists(pk) AND #round = :round',
        ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#round': 'round' },
        ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':round': round, ...(count ? { ':one': 1 } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** A resend: a new round, pending, whatever the last one ended as. The record as it is now. */
export async function restartDelivery(
  companyId: number,
  endpointId: number,
  id: string,
  at: string,
): Promise<WebhookDeliveryRecord | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, endpointId, id),
        // The new round's attempt is queued by the caller (parked again if SQS does not take it).
        UpdateExpression:
          'SET #status = :pending, nextRetryAt = :at, roundStartedAt = :at, explicit = :yes ADD #round :one REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status', '#round': 'round' },
        ExpressionAttributeValues: { ':pending': 'pending', ':at': at, ':one': 1, ':yes': true },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<WebhookDeliveryRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}
