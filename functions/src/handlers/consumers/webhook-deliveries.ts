/**
 * Consumer of the `webhook-deliveries` FIFO queue (issue 23 §2, domain/webhooks/deliver.ts). A
 * batch may hold several endpoints' groups: groups run concurrently, so a receiver that takes its
 * full 10 s delays only its own group; a group's attempts go in order. An attempt that the receiver
 * refused is not a failure of this consumer: its retry is already parked on the retries queue, and
 * the group moves on. Only our own failures (the table, the queue) report the record, and every
 * later record of its group, as failed: SQS brings them back in order (then the DLQ).
 *
 * A group done is deleted from the queue at once (releaseAttempts): SQS hands out none of a FIFO
 * group's next messages while one is in flight, so its next attempts would otherwise wait for the
 * batch's slowest receiver, and every group sharing a batch with a dead endpoint would move at its pace.
 *
 * The queue's visibility covers a batch of one group: 10 attempts of 10 s each.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { postWebhook } from '#adapters/webhook-post';
import { queueGivenUp, queueRetry, releaseAttempts } from '#adapters/webhook-queue';
import { env } from '#commons/env';
import { logger } from '#commons/logger';
import { decodeQueueBody } from '#contracts/queue-body';
import { deliveryAttemptSchema } from '#contracts/webhook-queue';
import { retryPolicyOf } from '#domain/webhooks/backoff';
import { attemptDelivery, type DeliverDeps } from '#domain/webhooks/deliver';
import { byMessageGroup } from './message-groups.ts';

export interface ConsumerDeps extends DeliverDeps {
  /** Deletes a finished group's records before the invocation ends (adapters/webhook-queue.ts). */
  release(receiptHandles: readonly string[]): Promise<void>;
}

const deps = (): ConsumerDeps => ({
  release: releaseAttempts,
  post: postWebhook,
  queueRetry: (item) => queueRetry(item),
  queueGivenUp,
  policy: retryPolicyOf(env.webhookRetry),
  now: () => new Date(),
  random: Math.random,
});

export async function consume(event: SQSEvent, given: ConsumerDeps = deps()): Promise<SQSBatchResponse> {
  const groups = byMessageGroup(event.Records, (record: SQSRecord) => record);
  const failures = await Promise.all(
    groups.map(async (records) => {
      for (const [index, record] of records.entries()) {
        try {
          const item = deliveryAttemptSchema.parse(decodeQueueBody(record.body));
          await attemptDelivery(item, given);
        } catch (error) {
          logger.error('webhook attempt failed', { messageId: record.messageId, error: error as Error });
          return records.slice(index).map((failed) => failed.messageId);
        }
      }
      // Alone in its batch, the group is released by the invocation's end anyway.
      if (groups.length > 1) await given.release(records.map((record) => record.receiptHandle));
      return [];
    }),
  );
  return { batchItemFailures: failures.flat().map((itemIdentifier) => ({ itemIdentifier })) };
}

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => consume(event);
