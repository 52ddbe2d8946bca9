/**
 * The local queue consumer wiring does what the Lambda SQS event source mapping does: consumers get
 * SQS events, successes are deleted, `batchItemFailures` come back after the visibility timeout and
 * move to the DLQ after maxReceiveCount, a throwing consumer leaves the whole batch. Runs its own
 * fauxqs on a free port with a test queue, so it does not depend on which consumers exist yet.
 */
import { createHash } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaHandler } from '../../infra/local/lambda-runtime.ts';
import { type LocalSqs, type QueuePollers, queueEnvName, startQueuePollers, startSqs } from '../../infra/local/sqs.ts';

const REGION = 'us-east-1';
let sqs: LocalSqs;
let pollers: QueuePollers;
let client: SQSClient;
const seen: { body: string; receiveCount: string | undefined; source: string }[] = [];
const log: string[] = [];

const consumer: LambdaHandler = async (event: {
  Records: { messageId: string; body: string; eventSource: string; attributes: Record<string, string> }[];
}) => {
  for (const record of event.Records)
    seen.push({ body: record.body, receiveCount: record.attributes.ApproximateReceiveCount, source: record.eventSource });
  if (event.Records.some((r) => r.body === 'throw')) throw new Error('consumer crashed');
  return { batchItemFailures: event.Records.filter((r) => r.body.startsWith('bad')).map((r) => ({ itemIdentifier: r.messageId })) };
};

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function depth(url: string): Promise<number> {
  const out = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

beforeAll(async () => {
  sqs = await startSqs({
    port: 0,
    region: REGION,
    declarations: [
      { name: 'local-test-work', fifo: false, consumer: 'local-test', visibilityTimeoutSeconds: 1, maxReceiveCount: 2, batchSize: 10 },
      // No consumer: the characters' test reads it itself.
      { name: 'local-test-characters', fifo: false, visibilityTimeoutSeconds: 30, maxReceiveCount: 5 },
      // No consumer: the FIFO test reads it itself.
      { name: 'local-test-groups', fifo: true, visibilityTimeoutSeconds: 2, maxReceiveCount: 5 },
    ],
  });
  client = new SQSClient({ endpoint: sqs.endpoint, region: REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  pollers = startQueuePollers({ sqs, region: REGION, log: (line) => log.push(line), consumers: { 'local-test': consumer } });
});

afterAll(async () => {
  await pollers?.stop();
  client?.destroy();
  await sqs?.stop();
});

describe('local queue consumers', () => {
  it('exposes each queue URL under QUEUE_URL_<NAME>', () => {
    expect(sqs.env[queueEnvName('local-test-work')]).toBe(sqs.queues[0]?.url);
    expect(pollers.polling).toEqual(['local-test']);
    expect(sqs.env[queueEnvName('local-test-characters')]).toBe(sqs.queues[1]?.url);
  });

  it('delivers SQS events and deletes what succeeded', async () => {
    const queue = sqs.queues[0]!;
    await client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'good-1' }));
    await waitUntil('good-1 consumed', () => seen.some((s) => s.body === 'good-1'));
    await waitUntil('good-1 deleted', async () => (await depth(queue.url)) === 0);
    expect(seen.find((s) => s.body === 'good-1')).toMatchObject({ source: 'aws:sqs', receiveCount: '1' });
    // Deleted, not just hidden: after the visibility timeout it does not come back.
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen.filter((s) => s.body === 'good-1')).toHaveLength(1);
  });

  it('retries a reported batch item failure and moves it to the DLQ after maxReceiveCount', async () => {
    const queue = sqs.queues[0]!;
    await client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'bad-1' }));
    await waitUntil('bad-1 in the DLQ', async () => (await depth(queue.dlqUrl)) === 1, 20_000);
    expect(seen.filter((s) => s.body === 'bad-1').map((s) => s.receiveCount)).toEqual(['1', '2']);
    const dead = await client.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, MaxNumberOfMessages: 1 }));
    expect(dead.Messages?.[0]?.Body).toBe('bad-1');
  });

  it('returns the whole batch when the consumer throws, and logs it', async () => {
    const queue = sqs.queues[0]!;
    await client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'throw' }));
    await waitUntil('throw retried', () => seen.filter((s) => s.body === 'throw').length >= 2, 20_000);
    expect(log.some((line) => line.includes('consumer crashed'))).toBe(true);
  });
});

/**
 * SQS's body rule (SendMessage, "MessageBody"): #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD |
 * #x10000 to #x10FFFF, everything else refused with InvalidMessageContents. fauxqs 1.9.2 left out the
 * last range (emoji and every other astral character); the local layer restores it.
 */
describe('local FIFO receives, as SQS hands them out', () => {
  it('gives up to ten messages of a group in order, holds the group while they are in flight, and frees it on delete', async () => {
    // Prepare: 12 messages of group a, 3 of group b
    const url = sqs.queues.find((q) => q.declaration.name === 'local-test-groups')?.url ?? '';
    const send = (group: string, i: number) =>
      client.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: `${group}${i}`,
          MessageGroupId: group,
          MessageDeduplicationId: `${group}${i}`,
        }),
      );
    for (let i = 1; i <= 12; i++) await send('a', i);
    for (let i = 1; i <= 3; i++) await send('b', i);
    const receive = async () =>
      (await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }))).Messages ?? [];
    // Act
    const first = await receive();
    const whileHeld = await receive();
    await client.send(
      new DeleteMessageBatchCommand({ QueueUrl: url, Entries: first.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }),
    );
    const after = await receive();
    // Assess: ten at once (fauxqs alone gave one per group: a1, b1), each group in order
    const bodies = first.map((m) => m.Body ?? '');
    expect(bodies).toHaveLength(10);
    for (const group of ['a', 'b']) {
      const own = bodies.filter((body) => body.startsWith(group)).map((body) => Number(body.slice(1)));
      expect(own).toEqual(own.map((_, i) => i + 1));
    }
    expect(whileHeld).toEqual([]);
    expect(after.map((m) => m.Body).sort()).toEqual(
      ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10', 'a11', 'a12', 'b1', 'b2', 'b3']
        .filter((body) => !bodies.includes(body))
        .sort(),
    );
  });
});

describe('local queue characters, as SQS has them', () => {
  const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
  const accepted = {
    emoji: 'Oi 😀👍🏽 👨‍👩‍👧 fim',
    rtl: 'مرحبا بك — שלום עולם',
    edges: '\t\n\r \uD7FF\uE000\uFFFD\u{10000}\u{10FFFF}',
    json: JSON.stringify({ body: 'a 😀 b', nul: '\u0000' }),
  };
  const refused = {
    nul: 'a\u0000b',
    control: 'a\u0001b',
    loneHigh: 'a\uD83Db',
    loneLow: 'a\uDE00b',
    fffe: 'a\uFFFEb',
    ffff: 'a\uFFFFb',
  };

  async function receiveAll(url: string, count: number) {
    const bodies: { body: string; md5: string | undefined }[] = [];
    const deadline = Date.now() + 10_000;
    while (bodies.length < count && Date.now() < deadline) {
      const out = await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      for (const m of out.Messages ?? []) bodies.push({ body: m.Body ?? '', md5: m.MD5OfBody });
    }
    return bodies;
  }

  it('accepts every character SQS accepts, and gives the body back as sent with the MD5 AWS computes', async () => {
    const queue = sqs.queues[1]!;
    for (const [name, body] of Object.entries(accepted)) {
      const sent = await client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: body }));
      expect(sent.MD5OfMessageBody, name).toBe(md5(body));
    }
    const batch = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: Object.values(accepted).map((body, i) => ({ Id: `b${i}`, MessageBody: `batch ${body}` })),
      }),
    );
    expect(batch.Failed ?? []).toEqual([]);
    const received = await receiveAll(queue.url, 2 * Object.keys(accepted).length);
    const expected = [...Object.values(accepted), ...Object.values(accepted).map((b) => `batch ${b}`)];
    expect(received.map((r) => r.body).sort()).toEqual(expected.sort());
    for (const r of received) expect(r.md5).toBe(md5(r.body));
  });

  it('refuses exactly what SQS refuses, with InvalidMessageContents, alone and in a batch', async () => {
    const queue = sqs.queues[1]!;
    for (const [name, body] of Object.entries(refused)) {
      const error = await client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: body })).catch((e: unknown) => e);
      expect((error as { name?: string }).name, name).toMatch(/InvalidMessageContents$/);
    }
    const batch = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: [{ Id: 'ok', MessageBody: 'fine 😀' }, ...Object.values(refused).map((body, i) => ({ Id: `bad${i}`, MessageBody: body }))],
      }),
    );
    expect(batch.Successful?.map((s) => s.Id)).toEqual(['ok']);
    expect(batch.Failed?.map((f) => [f.Id, f.Code])).toEqual(Object.keys(refused).map((_, i) => [`bad${i}`, 'InvalidMessageContents']));
    expect((await receiveAll(queue.url, 1)).map((r) => r.body)).toEqual(['fine 😀']);
  });
});
