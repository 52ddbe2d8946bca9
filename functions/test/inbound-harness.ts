/** Shared set-up of the inbound pipeline tests: a tenant with a connection, queues and options. */
import { type InboundEvent, inboundGroupId, type SessionCommand, type WaMessage } from '../src/contracts/session-events.ts';
import type { Effects } from '../src/domain/messages/effects.ts';
import { consume } from '../src/handlers/consumers/inbound.ts';
import { type ConnectionRecord, createConnection, newConnectionId } from '../src/storage/connections.ts';
import { createOption, newOptionId } from '../src/storage/queues/options.ts';
import { createQueue, newQueueId, type QueueRecord } from '../src/storage/queues/queues.ts';
import { ensureCompany } from './support/tenants.ts';

export interface Recorder extends Effects {
  commands: SessionCommand[];
  // biome-ignore lint/suspicious/noExplicitAny: tests read event payloads by shape
  events: { event: string; data: any }[];
  clock: { now: Date };
  /** Bodies of the `send` commands, in order. */
  sent(): string[];
}

export function recorder(start = new Date()): Recorder {
  const commands: SessionCommand[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: tests read event payloads by shape
  const events: { event: string; data: any }[] = [];
  const clock = { now: start };
  return {
    commands,
    events,
    clock,
    sendCommand: async (command) => void commands.push(command),
    publish: async (_companyId, event, data) => void events.push({ event, data }),
    now: () => clock.now,
    sent: () => commands.flatMap((c) => (c.kind === 'send' ? [c.body] : [])),
  };
}

let nextCompany = 100;
export async function tenant(
  connection: Partial<ConnectionRecord> = {},
  queues: Partial<QueueRecord>[] = [],
): Promise<{ companyId: number; connectionId: number; queues: QueueRecord[] }> {
  const companyId = nextCompany++;
  await ensureCompany({ id: companyId });
  const now = new Date().toISOString();
  const created: QueueRecord[] = [];
  for (const [i, queue] of queues.entries()) {
    const id = await newQueueId(companyId);
    created.push(
      await createQueue({
        id,
        companyId,
        name: `Queue ${i + 1}`,
        color: `#00000${i}`,
        greetingMessage: '',
        complationMessage: '',
        outOfHoursMessage: '',
        ratingMessage: '',
        orderQueue: i,
        integrationId: null,
        promptId: null,
        schedules: [],
        createdAt: now,
        updatedAt: now,
        ...queue,
      }),
    );
  }
  const connectionId = await newConnectionId(companyId);
  await createConnection({
    id: connectionId,
    companyId,
    name: 'Main',
    isDefault: true,
    greetingMessage: 'Hello!',
    complationMessage: 'Bye!',
    outOfHoursMessage: '',
    ratingMessage: 'Rate us 1-3',
    token: '',
    provider: 'beta',
    promptId: null,
    integrationId: null,
    transferQueueId: null,
    timeToTransfer: null,
    expiresTicket: 0,
    expiresInactiveMessage: '',
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    status: 'CONNECTED',
    qrcode: '',
    retries: 0,
    number: '5511000000000',
    queueIds: created.map((q) => q.id),
    createdAt: now,
    updatedAt: now,
    ...connection,
  });
  return { companyId, connectionId, queues: created };
}

export async function option(companyId: number, queueId: number, parentId: number | null, option: string, title: string, message = '') {
  const now = new Date().toISOString();
  return createOption({
    id: await newOptionId(companyId),
    companyId,
    queueId,
    parentId,
    option,
    title,
    message,
    createdAt: now,
    updatedAt: now,
  });
}

let waSeq = 0;
export function waMessage(overrides: Partial<WaMessage> = {}): WaMessage {
  return {
    id: `WA${Date.now()}${waSeq++}`,
    fromMe: false,
    number: '5511988887777',
    isGroup: false,
    pushName: 'Maria',
    timestamp: Date.parse('2030-01-07T13:00:00Z') + waSeq,
    body: 'hi',
    ...overrides,
  };
}

let sqsSeq = 0;
/** Runs events through the SQS handler (one batch), as the queue would deliver them. */
export async function deliver(effects: Effects, ...events: InboundEvent[]) {
  return consume(
    {
      Records: events.map((event) => ({
        messageId: `m-${sqsSeq++}`,
        receiptHandle: '',
        body: JSON.stringify(event),
        attributes: { MessageGroupId: inboundGroupId(event) } as never,
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:inbound.fifo',
        awsRegion: 'us-east-1',
      })),
    },
    effects,
  );
}
