/**
 * Emitting webhook events (issue 23 §2): where a message is received, sent or acked, a ticket
 * created, updated or closed, a contact created, the inbox calls `emitWebhookEvent` (or
 * `emitWebhookEvents` for many changes of one act), which queues one delivery for each enabled
 * endpoint of the company that subscribed to the event.
 *
 * Cheap when nobody listens: the company's endpoints come from the container's read cache
 * (storage/webhooks/webhooks.ts), so a company without webhooks pays no request per message (one Query per
 * 5 s per container). A delivery is its log item (created first, pending, holding the exact body
 * every attempt posts) and then its first attempt on the FIFO queue (adapters/webhook-queue.ts).
 *
 * Emitting never throws: the change it reports is already written, and its request must not fail
 * for a webhook. A delivery whose log item was written but whose queueing failed is parked for the
 * minute sweep, which queues it again (queue-or-park.ts): at least once, never lost.
 */
import { logger } from '#commons/logger';
import type { WebhookDeliveryEvent, WebhookEvent } from '#contracts/webhooks';
import * as deliveries from '#storage/webhooks/deliveries';
import { listWebhooksCached, type WebhookRecord } from '#storage/webhooks/webhooks';
import { parkedRetryAt, queueFirstAttempts, UNQUEUED_ERROR } from './queue-or-park.ts';

/** The body posted: `{id, event, companyId, createdAt, data}`. */
export const deliveryBody = (id: string, event: WebhookDeliveryEvent, companyId: number, createdAt: string, data: unknown): string =>
  JSON.stringify({ id, event, companyId, createdAt, data });

/** The record as its log now reads once parked (the answer to a test event or a resend says so too). */
const asParked = (record: deliveries.WebhookDeliveryRecord, now: Date): deliveries.WebhookDeliveryRecord => ({
  ...record,
  error: UNQUEUED_ERROR,
  nextRetryAt: parkedRetryAt(now).toISOString(),
});

/** A new delivery's log item: pending, holding the exact body every attempt posts. */
function newDeliveryRecord(
  endpoint: Pick<WebhookRecord, 'companyId' | 'id'>,
  event: WebhookDeliveryEvent,
  data: unknown,
  now: Date,
): Omit<deliveries.WebhookDeliveryRecord, 'expiresAt'> {
  const id = deliveries.newDeliveryId(now.getTime());
  const createdAt = now.toISOString();
  return {
    companyId: endpoint.companyId,
    endpointId: endpoint.id,
    id,
    event,
    body: deliveryBody(id, event, endpoint.companyId, createdAt, data),
    status: 'pending',
    attempts: 0,
    responseCode: null,
    latencyMs: null,
    error: null,
    nextRetryAt: createdAt,
    createdAt,
    lastAttemptAt: null,
    round: 0,
    roundStartedAt: createdAt,
    explicit: event === 'ping',
  };
}

const firstAttemptOf = (record: Pick<deliveries.WebhookDeliveryRecord, 'companyId' | 'endpointId' | 'id'>) => ({
  companyId: record.companyId,
  endpointId: record.endpointId,
  id: record.id,
  round: 0,
});

/** One delivery an admin asked for (a test event): logged, then queued or parked. */
export async function queueNewDelivery(
  endpoint: Pick<WebhookRecord, 'companyId' | 'id'>,
  event: WebhookDeliveryEvent,
  data: unknown,
  now: Date,
): Promise<deliveries.WebhookDeliveryRecord> {
  const record = await deliveries.createDelivery(newDeliveryRecord(endpoint, event, data, now));
  const parked = await queueFirstAttempts([firstAttemptOf(record)], now);
  return parked ? asParked(record, now) : record;
}

/** A resend: the delivery's next round, queued now. Undefined when there is no such delivery. */
export async function restartAndQueue(
  companyId: number,
  endpointId: number,
  deliveryId: string,
): Promise<deliveries.WebhookDeliveryRecord | undefined> {
  const restarted = await deliveries.restartDelivery(companyId, endpointId, deliveryId, new Date().toISOString());
  if (!restarted) return undefined;
  const now = new Date();
  const parked = await queueFirstAttempts([{ companyId, endpointId, id: deliveryId, round: restarted.round }], now);
  return parked ? asParked(restarted, now) : restarted;
}

/** Queues `event` for every enabled endpoint of the company that wants it. Never throws. */
export const emitWebhookEvent = (companyId: number, event: WebhookEvent, data: unknown, now = new Date()): Promise<void> =>
  emitWebhookEvents(companyId, event, [data], now);

/**
 * Deliveries written and queued a chunk at a time: two BatchWriteItem calls (25 log items each),
 * then five SendMessageBatch calls (10 attempts each) for what was written, before the next chunk
 * is written, so a failure part-way leaves no written delivery neither queued nor parked.
 */
const EMIT_CHUNK = 2 * deliveries.DELIVERY_WRITE_BATCH;

/**
 * Queues one `event` per item of `data` for every enabled endpoint of the company that wants it:
 * the changes of one act (a phone import's created contacts), or one. Batched, so a batch of 100
 * imported contacts for 2 endpoints is 8 BatchWriteItem and 20 SendMessageBatch calls, not 200
 * PutItem and 200 SendMessage. Never throws: a chunk whose log could not be written is logged and
 * the rest go on.
 */
export async function emitWebhookEvents(companyId: number, event: WebhookEvent, data: readonly unknown[], now = new Date()): Promise<void> {
  let endpoints: WebhookRecord[];
  try {
    endpoints = (await listWebhooksCached(companyId)).filter((endpoint) => endpoint.enabled && endpoint.events.includes(event));
  } catch (error) {
    logger.error('webhook endpoints not read', { companyId, event, error: error as Error });
    return;
  }
  if (!endpoints.length || !data.length) return;
  const records = data.flatMap((item) => endpoints.map((endpoint) => newDeliveryRecord(endpoint, event, item, now)));
  for (let start = 0; start < records.length; start += EMIT_CHUNK) {
    const chunk = records.slice(start, start + EMIT_CHUNK);
    const written: deliveries.WebhookDeliveryRecord[] = [];
    for (let at = 0; at < chunk.length; at += deliveries.DELIVERY_WRITE_BATCH) {
      const part = chunk.slice(at, at + deliveries.DELIVERY_WRITE_BATCH);
      try {
        written.push(...(await deliveries.createDeliveries(part)));
      } catch (error) {
        logger.error('webhook deliveries not written', { companyId, event, count: part.length, error: error as Error });
      }
    }
    if (written.length < chunk.length)
      logger.error('webhook deliveries lost: their log items were not written', { companyId, event, count: chunk.length - written.length });
    await queueFirstAttempts(written.map(firstAttemptOf), now);
  }
}
