/**
 * Consumer of the `inbound` FIFO queue (session-host -> inbox). A batch may hold several message
 * groups (one per connection and contact): groups run concurrently, each group's records strictly
 * in order. When a record fails, it and every later record of its group are reported as failures
 * (reportBatchItemFailures), so the group is retried in order and nothing after a failure is
 * applied ahead of it. A record that is not a valid event fails too: after maxReceiveCount it lands
 * in the DLQ, kept for inspection rather than dropped.
 *
 * Per batch, shared by its groups: the tenant's socket list (createSnapshotPublisher), read as the
 * batch starts, beside the events' first reads rather than after them (its roster mark joins their
 * BatchGetItem; the sockets are queried only when it moved, storage/ws-connections.ts), and an outbox that sends each
 * socket one frame per coalescing window (flushed before the marks below); settings, connections and
 * queues come from the container's read caches (domain/inbound/batch-references.ts). The messages'
 * last write, their links' `dispatched` mark, is taken for the whole batch once its groups are done
 * (domain/inbound/dispatch-marks.ts): a record whose mark could not be written fails then, with the
 * later records of its group, as if it had failed in its turn. The messages' search words are not
 * written here: the table's stream indexes them (handlers/streams/message-words.ts). Beside the
 * batch, its messages are counted per tenant for the tenant's list shards (domain/inbound/tenant-load.ts).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import '#adapters/wiring';
import { env } from '#commons/env';
import { logger } from '#commons/logger';
import { decodeQueueBody } from '#contracts/queue-body';
import { type InboundEvent, inboundEventSchema } from '#contracts/session-events';
import { batchReferences } from '#domain/inbound/batch-references';
import { batchMarks } from '#domain/inbound/dispatch-marks';
import { processInboundEvent } from '#domain/inbound/pipeline';
import { observeInboundLoad } from '#domain/inbound/tenant-load';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { enqueueFanout } from '#realtime/fanout';
import { postToConnection } from '#realtime/management';
import { createSnapshotPublisher, type UnitPublisher } from '#realtime/publisher';
import * as sockets from '#storage/ws-connections';
import { byMessageGroup } from './message-groups.ts';

type Parsed = { record: SQSRecord; event?: InboundEvent; error?: string };

function parse(record: SQSRecord): Parsed {
  try {
    const parsed = inboundEventSchema.safeParse(decodeQueueBody(record.body));
    return parsed.success ? { record, event: parsed.data } : { record, error: parsed.error.message };
  } catch (error) {
    return { record, error: (error as Error).message };
  }
}

function messagesPerTenant(parsed: Parsed[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const { event } of parsed) if (event?.kind === 'message') counts.set(event.companyId, (counts.get(event.companyId) ?? 0) + 1);
  return counts;
}

/**
 * The batch's publisher, its tenants' socket lists already being read. Events coalesce per socket
 * (realtime/outbox.ts): a batch's messages for one attendant go out as one frame, not one each.
 */
function batchPublisher(companyIds: Set<number>): UnitPublisher {
  const lists = new Map<number, ReturnType<typeof sockets.listCompanyConnectionsCached>>();
  const listCompanyConnections = (companyId: number) => {
    let list = lists.get(companyId);
    if (!list) {
      list = sockets.listCompanyConnectionsCached(companyId);
      lists.set(companyId, list);
      list.catch(() => lists.delete(companyId)); // a failed read is retried by the publish that needs it
    }
    return list;
  };
  for (const companyId of companyIds) void listCompanyConnections(companyId).catch(() => undefined);
  return createSnapshotPublisher(
    {
      listCompanyConnections,
      listAllConnections: sockets.listAllConnections,
      deleteConnection: sockets.deleteConnection,
      post: postToConnection,
      fanout: enqueueFanout,
      fanoutThreshold: env.realtimeFanoutThreshold,
    },
    { coalesceMs: env.realtimeCoalesceMs || undefined },
  );
}

export async function consume(event: SQSEvent, given?: Effects): Promise<SQSBatchResponse> {
  const parsed = event.Records.map(parse);
  const companyIds = new Set(parsed.flatMap((p) => (p.event ? [p.event.companyId] : [])));
  const publisher = given ? undefined : batchPublisher(companyIds);
  const effects = given ?? { ...defaultEffects, publish: (publisher as UnitPublisher).publish };
  const refs = batchReferences();
  const marks = batchMarks();
  // The tenants' message rate, for their list shards (tenant-load.ts): beside the batch, never in its way.
  const load = observeInboundLoad(messagesPerTenant(parsed)).catch((error: unknown) =>
    logger.warn('inbound load not counted', { error: error as Error }),
  );
  /** Per group, its records in order and the first that failed (all from it are failures). */
  const outcomes = await Promise.all(
    byMessageGroup(parsed, (item) => item.record).map(async (items) => {
      for (const [index, { record, event: inbound, error }] of items.entries()) {
        try {
          if (!inbound) throw new Error(`invalid inbound event: ${error}`);
          await processInboundEvent(inbound, effects, refs, marks.forRecord(record.messageId));
        } catch (failure) {
          logger.error('inbound event failed', { messageId: record.messageId, error: failure as Error });
          return { items, firstFailed: index };
        }
      }
      return { items, firstFailed: items.length };
    }),
  );
  // Published before marked: a link is marked dispatched only once its events left the outbox.
  await publisher?.flush();
  const unmarked = await marks.flush();
  await load;
  for (const [messageId, failure] of unmarked)
    logger.error('inbound event failed: its link mark not written', { messageId, error: failure as Error });
  const failures = outcomes.flatMap(({ items, firstFailed }) => {
    const markFailed = items.findIndex((item) => unmarked.has(item.record.messageId));
    const from = markFailed === -1 ? firstFailed : Math.min(firstFailed, markFailed);
    return items.slice(from).map((item) => item.record.messageId);
  });
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => consume(event);
