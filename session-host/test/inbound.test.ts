/**
 * Inbound: simulated contacts write (text, image, location) and ack our messages; the events land on
 * the real inbound FIFO queue (fauxqs) valid per the contract, grouped per contact with the
 * contract's dedupe ids, in order; what a contact wrote while no host ran the session arrives when one
 * does (history), and nothing is lost when a host dies mid-stream.
 */
import { inboundDedupeId, inboundEventSchema, inboundGroupId } from '@conversa/functions/contracts/session-events';
import { waMessageIdFor } from '@conversa/functions/contracts/wa-message-id';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../infra/local/whatsapp-simulator/server.ts';
import { type Host, startHost } from '../src/host.ts';
import { createSimulatorProvider } from '../src/providers/simulator.ts';
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

describe('inbound events', () => {
  let backends: Backends;
  let simulator: Simulator;
  const media = memoryMedia();
  const hosts: Host[] = [];

  const startOne = (hostId: string) => {
    const host = startHost({
      config: testConfig(backends, hostId),
      provider: createSimulatorProvider({ url: simulator.url, media }),
      sqs: backends.client,
      log: quietLog,
      status: memoryStatus(),
    });
    hosts.push(host);
    return host;
  };
  const contactSends = (connection: string, number: string, body: unknown) =>
    fetch(`${simulator.url}/api/connections/${connection}/contacts/${number}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, ...((await r.json()) as { waMessageId: string }) }));

  beforeAll(async () => {
    backends = await startBackends();
    simulator = await startSimulator({ scanMs: 50 });
  }, 60_000);

  afterAll(async () => {
    for (const host of hosts) await host.shutdown();
    await simulator?.close();
    await backends?.stop();
  });

  it('text, image, location and acks land on the FIFO queue per contact, in order, with the contract ids', async () => {
    // Prepare
    const host = startOne('host-in-1');
    await sendCommand(backends, { kind: 'start', companyId: 51, connectionId: 1, commandId: 'start-1' });
    await eventually(() => host.manager.statusOf({ companyId: 51, connectionId: 1 }) === 'CONNECTED', 'CONNECTED');
    await sendCommand(backends, {
      kind: 'send',
      companyId: 51,
      connectionId: 1,
      commandId: 'send-1',
      messageId: 'out-1',
      ticketId: 3,
      number: '5511900000001',
      isGroup: false,
      body: 'hi from us',
    });
    await drainInbound(backends, (all) => all.some((e) => e.event.kind === 'sent'));
    // Act
    const texts = [];
    for (let i = 0; i < 5; i++) texts.push(await contactSends('51.1', '5511900000001', { body: `text ${i}` }));
    const image = await contactSends('51.1', '5511900000002', {
      body: 'look',
      media: { mimetype: 'image/jpeg', filename: 'cat.jpg', base64: Buffer.from('jpeg!').toString('base64') },
    });
    const place = await contactSends('51.1', '5511900000002', { location: { latitude: -23.5, longitude: -46.6, description: 'here' } });
    await fetch(`${simulator.url}/api/connections/51.1/contacts/5511900000001/messages/${waMessageIdFor(51, 1, 'out-1')}/ack`, {
      method: 'POST',
      body: JSON.stringify({ ack: 3 }),
    });
    const events = await drainInbound(backends, (all) => all.length >= 8);
    // Assess
    expect(events).toHaveLength(8);
    for (const { event, groupId, dedupeId } of events) {
      expect(inboundEventSchema.safeParse(event).success).toBe(true);
      expect(groupId).toBe(inboundGroupId(event));
      expect(dedupeId).toBe(inboundDedupeId(event));
    }
    const first = events.filter((e) => e.groupId === '51:1:5511900000001').map((e) => e.event);
    expect(first.map((e) => (e.kind === 'message' ? e.message.body : e.kind))).toEqual([
      'text 0',
      'text 1',
      'text 2',
      'text 3',
      'text 4',
      'ack',
    ]);
    expect(first.slice(0, 5).map((e) => e.kind === 'message' && e.message.id)).toEqual(texts.map((t) => t.waMessageId));
    expect(first[5]).toMatchObject({ kind: 'ack', ack: 3, waMessageId: waMessageIdFor(51, 1, 'out-1'), companyId: 51, connectionId: 1 });
    const second = events.filter((e) => e.groupId === '51:1:5511900000002').map((e) => e.event);
    expect(second[0]).toMatchObject({
      kind: 'message',
      message: { id: image.waMessageId, body: 'look', mediaType: 'image', media: { mimetype: 'image/jpeg', filename: 'cat.jpg', size: 5 } },
    });
    const key = second[0]?.kind === 'message' ? second[0].message.media?.key : undefined;
    expect(key).toMatch(/^51\/whatsapp\/1\//);
    expect(media.objects.get(key ?? '')?.toString()).toBe('jpeg!');
    expect(second[1]).toMatchObject({
      kind: 'message',
      message: { id: place.waMessageId, mediaType: 'locationMessage', location: { latitude: -23.5 } },
    });
  });

  it('messages written while no host runs the session, and while its host dies, all arrive once a host runs it', async () => {
    // Prepare: only host-in-2 runs, and it runs connection 2.
    for (const host of hosts.splice(0)) await host.shutdown();
    const dying = startOne('host-in-2');
    await sendCommand(backends, { kind: 'start', companyId: 51, connectionId: 2, commandId: 'start-2' });
    await eventually(() => dying.manager.statusOf({ companyId: 51, connectionId: 2 }) === 'CONNECTED', 'CONNECTED');
    // Act: 10 messages while it runs, it dies (no release, no heartbeat, its socket drops), 20 more
    // while nobody runs it, then another host takes the session over.
    const sent = [];
    for (let i = 0; i < 10; i++) sent.push((await contactSends('51.2', '5511900000003', { body: `live ${i}` })).waMessageId);
    await dying.crash();
    await dying.manager.handleOf({ companyId: 51, connectionId: 2 })?.stop();
    for (let i = 0; i < 20; i++) sent.push((await contactSends('51.2', '5511900000003', { body: `offline ${i}` })).waMessageId);
    startOne('host-in-3');
    const events = await drainInbound(backends, (all) => all.filter((e) => e.event.kind === 'message').length >= 30, 20_000);
    // Assess: all 30, once each (SQS dedupes a redelivered event), in the contact's order.
    const messages = events.flatMap((e) => (e.event.kind === 'message' ? [e.event.message] : []));
    expect(messages.map((m) => m.id)).toEqual(sent);
    expect(messages.slice(10).every((m) => m.history === true)).toBe(true);
  }, 30_000);
});
