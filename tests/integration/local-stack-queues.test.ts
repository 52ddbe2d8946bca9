/**
 * The local queue consumer wiring does what the Lambda SQS event source mapping does: consumers get
 * SQS events, successes are deleted, `batchItemFailures` come back after the visibility timeout and
 * move to the DLQ after maxReceiveCount, a throwing consumer leaves the whole batch. Runs its own
 * fauxqs on a free port with a test queue, so it does not depend on which consumers exist yet.
 */
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
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
