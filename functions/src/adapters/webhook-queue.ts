/**
 * The webhook deliveries' queues (issue 23 §2, declarations/message-queues.ts):
 *
 * - `webhook-deliveries` (FIFO): one message per attempt, MessageGroupId = the endpoint (company and
 *   id), so an endpoint's attempts go one at a time and a slow or failing endpoint holds back only
 *   its own group; another endpoint's, another company's, go on beside it. The deduplication id is
 *   the delivery, its round and its attempt: a repeated send of one attempt is posted once, and each
 *   retry is a new message.
 * - `webhook-retries` (standard): a failed attempt's retry waits here. FIFO queues take no
 *   per-message delay, so the wait is DelaySeconds on a standard queue (at most 15 minutes a hop;
 *   a longer wait is carried over again by its consumer), and when due the retry re-enters its
 *   endpoint's FIFO group: every POST is made by the one consumer of the FIFO queue.
 * - The FIFO queue's DLQ: a delivery whose retries ran out is put there (as well as marked failed in
 *   the log), beside what the queue itself moves there after repeated consumer crashes.
 */
import { env } from '#commons/env';
import { logger } from '#commons/logger';
import { deleteMessageBatch, sendMessage, sendMessageBatch } from '#commons/sqs';
import { encodeQueueBody } from '#contracts/queue-body';

export const WEBHOOK_DELIVERIES_QUEUE = 'webhook-deliveries';
export const WEBHOOK_RETRIES_QUEUE = 'webhook-retries';
/** SQS's longest DelaySeconds. */
export const MAX_DELAY_SECONDS = 900;

/** One attempt of one delivery. */
export interface DeliveryAttempt {
  companyId: number;
  endpointId: number;
  deliveryId: string;
  /** The delivery's round (a resend starts the next one). */
  round: number;
  /** 1 for the first attempt of the round. */
  attempt: number;
  /** A retry's due time (ISO), while it waits on the retries queue. */
  dueAt?: string;
}

const groupOf = (item: DeliveryAttempt) => `webhook-${item.companyId}-${item.endpointId}`;
const dedupeOf = (item: DeliveryAttempt) => `${item.deliveryId}-${item.round}-${item.attempt}`;

export async function queueAttempt(item: DeliveryAttempt): Promise<void> {
  const { dueAt: _dueAt, ...body } = item;
  await sendMessage({
    QueueUrl: env.queueUrl(WEBHOOK_DELIVERIES_QUEUE),
    MessageBody: encodeQueueBody(body),
    MessageGroupId: groupOf(item),
    MessageDeduplicationId: dedupeOf(item),
  });
}

/**
 * Queues many attempts, ten a SendMessageBatch call (SQS's most), the calls one after another. The
 * answer is the attempts SQS did not take (an entry it refused, or every entry of a call that
 * failed): the caller keeps them in the log for a later try (domain/webhooks/queue-or-park.ts).
 * Never throws for a failed send.
 */
export async function queueAttempts(items: readonly DeliveryAttempt[]): Promise<DeliveryAttempt[]> {
  const refused: DeliveryAttempt[] = [];
  for (let start = 0; start < items.length; start += 10) {
    const chunk = items.slice(start, start + 10);
    try {
      const out = await sendMessageBatch({
        QueueUrl: env.queueUrl(WEBHOOK_DELIVERIES_QUEUE),
        Entries: chunk.map((item, index) => {
          const { dueAt: _dueAt, ...body } = item;
          return {
            Id: String(index),
            MessageBody: encodeQueueBody(body),
            MessageGroupId: groupOf(item),
            MessageDeduplicationId: dedupeOf(item),
          };
        }),
      });
      for (const failed of out.Failed ?? []) {
        const item = chunk[Number(failed.Id)];
        if (item) refused.push(item);
      }
    } catch (error) {
      logger.warn('webhook attempts not queued', { count: chunk.length, error: error as Error });
      refused.push(...chunk);
    }
  }
  return refused;
}

/**
 * Deletes attempts its consumer has finished, before its invocation ends. A batch holds several
 * endpoints' groups, and SQS hands out none of a FIFO group's next messages while one of them is in
 * flight: without this, a healthy endpoint's next attempts wait for the batch's slowest receiver
 * (its full 10 s timeout), and every group that shares a batch with it moves at its pace. Best
 * effort: the event source deletes them again at the end (a repeat delete of a receipt is harmless).
 */
export async function releaseAttempts(receiptHandles: readonly string[]): Promise<void> {
  for (let start = 0; start < receiptHandles.length; start += 10) {
    const chunk = receiptHandles.slice(start, start + 10);
    await deleteMessageBatch({
      QueueUrl: env.queueUrl(WEBHOOK_DELIVERIES_QUEUE),
      Entries: chunk.map((ReceiptHandle, index) => ({ Id: String(index), ReceiptHandle })),
    }).catch((error: unknown) => logger.warn('webhook attempts not released early', { error: error as Error }));
  }
}

/** Parks a retry until `dueAt` (or 15 minutes, whichever is first). */
export async function queueRetry(item: DeliveryAttempt & { dueAt: string }, now = Date.now()): Promise<void> {
  const wait = Math.ceil((Date.parse(item.dueAt) - now) / 1000);
  await sendMessage({
    QueueUrl: env.queueUrl(WEBHOOK_RETRIES_QUEUE),
    MessageBody: encodeQueueBody(item),
    DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, wait)),
  });
}

/** A delivery given up on, for the operators (the log says failed too). */
export async function queueGivenUp(item: DeliveryAttempt, reason: string): Promise<void> {
  await sendMessage({
    QueueUrl: env.queueUrl(`${WEBHOOK_DELIVERIES_QUEUE}-dlq`),
    MessageBody: encodeQueueBody({ ...item, reason }),
    MessageGroupId: groupOf(item),
    MessageDeduplicationId: `${dedupeOf(item)}-given-up`,
  });
}
