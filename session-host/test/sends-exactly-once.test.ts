/**
 * Exactly-once sends against the simulator (which, like WhatsApp, treats one WhatsApp id as one
 * message): a crash between the provider's send and the `sent` record, and a redelivered command
 * after the record, each leave the contact with one message and the pipeline with a `sent` report.
 * A retry of a failed send (its next `attempt`) is sent although the first attempt's record says
 * failed, and reported as that attempt.
 */
import type { SessionCommand } from '@conversa/functions/contracts/session-events';
import { waMessageIdFor } from '@conversa/functions/contracts/wa-message-id';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../infra/local/whatsapp-simulator/network.ts';
import { type Simulator, startSimulator } from '../../infra/local/whatsapp-simulator/server.ts';
import { type Host, startHost } from '../src/host.ts';
import { createSimulatorProvider } from '../src/providers/simulator.ts';
import { recordFailed } from '../src/storage/send-records.ts';
import {
  type Backends,
  drainInbound,
  eventually,
  memoryStatus,
  quietLog,
  sendCommand,
  startBackends,
  testConfig,
} from './support/backends.ts';
import { memoryMedia } from './support/memory-media.ts';

const CONTACT = '5511977776666';

const send = (messageId: string, commandId: string, extra: Partial<Extract<SessionCommand, { kind: 'send' }>> = {}): SessionCommand => ({
  kind: 'send',
  companyId: 41,
  connectionId: 1,
  commandId,
  messageId,
  ticketId: 7,
  number: CONTACT,
  isGroup: false,
  body: `body of ${messageId}`,
  ...extra,
});

describe('exactly-once sends', () => {
  let backends: Backends;
  let simulator: Simulator;
  let host: Host;
  const media = memoryMedia();
  let crashNext = new Set<string>();

  const chat = async (): Promise<ChatEntry[]> =>
    ((await (await fetch(`${simulator.url}/api/connections/41.1/contacts/${CONTACT}/messages`)).json()) as { messages: ChatEntry[] })
      .messages;

  beforeAll(async () => {
    backends = await startBackends();
    simulator = await startSimulator({ scanMs: 50 });
    host = startHost({
      config: testConfig(backends, 'host-send'),
      provider: createSimulatorProvider({ url: simulator.url, media }),
      sqs: backends.client,
      log: quietLog,
      status: memoryStatus(),
      sendHooks: {
        afterProviderSend(command) {
          if (crashNext.delete(command.messageId)) throw new Error('simulated crash between send and record');
        },
      },
    });
    await sendCommand(backends, { kind: 'start', companyId: 41, connectionId: 1, commandId: 'start' });
    await eventually(() => host.manager.statusOf({ companyId: 41, connectionId: 1 }) === 'CONNECTED', 'CONNECTED');
  }, 60_000);

  afterAll(async () => {
    await host?.shutdown();
    await simulator?.close();
    await backends?.stop();
  });

  it('a crash between the provider send and the record resends the same WhatsApp id: one message, one sent report', async () => {
    // Prepare
    crashNext = new Set(['msg-crash']);
    // Act
    await sendCommand(backends, send('msg-crash', 'cmd-crash'));
    const events = await drainInbound(backends, (all) => all.some((e) => e.event.kind === 'sent'), 15_000);
    // Assess
    expect(crashNext.size).toBe(0); // the crash did happen
    const received = (await chat()).filter((m) => m.body === 'body of msg-crash');
    expect(received).toHaveLength(1);
    expect(received[0]?.waMessageId).toBe(waMessageIdFor(41, 1, 'msg-crash'));
    expect(events.map((e) => e.event)).toEqual([
      expect.objectContaining({ kind: 'sent', messageId: 'msg-crash', waMessageId: waMessageIdFor(41, 1, 'msg-crash'), ticketId: 7 }),
    ]);
    expect(events[0]?.dedupeId).toBe('41:1:s:msg-crash');
  });

  it('a command redelivered after the send was recorded re-reports sent without sending', async () => {
    // Prepare
    await sendCommand(backends, send('msg-twice', 'cmd-twice-1'));
    const first = await drainInbound(backends, (all) => all.some((e) => e.event.kind === 'sent'), 15_000);
    const reports: unknown[] = [];
    backends.client.middlewareStack.add(
      (next) => async (args) => {
        // The inbound publisher sends SendMessageBatch requests: each entry is one report.
        const input = args.input as { QueueUrl?: string; Entries?: { MessageBody?: string }[] };
        if (input.QueueUrl === backends.inboundUrl)
          for (const entry of input.Entries ?? []) if (entry.MessageBody) reports.push(JSON.parse(entry.MessageBody));
        return next(args);
      },
      { step: 'initialize', name: 'inboundSpy' },
    );
    // Act: the same send again (a producer retry, or SQS delivering it twice), under a new command id
    await sendCommand(backends, send('msg-twice', 'cmd-twice-2'));
    await eventually(() => reports.length > 0, 'the outcome re-reported');
    backends.client.middlewareStack.remove('inboundSpy');
    // Assess: reported again (SQS then drops it as a duplicate within its 5-minute window; the
    // pipeline dedupes later ones), and the contact still has one message.
    expect(reports).toEqual([first[0]?.event]);
    expect((await chat()).filter((m) => m.body === 'body of msg-twice')).toHaveLength(1);
  });

  it('media is read from the bucket and delivered; a refused number is reported as sendFailed, not retried', async () => {
    // Prepare
    media.objects.set('41/outbound/photo.png', Buffer.from('png-bytes'));
    // Act
    await sendCommand(
      backends,
      send('msg-media', 'cmd-media', { media: { key: '41/outbound/photo.png', mimetype: 'image/png', filename: 'photo.png' } }),
    );
    await sendCommand(backends, send('msg-bad', 'cmd-bad', { number: 'not-a-number' }));
    const events = await drainInbound(backends, (all) => all.length >= 2, 15_000);
    // Assess
    const delivered = (await chat()).find((m) => m.waMessageId === waMessageIdFor(41, 1, 'msg-media'));
    expect(delivered?.media).toMatchObject({
      mimetype: 'image/png',
      filename: 'photo.png',
      base64: Buffer.from('png-bytes').toString('base64'),
    });
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'sent', messageId: 'msg-media' }),
        expect.objectContaining({ kind: 'sendFailed', messageId: 'msg-bad', error: 'ERR_WAPP_INVALID_CONTACT' }),
      ]),
    );
  });

  it('a retry of a failed send (attempt 1) is sent once and reported as attempt 1; the first attempt stays failed', async () => {
    // Prepare: the first attempt failed on this host (ERR_WAPP_NOT_INITIALIZED, say).
    await recordFailed(41, 'msg-retry', { connectionId: 1, error: 'ERR_WAPP_NOT_INITIALIZED', now: Date.now() });
    // Act: the attendant's retry, delivered twice; and the first attempt's command redelivered.
    await sendCommand(backends, send('msg-retry', 'msg-retry#1', { attempt: 1 }));
    await sendCommand(backends, send('msg-retry', 'msg-retry#1-again', { attempt: 1 }));
    await sendCommand(backends, send('msg-retry', 'msg-retry'));
    const events = await drainInbound(backends, (all) => all.filter((e) => e.event.kind !== 'ack').length >= 2, 15_000);
    // Assess: one message on the phone, with the id derived from the message id.
    await eventually(async () => (await chat()).some((m) => m.body === 'body of msg-retry'), 'the retry on the phone');
    const delivered = (await chat()).filter((m) => m.body === 'body of msg-retry');
    expect(delivered.map((m) => m.waMessageId)).toEqual([waMessageIdFor(41, 1, 'msg-retry')]);
    const reports = events.filter((e) => e.event.kind === 'sent' || e.event.kind === 'sendFailed');
    expect(reports.map((e) => [e.event.kind, 'attempt' in e.event ? e.event.attempt : undefined, e.dedupeId])).toEqual(
      expect.arrayContaining([
        ['sent', 1, '41:1:s:msg-retry#1'],
        ['sendFailed', undefined, '41:1:s:msg-retry'],
      ]),
    );
  });
});
