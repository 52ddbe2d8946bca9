/**
 * Shared by the webhook tests that need the queues: DynamoDB Local, cognito-local and fauxqs with
 * the three webhook queues, a receiver on 127.0.0.1 that records what it is posted, and the
 * consumers driven by hand (drain the FIFO queue, hand its messages to the consumer).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import { expect } from 'vitest';
import { postWebhook } from '#adapters/webhook-post';
import { queueGivenUp, queueRetry } from '#adapters/webhook-queue';
import { fixSqsBodyCharacters } from '../../infra/local/sqs-characters.ts';
import { type ConsumerDeps, consume } from '../src/handlers/consumers/webhook-deliveries.ts';
import { call, type Stack, startStack } from './users-harness.ts';

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

/** How long the receiver takes to answer a path that starts with /slow (a slow endpoint). */
export const SLOW_RECEIVER_MS = 1500;

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookEnv {
  stack: Stack;
  sqs: SQSClient;
  urls: { deliveries: string; retries: string; dlq: string };
  /** The receiver's URL (loopback: the tests set ALLOW_PRIVATE_BOT_URLS); `/slow-hook` answers after SLOW_RECEIVER_MS. */
  receiverUrl: string;
  received: Received[];
  /** Status codes the receiver answers with, in turn; 200 once they run out. */
  answers: number[];
  stop(): Promise<void>;
}

export async function startWebhookEnv(): Promise<WebhookEnv> {
  await fixSqsBodyCharacters();
  const [stack, fauxqs]: [Stack, FauxqsServer] = await Promise.all([
    startStack(),
    startFauxqs({ port: 0, host: '127.0.0.1', logger: false, defaultRegion: 'us-east-1' }),
  ]);
  const endpoint = `http://127.0.0.1:${fauxqs.port}`;
  process.env.SQS_ENDPOINT = endpoint;
  const urls = {
    dlq: fauxqs.createQueue('webhook-deliveries-dlq.fifo', { attributes: { FifoQueue: 'true' } }).queueUrl,
    deliveries: fauxqs.createQueue('webhook-deliveries.fifo', { attributes: { FifoQueue: 'true', VisibilityTimeout: '30' } }).queueUrl,
    retries: fauxqs.createQueue('webhook-retries', { attributes: { VisibilityTimeout: '30' } }).queueUrl,
  };
  process.env.QUEUE_URL_WEBHOOK_DELIVERIES = urls.deliveries;
  process.env.QUEUE_URL_WEBHOOK_RETRIES = urls.retries;
  process.env.QUEUE_URL_WEBHOOK_DELIVERIES_DLQ = urls.dlq;
  process.env.ALLOW_PRIVATE_BOT_URLS = '1';
  const sqs = new SQSClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  const received: Received[] = [];
  const answers: number[] = [];
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      setTimeout(
        () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.statusCode = answers.shift() ?? 200;
          res.end('ok');
        },
        req.url?.startsWith('/slow') ? SLOW_RECEIVER_MS : 0,
      ),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    stack,
    sqs,
    urls,
    receiverUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    received,
    answers,
    stop: async () => {
      receiver.close();
      await Promise.all([stack.stop(), fauxqs.stop()]);
    },
  };
}

/** Receives (and deletes) what the queue holds, up to `max` messages, in rounds of ten. */
export async function drain(env: WebhookEnv, url: string, max = 10, waitSeconds = 1): Promise<Message[]> {
  const all: Message[] = [];
  while (all.length < max) {
    const out = await env.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: Math.min(10, max - all.length),
        WaitTimeSeconds: all.length ? 0 : waitSeconds,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const messages = out.Messages ?? [];
    if (!messages.length) break;
    await env.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
      }),
    );
    all.push(...messages);
  }
  return all;
}

export const sqsEvent = (messages: Message[]): SQSEvent =>
  ({
    Records: messages.map((m) => ({
      messageId: m.MessageId,
      receiptHandle: m.ReceiptHandle,
      body: m.Body,
      attributes: { MessageGroupId: m.Attributes?.MessageGroupId },
    })),
  }) as unknown as SQSEvent;

export const consumerDeps = (windowSeconds = 86_400): ConsumerDeps => ({
  // drain() has deleted them already.
  release: async () => {},
  post: postWebhook,
  queueRetry: (item) => queueRetry(item),
  queueGivenUp,
  policy: { baseSeconds: 1, windowSeconds },
  now: () => new Date(),
  random: () => 0,
});

/** Runs the FIFO consumer over what is queued now (up to `max`); returns the attempts it was given. */
export async function deliverQueued(env: WebhookEnv, max = 10, windowSeconds?: number): Promise<number> {
  const messages = await drain(env, env.urls.deliveries, max);
  for (let start = 0; start < messages.length; start += 10) {
    const out = await consume(sqsEvent(messages.slice(start, start + 10)), consumerDeps(windowSeconds));
    expect(out.batchItemFailures).toEqual([]);
  }
  return messages.length;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
export type Body = Record<string, any>;

export const deliveriesOf = async (token: string, id: number, pageNumber = 1): Promise<Body[]> =>
  (await call('GET /webhooks/{id}/deliveries', { token, params: { id }, query: { pageNumber: String(pageNumber) } })).body
    .deliveries as Body[];
