/**
 * One batch of a shard handed to a stream consumer, as Lambda's event source mapping does with
 * bisectBatchOnError: a batch that throws is tried again after a backoff, halved, the first half
 * before the second, each part until it succeeds or has had its `retryAttempts` after the first
 * try; then its records go to the DLQ (here an error line with their sequence numbers) and the shard
 * moves on. A record older than `maxRecordAgeSeconds` goes there untried. Every part done with is
 * reported in order, so the shard's position never passes a record still to be delivered.
 */
import type { TableStreamConsumerDeclaration } from '@conversa/functions/declarations/table-streams';
import { abortableSleep } from './abort.ts';
import { type LambdaHandler, lambdaContext } from './lambda-runtime.ts';
import type { StreamEventRecord } from './table-stream-records.ts';

export interface PendingRecord {
  record: StreamEventRecord;
  /** When it was read: the batching window counts from the oldest record pending. */
  readAt: number;
}

export interface DeadLetter {
  consumer: string;
  shardId: string;
  sequenceNumbers: string[];
  reason: string;
  error?: unknown;
}

export interface BatchDelivery {
  declaration: TableStreamConsumerDeclaration;
  load: () => Promise<LambdaHandler>;
  shardId: string;
  /** Before the first retry; doubled each retry up to `maxRetryBackoffMs`. */
  retryBackoffMs: number;
  maxRetryBackoffMs: number;
  signal: AbortSignal;
  log: (line: string) => void;
  onDeadLetter?: (dropped: DeadLetter) => void;
  /** Each part delivered or sent to the DLQ, in order. */
  doneWith: (records: PendingRecord[]) => void;
}

/** False when stopped between tries: the parts not done with stay the caller's. */
export async function deliverBatch(delivery: BatchDelivery, batch: PendingRecord[]): Promise<boolean> {
  const { declaration, signal } = delivery;
  const parts = [{ records: batch, retries: 0 }];
  while (parts.length) {
    const part = parts[0] as (typeof parts)[number];
    // -1 (Lambda's default): a record is retried until the stream drops it.
    if (declaration.maxRecordAgeSeconds >= 0) {
      const oldest = Date.now() / 1000 - declaration.maxRecordAgeSeconds;
      const expired = part.records.filter((p) => p.record.dynamodb.ApproximateCreationDateTime < oldest);
      if (expired.length) {
        deadLetter(delivery, expired, `older than maxRecordAgeSeconds (${declaration.maxRecordAgeSeconds} s)`);
        delivery.doneWith(expired);
        part.records = part.records.filter((p) => !expired.includes(p));
      }
    }
    if (!part.records.length) {
      parts.shift();
      continue;
    }
    const error = await invoke(delivery, part.records);
    if (error === undefined) {
      delivery.doneWith(part.records);
      parts.shift();
      continue;
    }
    if (part.retries >= declaration.retryAttempts) {
      deadLetter(delivery, part.records, `failed ${part.retries + 1} time(s)`, error);
      delivery.doneWith(part.records);
      parts.shift();
      continue;
    }
    const backoff = Math.min(delivery.retryBackoffMs * 2 ** part.retries, delivery.maxRetryBackoffMs);
    delivery.log(
      `[streams] ${declaration.name} threw on ${part.records.length} record(s) of ${delivery.shardId}; retried in ${backoff} ms: ${message(error)}`,
    );
    await abortableSleep(backoff, signal);
    if (signal.aborted) return false;
    const half = Math.ceil(part.records.length / 2);
    const halves = part.records.length > 1 ? [part.records.slice(0, half), part.records.slice(half)] : [part.records];
    parts.splice(0, 1, ...halves.map((records) => ({ records, retries: part.retries + 1 })));
  }
  return true;
}

/** The error the handler threw, or undefined. */
async function invoke(delivery: BatchDelivery, records: PendingRecord[]): Promise<unknown> {
  try {
    const handler = await delivery.load();
    // No consumer declares a partial batch response (ReportBatchItemFailures): the result is ignored.
    await handler({ Records: records.map((p) => p.record) }, lambdaContext(`conversa-${delivery.declaration.name}`));
    return undefined;
  } catch (error) {
    return error ?? new Error('the handler threw undefined');
  }
}

function deadLetter(delivery: BatchDelivery, records: PendingRecord[], reason: string, error?: unknown): void {
  const consumer = delivery.declaration.name;
  const sequenceNumbers = records.map((p) => p.record.dynamodb.SequenceNumber);
  delivery.log(
    `[streams] ERROR ${consumer}: ${records.length} record(s) of ${delivery.shardId} sent to the DLQ, ${reason}` +
      `${error === undefined ? '' : ` (${message(error)})`}; sequence numbers ${sequenceNumbers.join(', ')}`,
  );
  delivery.onDeadLetter?.({ consumer, shardId: delivery.shardId, sequenceNumbers, reason, error });
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
