/**
 * The table's stream locally: DynamoDB Local keeps one as DynamoDB does (ensureTable turns it on),
 * and this does for each consumer of functions/src/declarations/table-streams.ts what Lambda's event
 * source mapping does, so the same handler sees the same events in the same order.
 *
 * Each consumer reads every shard on its own, from the oldest record (TRIM_HORIZON), a shard at a
 * time per batch: a child shard is read only once its parent was read to its end and delivered, so
 * an item's records reach the consumer in the order they were written. A record the declaration's
 * filters do not match is passed over and never counts towards a batch. Matching records gather
 * until the batch is full or the batching window (which the local stack shortens, so a search finds
 * a new message at once) has passed since the oldest of them was read.
 *
 * One batch of a shard is in flight at a time: a batch that throws is tried again halved until its
 * `retryAttempts`, then its records go to the DLQ and the shard moves on (table-stream-batches.ts).
 * A shard is polled 4 times a second while idle (as Lambda does), and DescribeStream is asked for
 * new shards every few seconds.
 *
 * A network error is logged and the read tried again; an iterator that expired (DynamoDB Local
 * expires them after 15 minutes) is renewed after the last record read. With a `checkpointFile`
 * (the stack's data on disk) each consumer's position survives a restart, as the mapping's does;
 * without one a restart reads the stream again from its start. `drain()` reads every shard until
 * it is empty and delivers what it read at once, for tests; `stop()` waits for the batch in flight.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { type TableStreamConsumerDeclaration, tableStreamConsumers } from '@conversa/functions/declarations/table-streams';
import { abortableSleep, settledOrAborted } from './abort.ts';
import { dynamoClient } from './dynamodb-local/dynamodb-local.ts';
import { compileFilters } from './event-filter.ts';
import { handlerFile, type LambdaHandler, loadHandler } from './lambda-runtime.ts';
import { type DeadLetter, deliverBatch, message, type PendingRecord } from './table-stream-batches.ts';
import { type Checkpoints, readCheckpoints, writeCheckpoints } from './table-stream-checkpoints.ts';
import { streamEventRecord } from './table-stream-records.ts';

export type { DeadLetter } from './table-stream-batches.ts';

export interface TableStreamsOptions {
  endpoint: string;
  tableName: string;
  region: string;
  log: (line: string) => void;
  /** Defaults to functions/src/declarations/table-streams.ts (tests pass their own). */
  consumers?: readonly TableStreamConsumerDeclaration[];
  /** Handlers by consumer name instead of functions/src/handlers/streams/<name>.ts (tests). */
  handlers?: Record<string, LambdaHandler>;
  /** Caps each consumer's batching window (milliseconds): locally a new record need not wait a whole second. */
  maxBatchingWindowMs?: number;
  /** How often an idle shard is read again (250 ms: Lambda polls 4 times a second). */
  pollIntervalMs?: number;
  /** How often DescribeStream is asked for new shards. */
  shardRefreshMs?: number;
  /** The wait before a failed batch's first retry (500 ms); it doubles each retry, up to `maxRetryBackoffMs` (10 s). */
  retryBackoffMs?: number;
  maxRetryBackoffMs?: number;
  /** false: nothing reads the stream until drain() is called (unit tests, with no timers left behind). */
  background?: boolean;
  /** Where each consumer's position is kept across restarts. */
  checkpointFile?: string;
  /** Told of records sent to the DLQ (besides the error line). */
  onDeadLetter?: (dropped: DeadLetter) => void;
}

export interface TableStreams {
  /** The consumers being fed. */
  consumers: string[];
  /** Resolves once every record written before the call was delivered to (and finished by) its consumers, or sent to the DLQ. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

const POLL_INTERVAL_MS = 250;
const SHARD_REFRESH_MS = 5_000;
const RETRY_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10_000;
/** GetRecords' most records a call. */
const READ_LIMIT = 1_000;

interface Shard {
  id: string;
  parentId?: string;
  iterator?: string;
  /** The last record read: an expired iterator is renewed after it. */
  lastRead?: string;
  /** The last record done with (delivered, passed over or sent to the DLQ): where a restart resumes. */
  checkpoint?: string;
  /** Matching records read and not yet delivered, in order. */
  pending: PendingRecord[];
  /** Read to its end: the shard is closed and GetRecords gave no next iterator. */
  closed: boolean;
  /** Closed with nothing pending: its children may be read. */
  ended: boolean;
  endedSignal: Promise<void>;
  markEnded: () => void;
  /** One read-and-deliver at a time per shard (the background loop's and drain()'s). */
  lock: Promise<unknown>;
}

interface Mapping {
  declaration: TableStreamConsumerDeclaration;
  matches: (record: unknown) => boolean;
  load: () => Promise<LambdaHandler>;
  windowMs: number;
  shards: Map<string, Shard>;
}

export function startTableStreams(opts: TableStreamsOptions): TableStreams {
  const pollIntervalMs = opts.pollIntervalMs ?? POLL_INTERVAL_MS;
  const retryBackoffMs = opts.retryBackoffMs ?? RETRY_BACKOFF_MS;
  const maxRetryBackoffMs = opts.maxRetryBackoffMs ?? MAX_BACKOFF_MS;
  // A filter this cannot evaluate, or a consumer without its handler file, throws here, before anything is read.
  const mappings: Mapping[] = (opts.consumers ?? tableStreamConsumers).map((declaration) => {
    const matches = compileFilters(declaration.filters);
    const given = opts.handlers?.[declaration.name];
    const file = given ? undefined : handlerFile('streams', declaration.name);
    return {
      declaration,
      matches,
      load: given ? () => Promise.resolve(given) : () => loadHandler(file as string),
      windowMs: Math.min(declaration.maxBatchingWindowSeconds * 1000, opts.maxBatchingWindowMs ?? Number.POSITIVE_INFINITY),
      shards: new Map(),
    };
  });
  const client = new DynamoDBStreamsClient({
    endpoint: opts.endpoint,
    region: opts.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const abort = new AbortController();
  const { signal } = abort;
  const readers = new Set<Promise<void>>();
  let stream: Promise<{ arn: string; checkpoints: Checkpoints }> | undefined;
  let checkpointTimer: NodeJS.Timeout | undefined;

  /** The table's stream, once found (a failure is asked again on the next call). */
  const findStream = () => {
    stream ??= describeStreamArn(opts.endpoint, opts.tableName).then(
      (arn) => ({ arn, checkpoints: readCheckpoints(opts.checkpointFile, arn) }),
      (error: unknown) => {
        stream = undefined;
        throw error;
      },
    );
    return stream;
  };

  const saveCheckpoints = async () => {
    const found = await stream?.catch(() => undefined);
    if (!opts.checkpointFile || !found) return;
    const positions = Object.fromEntries(
      mappings.map((m) => [
        m.declaration.name,
        Object.fromEntries([...m.shards].flatMap(([id, s]) => (s.checkpoint ? [[id, s.checkpoint]] : []))),
      ]),
    );
    await writeCheckpoints(opts.checkpointFile, found.arn, positions).catch((error: unknown) =>
      opts.log(`[streams] writing ${opts.checkpointFile} failed: ${message(error)}`),
    );
  };
  const checkpointMoved = () => {
    if (!opts.checkpointFile || checkpointTimer || signal.aborted) return;
    checkpointTimer = setTimeout(() => {
      checkpointTimer = undefined;
      void saveCheckpoints();
    }, 1_000);
    checkpointTimer.unref();
  };

  /** Adds the shards DescribeStream lists that are new; in the background, starts reading them. */
  const refreshShards = async () => {
    const { arn, checkpoints } = await findStream();
    const listed = await listShards(client, arn, signal);
    for (const mapping of mappings) {
      const added = listed
        .filter((found) => !mapping.shards.has(found.id))
        .map((found) => newShard(found.id, found.parentId, checkpoints[mapping.declaration.name]?.[found.id]));
      // All of them known before any is read: a child listed before its parent still waits for it.
      for (const shard of added) mapping.shards.set(shard.id, shard);
      if (opts.background ?? true) for (const shard of added) track(readInBackground(mapping, shard, arn));
    }
  };

  const track = (reader: Promise<void>) => {
    readers.add(reader);
    void reader.finally(() => readers.delete(reader));
  };

  const parentOf = (mapping: Mapping, shard: Shard) => (shard.parentId ? mapping.shards.get(shard.parentId) : undefined);

  /** One GetRecords (an expired iterator renewed after the last record read); returns how many records it read. */
  const read = async (mapping: Mapping, shard: Shard, arn: string): Promise<number> => {
    if (shard.closed) return 0;
    let out: GetRecordsCommandOutput | undefined;
    for (let renewed = false; !out; renewed = true) {
      shard.iterator ??= await shardIterator(client, arn, shard, opts.log, signal);
      try {
        out = await client.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: READ_LIMIT }), { abortSignal: signal });
      } catch (error) {
        if (renewed) throw error;
        if (error instanceof TrimmedDataAccessException) {
          opts.log(`[streams] ${shard.id}: records after ${shard.lastRead} were trimmed from the stream; reading from its oldest record`);
          shard.lastRead = undefined;
        } else if (!(error instanceof ExpiredIteratorException)) throw error;
        shard.iterator = undefined;
      }
    }
    const now = Date.now();
    for (const raw of out.Records ?? []) {
      const record = streamEventRecord(raw, opts.region, arn);
      shard.lastRead = record.dynamodb.SequenceNumber;
      if (mapping.matches(record)) shard.pending.push({ record, readAt: now });
    }
    shard.iterator = out.NextShardIterator;
    shard.closed = !shard.iterator;
    return out.Records?.length ?? 0;
  };

  /** Records delivered or sent to the DLQ leave `pending`; the checkpoint never passes one still there. */
  const doneWith = (shard: Shard, records: PendingRecord[]) => {
    const done = new Set(records);
    shard.pending = shard.pending.filter((p) => !done.has(p));
    const last = records.at(-1)?.record.dynamodb.SequenceNumber;
    const next = shard.pending[0]?.record.dynamodb.SequenceNumber;
    if (last && (!next || BigInt(last) < BigInt(next))) {
      shard.checkpoint = last;
      checkpointMoved();
    }
  };

  /** Delivers the batches that are due (all of them when `flush`), one at a time, in order. */
  const deliverDue = async (mapping: Mapping, shard: Shard, flush: boolean) => {
    const { batchSize } = mapping.declaration;
    while (shard.pending.length && !signal.aborted) {
      const oldest = shard.pending[0] as PendingRecord;
      const due = flush || shard.closed || shard.pending.length >= batchSize || Date.now() - oldest.readAt >= mapping.windowMs;
      if (!due) return;
      const delivery = {
        declaration: mapping.declaration,
        load: mapping.load,
        shardId: shard.id,
        retryBackoffMs,
        maxRetryBackoffMs,
        signal,
        log: opts.log,
        onDeadLetter: opts.onDeadLetter,
        doneWith: (records: PendingRecord[]) => doneWith(shard, records),
      };
      if (!(await deliverBatch(delivery, shard.pending.slice(0, batchSize)))) return;
    }
    if (shard.pending.length) return;
    if (shard.lastRead !== undefined && shard.checkpoint !== shard.lastRead) {
      // Records passed over after the last delivered one are done with too.
      shard.checkpoint = shard.lastRead;
      checkpointMoved();
    }
    if (shard.closed && !shard.ended) {
      shard.ended = true;
      shard.markEnded();
    }
  };

  /** Reads a shard until it ends or the poller stops; a failed read is logged and tried again, later each time. */
  const readInBackground = async (mapping: Mapping, shard: Shard, arn: string) => {
    const parent = parentOf(mapping, shard);
    if (parent) await settledOrAborted(parent.endedSignal, signal);
    let failures = 0;
    while (!signal.aborted && !shard.ended) {
      let wait = 0;
      await exclusive(shard, async () => {
        try {
          const count = await read(mapping, shard, arn);
          await deliverDue(mapping, shard, false);
          failures = 0;
          const oldest = shard.pending[0];
          const windowLeft = oldest ? Math.max(0, mapping.windowMs - (Date.now() - oldest.readAt)) : pollIntervalMs;
          // Never a busy loop: at least a few milliseconds between empty reads.
          wait = count ? 0 : Math.max(10, Math.min(pollIntervalMs, windowLeft));
        } catch (error) {
          if (signal.aborted) return;
          wait = Math.min(1_000 * 2 ** failures++, MAX_BACKOFF_MS);
          opts.log(`[streams] reading ${shard.id} for ${mapping.declaration.name} failed; tried again in ${wait} ms: ${message(error)}`);
        }
      });
      if (wait) await abortableSleep(wait, signal);
    }
  };

  /** Reads a shard until GetRecords answers nothing, delivering everything read (retried a few times on a network error). */
  const drainShard = async (mapping: Mapping, shard: Shard, arn: string) => {
    for (let failures = 0; !signal.aborted && !shard.ended; ) {
      try {
        const count = await read(mapping, shard, arn);
        await deliverDue(mapping, shard, true);
        if (!count) return;
      } catch (error) {
        if (signal.aborted) return;
        if (++failures >= 5) throw error;
        await abortableSleep(200 * failures, signal);
      }
    }
  };

  const drainMapping = async (mapping: Mapping, arn: string) => {
    const drained = new Set<Shard>();
    for (;;) {
      // Parents first: a child is read once its parent ended (drained in an earlier pass).
      const ready = [...mapping.shards.values()].filter((s) => !drained.has(s) && (!parentOf(mapping, s) || parentOf(mapping, s)?.ended));
      if (!ready.length || signal.aborted) return;
      for (const shard of ready) {
        if (signal.aborted) return;
        await exclusive(shard, () => drainShard(mapping, shard, arn));
        drained.add(shard);
      }
    }
  };

  const discovery = (opts.background ?? true) ? discoverInBackground() : Promise.resolve();
  async function discoverInBackground() {
    while (!signal.aborted) {
      await refreshShards().catch((error: unknown) => {
        if (!signal.aborted) opts.log(`[streams] listing the shards of ${opts.tableName}'s stream failed: ${message(error)}`);
      });
      await abortableSleep(opts.shardRefreshMs ?? SHARD_REFRESH_MS, signal);
    }
  }

  return {
    consumers: mappings.map((m) => m.declaration.name),
    async drain() {
      if (signal.aborted) return;
      await refreshShards();
      const { arn } = await findStream();
      await Promise.all(mappings.map((mapping) => drainMapping(mapping, arn)));
    },
    async stop() {
      if (signal.aborted) return;
      abort.abort();
      clearTimeout(checkpointTimer);
      await discovery;
      await Promise.allSettled([...readers]);
      // A drain() in flight ends after its current batch: wait for every shard's lock.
      await Promise.allSettled(mappings.flatMap((m) => [...m.shards.values()].map((s) => s.lock)));
      await saveCheckpoints();
      client.destroy();
    },
  };
}

function newShard(id: string, parentId: string | undefined, checkpoint: string | undefined): Shard {
  let markEnded: () => void = () => undefined;
  const endedSignal = new Promise<void>((resolve) => (markEnded = resolve));
  return {
    id,
    parentId,
    checkpoint,
    lastRead: checkpoint,
    pending: [],
    closed: false,
    ended: false,
    endedSignal,
    markEnded,
    lock: Promise.resolve(),
  };
}

function exclusive<T>(shard: Shard, work: () => Promise<T>): Promise<T> {
  const run = shard.lock.then(work);
  shard.lock = run.catch(() => undefined);
  return run;
}

async function describeStreamArn(endpoint: string, tableName: string): Promise<string> {
  const dynamo = dynamoClient(endpoint);
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.StreamSpecification?.StreamEnabled || !Table.LatestStreamArn)
      throw new Error(
        `table ${tableName} has no stream (ensureTable in infra/local/dynamodb-local/dynamodb-local.ts turns it on; a unit file asks startDynamoDbLocal for { streams: true })`,
      );
    return Table.LatestStreamArn;
  } finally {
    dynamo.destroy();
  }
}

async function listShards(client: DynamoDBStreamsClient, arn: string, signal: AbortSignal): Promise<{ id: string; parentId?: string }[]> {
  const shards: { id: string; parentId?: string }[] = [];
  let start: string | undefined;
  do {
    const { StreamDescription } = await client.send(new DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId: start }), {
      abortSignal: signal,
    });
    for (const shard of StreamDescription?.Shards ?? [])
      if (shard.ShardId) shards.push({ id: shard.ShardId, parentId: shard.ParentShardId });
    start = StreamDescription?.LastEvaluatedShardId;
  } while (start);
  return shards;
}

/** After the last record read (a renewal or a restart's checkpoint), else from the shard's oldest record. */
async function shardIterator(
  client: DynamoDBStreamsClient,
  arn: string,
  shard: Shard,
  log: (line: string) => void,
  signal: AbortSignal,
): Promise<string> {
  const from = async (after: string | undefined) => {
    const { ShardIterator } = await client.send(
      new GetShardIteratorCommand({
        StreamArn: arn,
        ShardId: shard.id,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
      { abortSignal: signal },
    );
    if (!ShardIterator) throw new Error(`GetShardIterator gave no iterator for ${shard.id}`);
    return ShardIterator;
  };
  try {
    return await from(shard.lastRead);
  } catch (error) {
    if (!(error instanceof TrimmedDataAccessException) || !shard.lastRead) throw error;
    log(`[streams] ${shard.id}: the records after ${shard.lastRead} were trimmed from the stream; reading from its oldest record`);
    shard.lastRead = undefined;
    return from(undefined);
  }
}
