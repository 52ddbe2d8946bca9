/**
 * Consumer of the `inbound` FIFO queue (session-host -> inbox). A batch may hold several message
 * groups (one per connection and contact): groups run concurrently, each group's records strictly
 * in order. When a record fails, it and every later record of its group are reported as failures
 * (reportBatchItemFailures), so the group is retried in order and nothing after a failure is
 * applied ahead of it. A record that is not a valid event fails too: after maxReceiveCount it lands
 * in the DLQ, kept for inspection rather than dropped.
 *
 * Per batch, shared by its groups: the reads of settings, connections and queues
 * (domain/inbound/batch-references.ts) and the tenant's socket list (createSnapshotPublisher).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '#commons/logger';
import { inboundEventSchema } from '#contracts/session-events';
import { batchReferences } from '#domain/inbound/batch-references';
import { processInboundEvent } from '#domain/inbound/pipeline';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { createSnapshotPublisher } from '#realtime/publisher';

export async function consume(event: SQSEvent, given?: Effects): Promise<SQSBatchResponse> {
  const effects = given ?? { ...defaultEffects, publish: createSnapshotPublisher().publish };
  const refs = batchReferences();
  const groups = new Map<string, SQSRecord[]>();
  for (const record of event.Records) {
    const group = record.attributes?.MessageGroupId ?? record.messageId;
    groups.set(group, [...(groups.get(group) ?? []), record]);
  }
  const failures: string[] = [];
  await Promise.all(
    [...groups.values()].map(async (records) => {
      let failed = false;
      for (const record of records) {
        if (failed) {
          failures.push(record.messageId);
          continue;
        }
        try {
          const parsed = inboundEventSchema.safeParse(JSON.parse(record.body));
          if (!parsed.success) throw new Error(`invalid inbound event: ${parsed.error.message}`);
          await processInboundEvent(parsed.data, effects, refs);
        } catch (error) {
          logger.error('inbound event failed', { messageId: record.messageId, error: error as Error });
          failed = true;
          failures.push(record.messageId);
        }
      }
    }),
  );
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => consume(event);
