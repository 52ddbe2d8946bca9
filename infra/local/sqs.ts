/**
 * SQS locally: fauxqs in-process with every queue of functions/src/declarations/message-queues.ts (each with its DLQ and
 * redrive policy, as the CDK stack declares them), and a poller per queue that has a Lambda
 * consumer, doing what the Lambda event source mapping does: long-poll, invoke with an SQS event,
 * delete what succeeded, leave `batchItemFailures` to come back after the visibility timeout.
 *
 * Like the mapping, receiving and invoking are apart: a few long polls hand each batch to its own
 * invocation, up to a concurrency limit (the mapping's; on a FIFO queue it grows with the message
 * groups in the queue), and poll again at once, so a message never waits for an unrelated batch to
 * finish. Order within a FIFO group still holds: a group with a message in flight is not handed to
 * another receive (fauxqs does this too). Long polls are issued only while a slot is free: fauxqs
 * wakes every waiting poll for each message sent, and only one of them gets it.
 *
 * Stopping aborts the long-polls. A receive cut off client-side can still take messages in fauxqs,
 * leaving them invisible for the visibility timeout (the quirk the session-host avoids by not
 * aborting); here it costs nothing: the pollers stop only with the whole stack, and fauxqs keeps its
 * queues in memory, so they end together. A session-host restart does not touch these pollers.
 */
import { createHash } from 'node:crypto';
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type MessageQueueDeclaration, messageQueues } from '@conversa/functions/declarations/message-queues';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import { abortableSleep, settledOrAborted } from './abort.ts';
import { handlerFile, type LambdaHandler, lambdaContext, loadHandler } from './lambda-runtime.ts';
import { fixSqsBodyCharacters } from './sqs-characters.ts';
import { fixSqsFifoBatches } from './sqs-fifo-batches.ts';

export interface LocalQueue {
  declaration: MessageQueueDeclaration;
  url: string;
  arn: string;
  dlqUrl: string;
}

export interface LocalSqs {
  endpoint: string;
  queues: LocalQueue[];
  /** QUEUE_URL_<NAME> and QUEUE_URL_<NAME>_DLQ for every declared queue. */
  env: Record<string, string>;
  server: FauxqsServer;
  stop(): Promise<void>;
}

export const queueEnvName = (name: string): string => `QUEUE_URL_${name.toUpperCase().replace(/-/g, '_')}`;
const physicalName = (name: string, fifo: boolean) => (fifo ? `${name}.fifo` : name);

/** `declarations` defaults to functions/src/declarations/message-queues.ts; tests pass their own. */
export async function startSqs(opts: {
  port: number;
  region: string;
  declarations?: readonly MessageQueueDeclaration[];
}): Promise<LocalSqs> {
  // fauxqs refuses emoji and every other character above U+FFFF that SQS accepts (sqs-characters.ts),
  // and hands out one message of a FIFO group per receive where SQS hands out ten (sqs-fifo-batches.ts).
  await Promise.all([fixSqsBodyCharacters(), fixSqsFifoBatches()]);
  const server = await startFauxqs({ port: opts.port, host: '127.0.0.1', logger: false, defaultRegion: opts.region });
  const created: LocalQueue[] = [];
  for (const declaration of opts.declarations ?? messageQueues) {
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
    // The DLQs' too: a consumer may set aside what it gives up on (the CDK stack's Messaging.bindDeadLetter).
    env: Object.fromEntries(
      created.flatMap((q) => [
        [queueEnvName(q.declaration.name), q.url],
        [queueEnvName(`${q.declaration.name}-dlq`), q.dlqUrl],
      ]),
    ),
    server,
    stop: () => server.stop(),
  };
}

export interface QueuePollers {
  /** Consumers that have a handler file and are being polled. */
  polling: string[];
  stop(): Promise<void>;
}

/** Concurrent invocations per consumer (the mapping's concurrency; on a FIFO queue it scales with the message groups). */
const DEFAULT_CONCURRENCY = 10;
/**
 * Long polls in flight per queue while an invocation slot is free (the mapping's pollers). One is
 * enough here: it polls again as soon as it has handed a batch over, and a second one only doubles
 * the requests (fauxqs answers every waiting poll for each message sent, all but one empty).
 */
const RECEIVERS = 1;

export function startQueuePollers(opts: {
  sqs: LocalSqs;
  region: string;
  log: (line: string) => void;
  /** Handlers by consumer name instead of functions/src/handlers/consumers/<consumer>.ts (tests). */
  consumers?: Record<string, LambdaHandler>;
  /** Concurrent invocations per consumer. */
  concurrency?: number;
}): QueuePollers {
  const client = new SQSClient({
    endpoint: opts.sqs.endpoint,
    region: opts.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const abort = new AbortController();
  const mappings: Promise<void>[] = [];
  const polling: string[] = [];
  for (const queue of opts.sqs.queues) {
    const consumer = queue.declaration.consumer;
    if (!consumer) continue;
    const given = opts.consumers?.[consumer];
    polling.push(consumer);
    const load = given ? () => Promise.resolve(given) : () => loadHandler(handlerFile('consumers', consumer));
    mappings.push(
      eventSourceMapping({
        client,
        queue,
        load,
        consumer,
        region: opts.region,
        signal: abort.signal,
        log: opts.log,
        concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
      }),
    );
  }
  return {
    polling,
    async stop() {
      abort.abort();
      await Promise.allSettled(mappings);
      client.destroy();
    },
  };
}

interface MappingOptions {
  client: SQSClient;
  queue: LocalQueue;
  load: () => Promise<LambdaHandler>;
  consumer: string;
  region: string;
  signal: AbortSignal;
  log: (line: string) => void;
  concurrency: number;
}

/**
 * One queue's mapping: receivers long-poll only while an invocation slot is free, and each batch
 * received is invoked at once in its own slot, so one slow batch holds back only its own messages
 * (on a FIFO queue, its own message groups). Stops when aborted, after the invocations in flight.
 */
async function eventSourceMapping(opts: MappingOptions): Promise<void> {
  const running = new Set<Promise<void>>();
  let freed: () => void = () => undefined;
  const slotFreed = () => new Promise<void>((resolve) => (freed = resolve));
  let nextSlot = slotFreed();
  let receiving = 0;
  const receiver = async () => {
    while (!opts.signal.aborted) {
      // A poll in flight may bring a batch too: count it against the slots.
      if (running.size + receiving >= opts.concurrency) {
        await settledOrAborted(nextSlot, opts.signal);
        continue;
      }
      receiving++;
      const messages = await receive(opts, Math.min(opts.queue.declaration.batchSize ?? 10, 10)).finally(() => receiving--);
      if (!messages?.length) continue;
      const invocation: Promise<void> = invokeAndDelete(opts, messages).finally(() => {
        running.delete(invocation);
        const wake = freed;
        nextSlot = slotFreed();
        wake();
      });
      running.add(invocation);
    }
  };
  await Promise.allSettled(Array.from({ length: RECEIVERS }, receiver));
  await Promise.allSettled([...running]);
}

/** Undefined when aborted or after a failed receive (logged, then a pause). */
async function receive(opts: MappingOptions, max: number): Promise<Message[] | undefined> {
  try {
    const out = await opts.client.send(
      new ReceiveMessageCommand({
        QueueUrl: opts.queue.url,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: 5,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: opts.signal },
    );
    return out.Messages ?? [];
  } catch (error) {
    if (opts.signal.aborted) return undefined;
    opts.log(`[sqs] receive from ${opts.queue.declaration.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    await abortableSleep(1000, opts.signal);
    return undefined;
  }
}

async function invokeAndDelete(opts: MappingOptions, messages: Message[]): Promise<void> {
  const failed = await invokeConsumer(opts, messages);
  const done = messages.filter((m) => m.MessageId && !failed.has(m.MessageId));
  if (!done.length) return;
  await opts.client
    .send(
      new DeleteMessageBatchCommand({
        QueueUrl: opts.queue.url,
        Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
      }),
    )
    .then(
      () => undefined,
      (error: unknown) => opts.log(`[sqs] delete from ${opts.queue.declaration.name} failed: ${String(error)}`),
    );
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
