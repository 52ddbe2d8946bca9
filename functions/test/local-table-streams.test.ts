/**
 * The local stack's table stream (infra/local/table-streams.ts) behaves like Lambda's event source
 * mapping over DynamoDB Streams: the declared filters, records in order with their images, a failing
 * batch retried halved and then sent to the DLQ, drain() and stop() as tests rely on them.
 */
import {
  type AttributeValue,
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local/dynamodb-local.ts';
import { compileFilters } from '../../infra/local/event-filter.ts';
import type { LambdaHandler } from '../../infra/local/lambda-runtime.ts';
import type { StreamEventRecord } from '../../infra/local/table-stream-records.ts';
import { type DeadLetter, startTableStreams, type TableStreamsOptions } from '../../infra/local/table-streams.ts';
import { type TableStreamConsumerDeclaration, tableStreamConsumers } from '../src/declarations/table-streams.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { drainTableStreams } from './support/table-streams.ts';

const applied = vi.hoisted(() => [] as unknown[][]);
vi.mock('#storage/messages/words', () => ({
  applyMessageWordChanges: async (changes: unknown[]) => {
    applied.push(changes);
  },
}));

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal({ streams: true });
});
afterAll(async () => {
  await ddb?.stop();
});

/** A consumer of the items of one partition, so each test reads only its own records from the shared stream. */
function consumer(pk: string, overrides: Partial<TableStreamConsumerDeclaration> = {}): TableStreamConsumerDeclaration {
  return {
    name: `probe-${pk}`,
    filters: [{ dynamodb: { Keys: { pk: { S: [pk] }, sk: { S: [{ prefix: 'MSG#' }] } } } }],
    batchSize: 10,
    maxBatchingWindowSeconds: 0,
    retryAttempts: 2,
    maxRecordAgeSeconds: 3600,
    ...overrides,
  };
}

/** A poller over the file's table with one consumer and its handler. */
function poller(declaration: TableStreamConsumerDeclaration, handler: LambdaHandler, options: Partial<TableStreamsOptions> = {}) {
  const logs: string[] = [];
  const dropped: DeadLetter[] = [];
  const streams = startTableStreams({
    endpoint: ddb.endpoint,
    tableName: ddb.tableName,
    region: 'us-east-1',
    log: (line) => logs.push(line),
    consumers: [declaration],
    handlers: { [declaration.name]: handler },
    background: false,
    retryBackoffMs: 1,
    onDeadLetter: (dead) => dropped.push(dead),
    ...options,
  });
  return { streams, logs, dropped };
}

const put = (pk: string, sk: string, fields: Record<string, AttributeValue> = {}) =>
  ddb.client.send(new PutItemCommand({ TableName: ddb.tableName, Item: { pk: { S: pk }, sk: { S: sk }, ...fields } }));
const remove = (pk: string, sk: string) =>
  ddb.client.send(new DeleteItemCommand({ TableName: ddb.tableName, Key: { pk: { S: pk }, sk: { S: sk } } }));
const keyOf = (record: StreamEventRecord) => record.dynamodb.Keys.sk?.S;

describe('the event filter', () => {
  const record = (sk: string, newImage?: Record<string, unknown>) => ({ dynamodb: { Keys: { sk: { S: sk } }, NewImage: newImage } });

  it('matches a prefix, exact values, and any of the patterns', () => {
    const matches = compileFilters([{ dynamodb: { Keys: { sk: { S: [{ prefix: 'MSG#' }, 'PIN'] } } } }, { eventName: ['REMOVE'] }]);
    expect(matches(record('MSG#1'))).toBe(true);
    expect(matches(record('PIN'))).toBe(true);
    expect(matches(record('TICKET#1'))).toBe(false);
    expect(matches({ eventName: 'REMOVE', ...record('TICKET#1') })).toBe(true);
  });

  it('tells a present leaf from a missing one, however deep the missing part starts', () => {
    const present = compileFilters([{ dynamodb: { NewImage: { wordIndex: { M: { shard: { N: [{ exists: true }] } } } } } }]);
    const absent = compileFilters([{ dynamodb: { NewImage: { wordIndex: { M: { shard: { N: [{ exists: false }] } } } } } }]);
    const indexed = record('MSG#1', { wordIndex: { M: { shard: { N: '3' } } } });
    expect(present(indexed)).toBe(true);
    expect(absent(indexed)).toBe(false);
    expect(present(record('MSG#1', {}))).toBe(false);
    expect(absent(record('MSG#1'))).toBe(true);
    // As in Lambda, exists looks at leaves: a map is not one.
    expect(compileFilters([{ dynamodb: { NewImage: { wordIndex: [{ exists: true }] } } }])(indexed)).toBe(false);
  });

  it('throws on an operator it does not implement, so no filter is silently ignored', () => {
    expect(() => compileFilters([{ dynamodb: { Keys: { sk: { S: [{ suffix: '#1' }] } } } }])).toThrow(/does not implement/);
    expect(() => compileFilters([{ eventName: [{ 'anything-but': 'REMOVE' }] }])).toThrow(/does not implement/);
    expect(() => compileFilters([{ eventName: 'REMOVE' }])).toThrow(/pattern/);
    expect(() =>
      startTableStreams({
        endpoint: 'http://127.0.0.1:1',
        tableName: 't',
        region: 'us-east-1',
        log: () => undefined,
        consumers: [consumer('x', { filters: [{ eventName: [{ numeric: ['>', 1] }] }] })],
      }),
    ).toThrow(/does not implement/);
  });

  it("passes the declared message-words consumer a message's records only while it has index words now or had them before", () => {
    const [messageWords] = tableStreamConsumers;
    const matches = compileFilters(messageWords?.filters ?? []);
    const indexed = { wordIndex: { M: { shard: { N: '0' } } } };
    const stream = (sk: string, images: { NewImage?: object; OldImage?: object }) => ({
      dynamodb: { Keys: { pk: { S: 'T' }, sk: { S: sk } }, ...images },
    });
    expect(matches(stream('MSG#1', { NewImage: indexed }))).toBe(true);
    expect(matches(stream('MSG#1', { OldImage: indexed }))).toBe(true);
    expect(matches(stream('MSG#1', { NewImage: {}, OldImage: {} }))).toBe(false);
    expect(matches(stream('TICKET#1', { NewImage: indexed }))).toBe(false);
  });
});

describe('the table', () => {
  it('has a stream with both images, and a table made before streams gets one once', async () => {
    const described = await ddb.client.send(new DescribeTableCommand({ TableName: ddb.tableName }));
    expect(described.Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });

    const old = `${ddb.tableName}-old`;
    await ddb.client.send(
      new CreateTableCommand({
        TableName: old,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
      }),
    );
    try {
      expect(await ensureTable(ddb.endpoint, old)).toBe('existing');
      // Again: DynamoDB refuses to enable a stream that is enabled already.
      expect(await ensureTable(ddb.endpoint, old)).toBe('existing');
      const after = await ddb.client.send(new DescribeTableCommand({ TableName: old }));
      expect(after.Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    } finally {
      await ddb.client.send(new DeleteTableCommand({ TableName: old }));
    }
  });
});

describe('the stream poller', () => {
  it('delivers the matching records in order with their images, in batches, and never the others', async () => {
    const batches: StreamEventRecord[][] = [];
    const { streams } = poller(
      consumer('ORDER', { batchSize: 3, maxBatchingWindowSeconds: 60 }),
      async (event: { Records: StreamEventRecord[] }) => {
        batches.push(event.Records);
      },
    );
    await put('ORDER', 'MSG#1', { body: { S: 'first' } });
    await put('ORDER', 'TICKET#1');
    await put('OTHER', 'MSG#1');
    await ddb.client.send(
      new UpdateItemCommand({
        TableName: ddb.tableName,
        Key: { pk: { S: 'ORDER' }, sk: { S: 'MSG#1' } },
        UpdateExpression: 'SET body = :b',
        ExpressionAttributeValues: { ':b': { S: 'edited' } },
      }),
    );
    await put('ORDER', 'MSG#2');
    await remove('ORDER', 'MSG#2');
    await put('ORDER', 'MSG#3');

    await streams.drain();

    expect(batches.map((b) => b.length)).toEqual([3, 2]);
    const records = batches.flat();
    expect(records.map((r) => [r.eventName, keyOf(r)])).toEqual([
      ['INSERT', 'MSG#1'],
      ['MODIFY', 'MSG#1'],
      ['INSERT', 'MSG#2'],
      ['REMOVE', 'MSG#2'],
      ['INSERT', 'MSG#3'],
    ]);
    const [inserted, modified, , removed] = records as [StreamEventRecord, StreamEventRecord, StreamEventRecord, StreamEventRecord];
    expect(inserted.dynamodb.OldImage).toBeUndefined();
    expect(inserted.dynamodb.NewImage?.body).toEqual({ S: 'first' });
    expect(modified.dynamodb.OldImage?.body).toEqual({ S: 'first' });
    expect(modified.dynamodb.NewImage?.body).toEqual({ S: 'edited' });
    expect(removed.dynamodb.NewImage).toBeUndefined();
    expect(removed.dynamodb.OldImage?.sk).toEqual({ S: 'MSG#2' });
    expect(inserted).toMatchObject({
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: expect.stringContaining(`table/${ddb.tableName}/stream/`),
      dynamodb: { Keys: { pk: { S: 'ORDER' }, sk: { S: 'MSG#1' } }, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    expect(typeof inserted.dynamodb.ApproximateCreationDateTime).toBe('number');
    const sequences = records.map((r) => BigInt(r.dynamodb.SequenceNumber));
    expect(sequences).toEqual([...sequences].sort((a, b) => (a < b ? -1 : 1)));

    // Nothing written since: a second drain delivers nothing again.
    await streams.drain();
    expect(batches).toHaveLength(2);
    await streams.stop();
  });

  it('retries a failing batch halved, sends what still fails to the DLQ after retryAttempts, and goes on', async () => {
    const tried: string[][] = [];
    const { streams, dropped, logs } = poller(
      consumer('POISON', { batchSize: 4, retryAttempts: 2 }),
      async (event: { Records: StreamEventRecord[] }) => {
        const keys = event.Records.map((r) => keyOf(r) ?? '');
        tried.push(keys);
        if (keys.includes('MSG#poison')) throw new Error('cannot index this one');
      },
    );
    for (const sk of ['MSG#a', 'MSG#poison', 'MSG#b', 'MSG#c']) await put('POISON', sk);

    await streams.drain();

    expect(tried).toEqual([
      ['MSG#a', 'MSG#poison', 'MSG#b', 'MSG#c'],
      ['MSG#a', 'MSG#poison'],
      ['MSG#a'],
      ['MSG#poison'],
      ['MSG#b', 'MSG#c'],
    ]);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ consumer: 'probe-POISON', reason: 'failed 3 time(s)' });
    expect(dropped[0]?.sequenceNumbers).toHaveLength(1);
    expect(logs.some((line) => line.includes('sent to the DLQ') && line.includes(dropped[0]?.sequenceNumbers[0] ?? '?'))).toBe(true);

    await put('POISON', 'MSG#d');
    await streams.drain();
    expect(tried.at(-1)).toEqual(['MSG#d']);
    await streams.stop();
  });

  it('sends records older than maxRecordAgeSeconds to the DLQ untried', async () => {
    const handler = vi.fn(async () => undefined);
    const { streams, dropped } = poller(consumer('AGED', { maxRecordAgeSeconds: 0 }), handler);
    // Its creation time is whole seconds (or coarser) at or before the write: older than 0 s by the time it is read.
    await put('AGED', 'MSG#1');
    await streams.drain();
    expect(handler).not.toHaveBeenCalled();
    expect(dropped[0]?.reason).toMatch(/maxRecordAgeSeconds/);
    await streams.stop();
  });

  it('drain() waits for the batches in flight; in the background new records arrive alone; stop() waits for the batch in flight and stops', async () => {
    const finished: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = false;
    const { streams } = poller(
      consumer('LIVE'),
      async (event: { Records: StreamEventRecord[] }) => {
        for (const record of event.Records) {
          if (keyOf(record) === 'MSG#held') {
            entered = true;
            await gate;
          } else await new Promise((resolve) => setTimeout(resolve, 30));
          finished.push(keyOf(record) ?? '');
        }
      },
      { background: true, pollIntervalMs: 20, shardRefreshMs: 100 },
    );
    await put('LIVE', 'MSG#1');
    await put('LIVE', 'MSG#2');
    await streams.drain();
    expect(finished).toEqual(['MSG#1', 'MSG#2']);

    await put('LIVE', 'MSG#3');
    await vi.waitFor(() => expect(finished).toEqual(['MSG#1', 'MSG#2', 'MSG#3']), { timeout: 2000, interval: 20 });

    await put('LIVE', 'MSG#held');
    await vi.waitFor(() => expect(entered).toBe(true), { timeout: 2000, interval: 20 });
    let stopped = false;
    const stopping = streams.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished.at(-1)).toBe('MSG#held');

    await put('LIVE', 'MSG#after');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(finished).not.toContain('MSG#after');
  });
});

describe('drainTableStreams (test support)', () => {
  it("runs the declared message-words consumer over this file's table: an indexed message's records only", async () => {
    applied.length = 0;
    await put('T#1', 'MSG#indexed', { wordIndex: { M: { shard: { N: '2' } } } });
    await put('T#1', 'MSG#plain', { body: { S: 'no words' } });
    await put('T#1', 'TICKET#1', { wordIndex: { M: { shard: { N: '2' } } } });
    await drainTableStreams();
    expect(applied.flat()).toEqual([{ key: 'T#1 MSG#indexed', before: undefined, after: expect.objectContaining({ sk: 'MSG#indexed' }) }]);

    await remove('T#1', 'MSG#indexed');
    await drainTableStreams();
    expect(applied.flat().at(-1)).toEqual({
      key: 'T#1 MSG#indexed',
      before: expect.objectContaining({ sk: 'MSG#indexed' }),
      after: undefined,
    });
  });
});
