/**
 * Consumer of the `realtime-fanout` FIFO queue (realtime/fanout.ts): each record is a big tenant's
 * frames and the sockets that get them. Groups run concurrently, a group's records in order (a
 * socket is always in the same group, so its frames keep their order). Posting is best effort as in
 * the publisher: a socket that answers 410 is deleted, one that fails is logged, and neither fails
 * the record; only a record that is not a fan-out body fails (and, retried, lands in the DLQ).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { logger } from '#commons/logger';
import { decodeQueueBody } from '#contracts/queue-body';
import { postToConnection } from '#realtime/management';
import type { Delivery } from '#realtime/outbox';
import { type PublisherDeps, postSender } from '#realtime/publisher';
import type { ConnectionRecord } from '#storage/ws-connections';
import * as sockets from '#storage/ws-connections';
import { byMessageGroup } from './message-groups.ts';

const event = z.object({ event: z.string(), data: z.unknown() });
const bodySchema = z.object({
  frames: z.array(z.union([event, z.array(event).min(1)])).min(1),
  targets: z.array(z.tuple([z.string().min(1), z.number().int().positive(), z.number().int().nonnegative()])).min(1),
});

type Deps = Pick<PublisherDeps, 'post' | 'deleteConnection'>;
const defaultDeps: Deps = { post: postToConnection, deleteConnection: sockets.deleteConnection };

export async function consume(sqsEvent: SQSEvent, deps: Deps = defaultDeps): Promise<SQSBatchResponse> {
  const send = postSender(deps);
  const failed: string[] = [];
  await Promise.all(
    byMessageGroup(sqsEvent.Records, (record) => record).map(async (records) => {
      for (const record of records) {
        const parsed = (() => {
          try {
            return bodySchema.safeParse(decodeQueueBody(record.body));
          } catch (error) {
            return { success: false as const, error };
          }
        })();
        if (!parsed.success) {
          logger.error('realtime fan-out record is not a fan-out body', { messageId: record.messageId, error: parsed.error as Error });
          failed.push(record.messageId);
          continue;
        }
        const { frames, targets } = parsed.data;
        const deliveries: Delivery[] = targets.flatMap(([connectionId, companyId, frame]) => {
          const payload = frames[frame];
          // Only the fields the publisher reads to post and to delete a gone socket.
          return payload ? [{ connection: { connectionId, companyId } as ConnectionRecord, payload }] : [];
        });
        const result = await send(deliveries);
        if (result.failed) logger.warn('realtime fan-out posts failed', { messageId: record.messageId, ...result });
      }
    }),
  );
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}

export const handler = (sqsEvent: SQSEvent): Promise<SQSBatchResponse> => consume(sqsEvent);
