/**
 * The path of a big tenant's frames (issue 15). A tenant with more than `env.realtimeFanoutThreshold`
 * sockets open (100 by default) does not get its frames posted by the handler that published them:
 * one PostToConnection per socket at 16 in flight would hold a request or an inbound batch for
 * hundreds of milliseconds. They go to the `realtime-fanout` queue instead, packed (a frame written
 * once per message for all the sockets that get it, up to MAX_TARGETS sockets a message, ten
 * messages a SendMessageBatch), and the fan-out consumer posts them, its invocations in parallel
 * across message groups.
 *
 * Order: a socket always falls in the same message group (a hash of its connection id) of the FIFO
 * queue, and a publisher sends a socket's frames in order, so they are posted in order. A tenant is
 * on one path at a time: its own size picks it, not the event's audience; only while it crosses the
 * threshold may a frame of the new path overtake one still on the old.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { env } from '#commons/env';
import { logger } from '#commons/logger';
import { sendMessageBatch } from '#commons/sqs';
import type { ServerEvent } from '#contracts/channels';
import { encodeQueueBody } from '#contracts/queue-body';
import type { Delivery, PublishResult } from './outbox.ts';

export const FANOUT_QUEUE = 'realtime-fanout';
/** Message groups of the queue: the fan-out's parallelism. */
export const FANOUT_GROUPS = 16;
/** Sockets per queue message. */
export const MAX_TARGETS = 100;
/** SQS takes 256 KB a message and a batch. */
const MAX_BATCH_BYTES = 240 * 1024;

/** A queue message: frames written once, and the sockets that get each (by index). */
export interface FanoutBody {
  frames: Array<ServerEvent | ServerEvent[]>;
  /** [connectionId, companyId, frame index] */
  targets: Array<[string, number, number]>;
}

export const fanoutGroup = (connectionId: string): number =>
  createHash('sha1').update(connectionId).digest().readUInt16BE(0) % FANOUT_GROUPS;

/**
 * Deliveries packed into queue messages, each of one message group, in the deliveries' order. Two
 * sockets get the same frame when their payloads hold the same event objects (an event is one object
 * for all its sockets), so it is written once.
 */
export function packFanout(deliveries: readonly Delivery[]): Array<{ group: number; body: FanoutBody }> {
  const ids = new WeakMap<ServerEvent, number>();
  let next = 0;
  const idFor = (event: ServerEvent) => {
    const known = ids.get(event);
    if (known !== undefined) return known;
    ids.set(event, next);
    return next++;
  };
  const byGroup = new Map<number, Delivery[]>();
  for (const delivery of deliveries) {
    const group = fanoutGroup(delivery.connection.connectionId);
    const members = byGroup.get(group);
    if (members) members.push(delivery);
    else byGroup.set(group, [delivery]);
  }
  const messages: Array<{ group: number; body: FanoutBody }> = [];
  for (const [group, list] of byGroup) {
    for (let i = 0; i < list.length; i += MAX_TARGETS) {
      const body: FanoutBody = { frames: [], targets: [] };
      const frameIndex = new Map<string, number>();
      for (const { connection, payload } of list.slice(i, i + MAX_TARGETS)) {
        const key = Array.isArray(payload) ? payload.map(idFor).join(',') : String(idFor(payload));
        let index = frameIndex.get(key);
        if (index === undefined) {
          index = body.frames.push(payload) - 1;
          frameIndex.set(key, index);
        }
        body.targets.push([connection.connectionId, connection.companyId, index]);
      }
      messages.push({ group, body });
    }
  }
  return messages;
}

/** Queues the deliveries for the fan-out consumer; what could not be queued counts as failed. */
export async function enqueueFanout(deliveries: readonly Delivery[]): Promise<PublishResult> {
  const result = { sent: 0, gone: 0, failed: 0, queued: 0 };
  const entries = packFanout(deliveries).map(({ group, body }, index) => ({
    entry: {
      Id: `m${index}`,
      MessageBody: encodeQueueBody(body),
      MessageGroupId: `g${group}`,
      MessageDeduplicationId: randomUUID(),
    } satisfies SendMessageBatchRequestEntry,
    targets: body.targets.length,
  }));
  const batches: (typeof entries)[] = [];
  let bytes = Number.POSITIVE_INFINITY;
  for (const item of entries) {
    const size = Buffer.byteLength(item.entry.MessageBody);
    const current = batches.at(-1);
    if (!current || current.length === 10 || bytes + size > MAX_BATCH_BYTES) {
      batches.push([item]);
      bytes = size;
    } else {
      current.push(item);
      bytes += size;
    }
  }
  // In order: a later batch may hold a later frame of the same group.
  for (const batch of batches) {
    try {
      const out = await sendMessageBatch({ QueueUrl: env.queueUrl(FANOUT_QUEUE), Entries: batch.map((b) => b.entry) });
      const refused = new Set((out.Failed ?? []).map((failure) => failure.Id));
      for (const item of batch) {
        if (refused.has(item.entry.Id)) result.failed += item.targets;
        else result.queued += item.targets;
      }
      if (refused.size) logger.warn('realtime fan-out entries refused', { failed: out.Failed });
    } catch (error) {
      logger.error('realtime fan-out not queued', { error: error as Error });
      result.failed += batch.reduce((sum, item) => sum + item.targets, 0);
    }
  }
  return result;
}
