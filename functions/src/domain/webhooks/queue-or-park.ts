/**
 * Queueing a delivery's attempt so that it is never lost (issue 23 §2 "at least once, never lost").
 *
 * A delivery is its log item first (storage/webhooks/deliveries.ts: the exact body every attempt
 * posts), then its attempt on the FIFO queue. When SQS does not take the attempt (an error, an
 * outage, an entry of a batch it refused), the item is parked (storage/webhooks/unqueued.ts): still
 * pending, its error saying it waits for the queue, its next retry the sweep's next minute. The
 * minute sweep (`requeueParkedDeliveries`, run by the ticket-sweeps job) queues the parked ones
 * again, oldest first, until SQS takes them. A recorded attempt or a resend takes an item out of
 * the index too.
 *
 * Why the item first and not "write the item only once SQS took the attempt": the consumer posts
 * the stored body, so an attempt that reached it before its item would be skipped as unknown; and a
 * failed send would then leave the event nowhere at all. The table took the item, so it holds the
 * event until SQS takes it.
 *
 * What this does not cover: a process that dies between the item's write and the send (a Lambda
 * killed in that gap) leaves the item pending without the mark. Covering it would mean writing
 * the index entry with every delivery and removing it after every send (two more writes of an item
 * that holds the body, per delivery) for a gap of milliseconds; an admin still sees it pending and
 * can resend it.
 */
import { queueAttempts } from '#adapters/webhook-queue';
import { logger } from '#commons/logger';
import { mapWithConcurrency } from '#realtime/concurrency';
import { type ParkedDelivery, parkedDeliveries, parkUnqueued, unpark } from '#storage/webhooks/unqueued';

/** What a parked delivery's log says while it waits. */
export const UNQUEUED_ERROR = 'not queued yet (queue unavailable): retried within a minute';
/** Parked deliveries one sweep queues again at most (50 SendMessageBatch calls). */
export const REQUEUE_BATCH = 500;
const SWEEP_EVERY_MS = 60_000;
/** When a delivery parked at `now` is tried again (the sweep's next run, at the latest). */
export const parkedRetryAt = (now: Date): Date => new Date(now.getTime() + SWEEP_EVERY_MS);
const WRITE_CONCURRENCY = 8;

const attemptOf = (delivery: ParkedDelivery) => ({
  companyId: delivery.companyId,
  endpointId: delivery.endpointId,
  deliveryId: delivery.id,
  round: delivery.round,
  attempt: 1,
});
const keyOf = (d: { companyId: number; endpointId: number; deliveryId?: string; id?: string; round: number }) =>
  `${d.companyId}#${d.endpointId}#${d.deliveryId ?? d.id}#${d.round}`;

/** The deliveries of `all` whose attempt SQS refused. */
async function queueFirst(all: readonly ParkedDelivery[]): Promise<ParkedDelivery[]> {
  const refused = new Set((await queueAttempts(all.map(attemptOf))).map(keyOf));
  return all.filter((delivery) => refused.has(keyOf(delivery)));
}

/**
 * Queues the first attempt of each delivery (logged already) in batches; the ones SQS does not take
 * are parked for the sweep. Never throws: the deliveries are in the log either way. Returns how
 * many were parked.
 */
export async function queueFirstAttempts(deliveries: readonly ParkedDelivery[], now = new Date()): Promise<number> {
  if (!deliveries.length) return 0;
  const refused = await queueFirst(deliveries);
  const retryAt = parkedRetryAt(now);
  await mapWithConcurrency(refused, WRITE_CONCURRENCY, async (delivery) => {
    try {
      await parkUnqueued(delivery, now, UNQUEUED_ERROR, retryAt);
    } catch (error) {
      // Neither queued nor marked: it stays pending in the log, where an admin can resend it.
      logger.error('webhook delivery neither queued nor parked', { ...delivery, error: error as Error });
    }
  });
  if (refused.length) logger.warn('webhook deliveries parked for the requeue sweep', { count: refused.length });
  return refused.length;
}

export interface RequeueReport {
  requeued: number;
  stillParked: number;
}

/** The minute sweep: queues the parked deliveries again, oldest first; those SQS refuses again stay parked. */
export async function requeueParkedDeliveries(now = new Date()): Promise<RequeueReport> {
  const parked = await parkedDeliveries(REQUEUE_BATCH);
  if (!parked.length) return { requeued: 0, stillParked: 0 };
  const refused = new Set((await queueFirst(parked)).map(keyOf));
  const taken = parked.filter((delivery) => !refused.has(keyOf(delivery)));
  // A failed unpark leaves it in the index: queued once more next minute, which the FIFO deduplication
  // (delivery, round, attempt) absorbs within 5 minutes and the consumer skips once it is settled.
  await mapWithConcurrency(taken, WRITE_CONCURRENCY, (delivery) =>
    unpark(delivery, now).catch((error: unknown) => logger.warn('webhook delivery queued but not unparked', { ...delivery, error })),
  );
  return { requeued: taken.length, stillParked: refused.size };
}
