/**
 * Emitting webhook events (issue 23 §2): where a message is received, sent or acked, a ticket
 * created, updated or closed, a contact created, the inbox calls `emitWebhookEvent`, which queues
 * one delivery for each enabled endpoint of the company that subscribed to the event.
 *
 * Cheap when nobody listens: the company's endpoints come from the container's read cache
 * (storage/webhooks.ts), so a company without webhooks pays no request per message (one Query per
 * 5 s per container). A delivery is its log item (created first, pending, holding the exact body
 * every attempt posts) and then its first attempt on the FIFO queue (adapters/webhook-queue.ts).
 *
 * Emitting never throws: the change it reports is already written, and its request must not fail
 * for a webhook. A delivery whose log item was written but whose queueing failed is parked for the
 * minute sweep, which queues it again (queue-or-park.ts): at least once, never lost.
 */
import { logger } from '#commons/logger';
import type { WebhookDeliveryEvent, WebhookEvent } from '#contracts/webhooks';
import * as deliveries from '#storage/webhook-deliveries';
import { listWebhooksCached, type WebhookRecord } from '#storage/webhooks';
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

export async function queueNewDelivery(
  endpoint: Pick<WebhookRecord, 'companyId' | 'id'>,
  event: WebhookDeliveryEvent,
  data: unknown,
  now: Date,
): Promise<deliveries.WebhookDeliveryRecord> {
  const id = deliveries.newDeliveryId(now.getTime());
  const createdAt = now.toISOString();
  const record = await deliveries.createDelivery({
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
  });
  const parked = await queueFirstAttempts([{ companyId: endpoint.companyId, endpointId: endpoint.id, id, round: 0 }], now);
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
export async function emitWebhookEvent(companyId: number, event: WebhookEvent, data: unknown, now = new Date()): Promise<void> {
  try {
    const endpoints = (await listWebhooksCached(companyId)).filter((endpoint) => endpoint.enabled && endpoint.events.includes(event));
    if (!endpoints.length) return;
    const results = await Promise.allSettled(endpoints.map((endpoint) => queueNewDelivery(endpoint, event, data, now)));
    for (const [index, result] of results.entries()) {
      if (result.status === 'rejected')
        logger.error('webhook delivery not queued', { companyId, endpointId: endpoints[index]?.id, event, error: result.reason as Error });
    }
  } catch (error) {
    logger.error('webhook endpoints not read', { companyId, event, error: error as Error });
  }
}
