/**
 * Consumer of the `webhook-retries` standard queue (issue 23 §2, adapters/webhook-queue.ts): a
 * failed attempt's retry waits here with DelaySeconds (FIFO queues take none). When it is due it
 * re-enters its endpoint's group of the FIFO queue, where the one consumer that posts makes it;
 * a wait longer than SQS's 15-minute delay is parked again for what is left. No HTTP here.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queueAttempt, queueRetry } from '#adapters/webhook-queue';
import { logger } from '#commons/logger';
import { decodeQueueBody } from '#contracts/queue-body';
import { deliveryAttemptSchema } from '#contracts/webhook-queue';

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failed: string[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const item = deliveryAttemptSchema.parse(decodeQueueBody(record.body));
        const dueAt = item.dueAt ?? new Date().toISOString();
        if (Date.parse(dueAt) - Date.now() > 1000) await queueRetry({ ...item, dueAt });
        else await queueAttempt(item);
      } catch (error) {
        logger.error('webhook retry not moved on', { messageId: record.messageId, error: error as Error });
        failed.push(record.messageId);
      }
    }),
  );
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
