/**
 * Real stand-ins for session-host tests: DynamoDB Local (in memory, the real table) and fauxqs with
 * the declared queues (FIFO, DLQs, redrive), plus helpers to build hosts on a compressed clock.
 */
import { DeleteMessageCommand, type Message, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { InboundEvent, SessionCommand } from '@conversa/functions/contracts/session-events';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../functions/test/support/dynamodb-local.ts';
import { freePort } from '../../../functions/test/support/processes.ts';
import { type LocalSqs, startSqs } from '../../../infra/local/sqs.ts';
import type { HostConfig, HostTimings } from '../../src/config.ts';
import { defaultPlacement, defaultTimings } from '../../src/config.ts';
import type { Logger } from '../../src/session-manager.ts';
import type { StatusReporter, StatusUpdate } from '../../src/status-reporter.ts';

export interface Backends {
  ddb: DynamoDbLocal;
  sqs: LocalSqs;
  client: SQSClient;
  inboundUrl: string;
  commandsUrl: string;
  commandsDlqUrl: string;
  /** Everything main.ts needs, for a child process. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startBackends(): Promise<Backends> {
  const ddb = await startDynamoDbLocal();
  const sqs = await startSqs({ port: await freePort(), region: 'us-east-1' });
  const env: Record<string, string> = {
    TABLE_NAME: ddb.tableName,
    DYNAMODB_ENDPOINT: ddb.endpoint,
    SQS_ENDPOINT: sqs.endpoint,
    ...sqs.env,
    MEDIA_BUCKET: 'conversa-media-test',
    // Nobody is connected in these tests, so the publisher finds no socket to post to.
    WS_MANAGEMENT_URL: 'http://127.0.0.1:9/@connections',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  Object.assign(process.env, env);
  const client = new SQSClient({
    endpoint: sqs.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queue = (name: string) => {
    const found = sqs.queues.find((q) => q.declaration.name === name);
    if (!found) throw new Error(`queue ${name} not declared`);
    return found;
  };
  return {
    ddb,
    sqs,
    client,
    inboundUrl: queue('inbound').url,
    commandsUrl: queue('session-commands').url,
    commandsDlqUrl: queue('session-commands').dlqUrl,
    env,
    async stop() {
      client.destroy();
      await sqs.stop();
      await ddb.stop();
    },
  };
}

export const fastTimings: HostTimings = {
  ...defaultTimings,
  heartbeatMs: 200,
  leaseMs: 1000,
  scanMs: 250,
  receiveWaitSeconds: 1,
  forwardDelaySeconds: 0,
  ownerlessDelaySeconds: 1,
  errorRetrySeconds: 1,
  readyWaitMs: 3000,
  sendDeadlineMs: 60_000,
  shutdownMs: 10_000,
  placementGraceMs: 500,
  hostStaleMs: 1000,
};

export function testConfig(backends: Backends, hostId: string, timings: Partial<HostTimings> = {}): HostConfig {
  return {
    hostId,
    provider: 'simulator',
    inboundQueueUrl: backends.inboundUrl,
    commandsQueueUrl: backends.commandsUrl,
    commandsMaxReceiveCount: 5,
    timings: { ...fastTimings, ...timings },
    placement: defaultPlacement,
  };
}

export const quietLog: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Status updates kept in memory (the connection record is not what these tests are about). */
export function memoryStatus(): StatusReporter & { updates: { key: string; update: StatusUpdate }[] } {
  const updates: { key: string; update: StatusUpdate }[] = [];
  return {
    updates,
    async report(key, update) {
      updates.push({ key: `${key.companyId}:${key.connectionId}`, update });
      return 'ok';
    },
  };
}

let commandSeq = 0;
export async function sendCommand(backends: Backends, command: SessionCommand): Promise<void> {
  await backends.client.send(
    new SendMessageCommand({
      QueueUrl: backends.commandsUrl,
      MessageBody: JSON.stringify(command),
      MessageGroupId: String(command.connectionId),
      MessageDeduplicationId: `${command.commandId}-${++commandSeq}`,
    }),
  );
}

export interface ReceivedInbound {
  event: InboundEvent;
  groupId?: string;
  dedupeId?: string;
}

/** Reads (and deletes) inbound events until `until` holds for what was read, or the timeout. */
export async function drainInbound(
  backends: Backends,
  until: (all: ReceivedInbound[]) => boolean,
  timeoutMs = 15_000,
  into: ReceivedInbound[] = [],
): Promise<ReceivedInbound[]> {
  const deadline = Date.now() + timeoutMs;
  while (!until(into) && Date.now() < deadline) {
    const out = await backends.client.send(
      new ReceiveMessageCommand({
        QueueUrl: backends.inboundUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['MessageGroupId', 'MessageDeduplicationId'],
      }),
    );
    for (const message of out.Messages ?? []) {
      into.push(toReceived(message));
      await backends.client.send(new DeleteMessageCommand({ QueueUrl: backends.inboundUrl, ReceiptHandle: message.ReceiptHandle }));
    }
  }
  return into;
}

function toReceived(message: Message): ReceivedInbound {
  return {
    event: JSON.parse(message.Body ?? '{}') as InboundEvent,
    groupId: message.Attributes?.MessageGroupId,
    dedupeId: message.Attributes?.MessageDeduplicationId,
  };
}

export async function eventually<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
