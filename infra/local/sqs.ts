/**
 * SQS locally: fauxqs in-process with every queue of functions/src/queues.ts (each with its DLQ and
 * redrive policy, as the CDK stack declares them), and a poller per queue that has a Lambda
 * consumer, doing what the Lambda event source mapping does: long-poll, invoke with an SQS event,
 * delete what succeeded, leave `batchItemFailures` to come back after the visibility timeout.
 *
 * Like the mapping (which starts with five concurrent batches and, on a FIFO queue, runs as many
 * message groups at once as it has pollers), each queue has several poll loops: one loop would make
 * every message wait for the whole previous batch, whoever it came from. Order within a FIFO group
 * still holds: a group with a message in flight is not handed to another receive (fauxqs does this too).
 *
 * Stopping aborts the long-polls. A receive cut off client-side can still take messages in fauxqs,
 * leaving them invisible for the visibility timeout (the quirk the session-host avoids by not
 * aborting); here it costs nothing: the pollers stop only with the whole stack, and fauxqs keeps its
 * queues in memory, so they end together. A session-host restart does not touch these pollers.
 */
import { createHash } from 'node:crypto';
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type QueueDeclaration, queues } from '@conversa/functions/queues';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import { handlerFile, type LambdaHandler, lambdaContext, loadHandler } from './lambda-runtime.ts';

export interface LocalQueue {
  declaration: QueueDeclaration;
  url: string;
  arn: string;
  dlqUrl: string;
}

export interface LocalSqs {
  endpoint: string;
  queues: LocalQueue[];
  /** QUEUE_URL_<NAME> for every declared queue. */
  env: Record<string, string>;
  server: FauxqsServer;
  stop(): Promise<void>;
}

export const queueEnvName = (name: string): string => `QUEUE_URL_${name.toUpperCase().replace(/-/g, '_')}`;
const physicalName = (name: string, fifo: boolean) => (fifo ? `${name}.fifo` : name);

/** `declarations` defaults to functions/src/queues.ts; tests pass their own. */
export async function startSqs(opts: { port: number; region: string; declarations?: readonly QueueDeclaration[] }): Promise<LocalSqs> {
  const server = await startFauxqs({ port: opts.port, host: '127.0.0.1', logger: false, defaultRegion: opts.region });
  const created: LocalQueue[] = [];
  for (const declaration of opts.declarations ?? queues) {
    const fifoAttributes: Record<string, string> = declaration.fifo ? { FifoQueue: 'true' } : {};
    const dlq = server.createQueue(physicalName(`${declaration.name}-dlq`, declaration.fifo), {
      attributes: { ...fifoAttributes, MessageRetentionPeriod: '1209600' },
    });
    const queue = server.createQueue(physicalName(declaration.name, declaration.fifo), {
      attributes: {
        ...fifoAttributes,
        VisibilityTimeout: String(declaration.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: declaration.maxReceiveCount }),
      },
    });
    created.push({ declaration, url: queue.queueUrl, arn: queue.queueArn, dlqUrl: dlq.queueUrl });
  }
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    queues: created,
    env: Object.fromEntries(created.map((q) => [queueEnvName(q.declaration.name), q.url])),
    server,
    stop: () => server.stop(),
  };
}

export interface QueuePollers {
  /** Consumers that have a handler file and are being polled. */
  polling: string[];
  stop(): Promise<void>;
}

const DEFAULT_POLLERS = 5;

export function startQueuePollers(opts: {
  sqs: LocalSqs;
  region: string;
  log: (line: string) => void;
  /** Handlers by consumer name instead of functions/src/handlers/queues/<consumer>.ts (tests). */
  consumers?: Record<string, LambdaHandler>;
  /** Concurrent poll loops per queue (the event source mapping's initial concurrency). */
  concurrency?: number;
}): QueuePollers {
  const client = new SQSClient({
    endpoint: opts.sqs.endpoint,
    region: opts.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const abort = new AbortController();
  const loops: Promise<void>[] = [];
  const polling: string[] = [];
  for (const queue of opts.sqs.queues) {
    const consumer = queue.declaration.consumer;
    if (!consumer) continue;
    const given = opts.consumers?.[consumer];
    const file = handlerFile('queues', consumer);
    if (!given && !file) {
      opts.log(
        `[sqs] queue ${queue.declaration.name}: consumer functions/src/handlers/queues/${consumer}.ts does not exist yet, not polling`,
      );
      continue;
    }
    polling.push(consumer);
    const load = given ? () => Promise.resolve(given) : () => loadHandler(file as string);
    for (let i = 0; i < (opts.concurrency ?? DEFAULT_POLLERS); i++) {
      loops.push(pollLoop({ client, queue, load, consumer, region: opts.region, signal: abort.signal, log: opts.log }));
    }
  }
  return {
    polling,
    async stop() {
      abort.abort();
      await Promise.allSettled(loops);
      client.destroy();
    },
  };
}

async function pollLoop(opts: {
  client: SQSClient;
  queue: LocalQueue;
  load: () => Promise<LambdaHandler>;
  consumer: string;
  region: string;
  signal: AbortSignal;
  log: (line: string) => void;
}): Promise<void> {
  const { client, queue, signal } = opts;
  while (!signal.aborted) {
    let messages: Message[];
    try {
      const out = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: queue.url,
          MaxNumberOfMessages: Math.min(queue.declaration.batchSize ?? 10, 10),
          WaitTimeSeconds: 5,
          MessageSystemAttributeNames: ['All'],
          MessageAttributeNames: ['All'],
        }),
        { abortSignal: signal },
      );
      messages = out.Messages ?? [];
    } catch (error) {
      if (signal.aborted) return;
      opts.log(`[sqs] receive from ${queue.declaration.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      await sleep(1000, signal);
      continue;
    }
    if (!messages.length) continue;
    const failed = await invokeConsumer(opts, messages);
    const done = messages.filter((m) => m.MessageId && !failed.has(m.MessageId));
    if (done.length) {
      await client
        .send(
          new DeleteMessageBatchCommand({
            QueueUrl: queue.url,
            Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          }),
        )
        .catch((error: unknown) => opts.log(`[sqs] delete from ${queue.declaration.name} failed: ${String(error)}`));
    }
  }
}

/** Returns the ids of the messages that failed (all of them when the handler throws). */
async function invokeConsumer(
  opts: { queue: LocalQueue; load: () => Promise<LambdaHandler>; consumer: string; region: string; log: (line: string) => void },
  messages: Message[],
): Promise<Set<string>> {
  const all = new Set(messages.map((m) => m.MessageId ?? ''));
  try {
    const handler = await opts.load();
    const result = (await handler(sqsEvent(opts.queue, opts.region, messages), lambdaContext(`conversa-${opts.consumer}`))) as
      | { batchItemFailures?: { itemIdentifier: string }[] }
      | undefined;
    const failures = result?.batchItemFailures ?? [];
    if (failures.length)
      opts.log(`[sqs] ${opts.consumer}: ${failures.length} of ${messages.length} message(s) failed, retried after the visibility timeout`);
    return new Set(failures.map((f) => f.itemIdentifier));
  } catch (error) {
    opts.log(
      `[sqs] ${opts.consumer} threw; the whole batch returns to the queue: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return all;
  }
}

export function sqsEvent(queue: LocalQueue, region: string, messages: Message[]) {
  return {
    Records: messages.map((m) => ({
      messageId: m.MessageId ?? '',
      receiptHandle: m.ReceiptHandle ?? '',
      body: m.Body ?? '',
      attributes: m.Attributes ?? {},
      messageAttributes: Object.fromEntries(
        Object.entries(m.MessageAttributes ?? {}).map(([name, value]) => [
          name,
          {
            dataType: value.DataType ?? 'String',
            stringValue: value.StringValue,
            binaryValue: value.BinaryValue ? Buffer.from(value.BinaryValue).toString('base64') : undefined,
            stringListValues: [],
            binaryListValues: [],
          },
        ]),
      ),
      md5OfBody:
        m.MD5OfBody ??
        createHash('md5')
          .update(m.Body ?? '')
          .digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: region,
    })),
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
