/**
 * Commands over the real session-commands FIFO queue (fauxqs) with two hosts polling it: whatever
 * host receives a command, only the owner executes it; an ownerless send waits and, past the
 * deadline, is reported as sendFailed instead of being lost or dead-lettered.
 */
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SessionCommand } from '@conversa/functions/contracts/session-events';
import { waMessageIdFor } from '@conversa/functions/contracts/wa-message-id';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Host, startHost } from '../src/host.ts';
import { getLease } from '../src/storage/leases.ts';
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
import { type FakeCall, fakeProvider } from './support/fake-provider.ts';

const sendOf = (connectionId: number, messageId: string): SessionCommand => ({
  kind: 'send',
  companyId: 31,
  connectionId,
  commandId: `cmd-${messageId}`,
  messageId,
  ticketId: 1,
  number: '5511988887777',
  isGroup: false,
  body: `hello ${messageId}`,
});

describe('session commands', () => {
  let backends: Backends;
  let hosts: Host[] = [];
  const calls: FakeCall[] = [];

  function host(hostId: string, timings: Parameters<typeof testConfig>[2] = {}): Host {
    const started = startHost({
      config: testConfig(backends, hostId, timings),
      provider: fakeProvider(hostId, calls),
      sqs: backends.client,
      log: process.env.DEBUG_HOST ? { info: console.log, warn: console.log, error: console.log } : quietLog,
      status: memoryStatus(),
    });
    hosts.push(started);
    return started;
  }

  beforeAll(async () => {
    backends = await startBackends();
  }, 60_000);

  afterEach(async () => {
    await Promise.all(hosts.map((h) => h.shutdown()));
    hosts = [];
  });

  afterAll(async () => {
    await backends?.stop();
  });

  it('sends reach the owner whichever host receives them, each sent once and reported', async () => {
    // Prepare: host-a owns connection 1; host-b polls the same queue.
    const a = host('host-a');
    host('host-b');
    await sendCommand(backends, { kind: 'start', companyId: 31, connectionId: 1, commandId: 'start-1' });
    await eventually(async () => (await getLease({ companyId: 31, connectionId: 1 }))?.owner, 'an owner for connection 1');
    const owner = (await getLease({ companyId: 31, connectionId: 1 }))?.owner;
    // Act
    const ids = Array.from({ length: 12 }, (_, i) => `m1-${i}`);
    for (const id of ids) await sendCommand(backends, sendOf(1, id));
    const events = await drainInbound(
      backends,
      (all) => new Set(all.map((e) => e.event.kind === 'sent' && e.event.messageId)).size >= ids.length,
    );
    // Assess
    const sends = calls.filter((c) => c.op === 'send' && c.connectionId === 1);
    expect(sends.map((c) => c.messageId).sort()).toEqual([...ids].sort());
    expect(new Set(sends.map((c) => c.host))).toEqual(new Set([owner]));
    expect(a.manager.owns({ companyId: 31, connectionId: 1 })).toBe(owner === 'host-a');
    for (const id of ids) {
      const sent = events.find((e) => e.event.kind === 'sent' && e.event.messageId === id);
      expect(sent?.event).toMatchObject({ kind: 'sent', waMessageId: waMessageIdFor(31, 1, id), connectionId: 1, companyId: 31 });
      expect(sent?.groupId).toBe('31:1:5511988887777');
    }
  });

  it('a send for a session nobody runs waits, then is reported as sendFailed ERR_WAPP_NOT_INITIALIZED, never dead-lettered', async () => {
    // Prepare: no start for connection 2, a short deadline; waiting costs receives (re-enqueued before the DLQ).
    host('host-c', { sendDeadlineMs: 5000, ownerlessDelaySeconds: 1 });
    // Act
    await sendCommand(backends, sendOf(2, 'm2-0'));
    const events = await drainInbound(backends, (all) => all.some((e) => e.event.kind === 'sendFailed'), 20_000);
    const dlq = await backends.client.send(new ReceiveMessageCommand({ QueueUrl: backends.commandsDlqUrl, WaitTimeSeconds: 0 }));
    // Assess
    expect(events.map((e) => e.event)).toEqual([
      expect.objectContaining({ kind: 'sendFailed', messageId: 'm2-0', error: 'ERR_WAPP_NOT_INITIALIZED', connectionId: 2 }),
    ]);
    expect(dlq.Messages ?? []).toHaveLength(0);
    expect(calls.some((c) => c.op === 'send' && c.connectionId === 2)).toBe(false);
  }, 30_000);

  it('a wanted session whose host died is taken over by the host that receives its command', async () => {
    // Prepare: host-d runs connection 3, then "dies" (no heartbeat, no release, no polling).
    const d = host('host-d');
    await sendCommand(backends, { kind: 'start', companyId: 31, connectionId: 3, commandId: 'start-3' });
    await eventually(() => d.manager.owns({ companyId: 31, connectionId: 3 }), 'host-d owning connection 3');
    await d.crash();
    // Act
    const e = host('host-e');
    await sendCommand(backends, sendOf(3, 'm3-0'));
    await drainInbound(backends, (all) => all.some((x) => x.event.kind === 'sent'), 15_000);
    // Assess
    expect(calls.filter((c) => c.op === 'send' && c.connectionId === 3).map((c) => c.host)).toEqual(['host-e']);
    expect(e.manager.owns({ companyId: 31, connectionId: 3 })).toBe(true);
  });
});
