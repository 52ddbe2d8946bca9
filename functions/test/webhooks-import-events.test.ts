/**
 * `contact.created` for the contacts a phone import creates (issue 23 §2, domain/contacts/phone-import.ts):
 * one event per contact created, none for the ones it found or only named; the batch's deliveries
 * written 25 log items a call and queued 10 attempts a SendMessageBatch call, not one SQS call per
 * contact; and a queue or log that fails never fails the import nor leaves it half written.
 */
import type { SendMessageBatchCommandInput } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InboundEvent, PhoneContact } from '#contracts/session-events';
import { importContacts } from '#domain/contacts/import';
import { createContactFor } from '#domain/contacts/manage';
import { requeueParkedDeliveries } from '#domain/webhooks/queue-or-park';
import { getContactByNumber } from '#storage/contacts/contacts';
import { listDeliveries } from '#storage/webhooks/deliveries';
import { createWebhookFor } from '../src/domain/webhooks/endpoints.ts';
import { deliver, recorder, tenant } from './inbound-harness.ts';
import { type Body, deliverQueued, drain, startWebhookEnv, type WebhookEnv } from './webhooks-harness.ts';

const sqsCalls = vi.hoisted(() => ({ single: 0, batch: 0, outage: false }));
const logWrites = vi.hoisted(() => ({ fail: false }));

vi.mock('#commons/sqs', async (importOriginal) => {
  const real = await importOriginal<typeof import('#commons/sqs')>();
  const unavailable = () => Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable', $fault: 'server' });
  return {
    ...real,
    sendMessage: async (input: Parameters<typeof real.sendMessage>[0]) => {
      sqsCalls.single++;
      if (sqsCalls.outage) throw unavailable();
      return real.sendMessage(input);
    },
    sendMessageBatch: async (input: SendMessageBatchCommandInput) => {
      sqsCalls.batch++;
      if (sqsCalls.outage) throw unavailable();
      return real.sendMessageBatch(input);
    },
  };
});
vi.mock('#storage/webhooks/deliveries', async (importOriginal) => {
  const real = await importOriginal<typeof import('#storage/webhooks/deliveries')>();
  return {
    ...real,
    createDeliveries: async (...args: Parameters<typeof real.createDeliveries>) => {
      if (logWrites.fail) throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ThrottlingException' });
      return real.createDeliveries(...args);
    },
  };
});

let env: WebhookEnv;
beforeAll(async () => {
  env = await startWebhookEnv();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
beforeEach(async () => {
  Object.assign(sqsCalls, { single: 0, batch: 0, outage: false });
  logWrites.fail = false;
  env.received.length = 0;
  await requeueParkedDeliveries();
  await drain(env, env.urls.deliveries, 1000);
});

const contactsBatch = (companyId: number, connectionId: number, contacts: PhoneContact[]): Extract<InboundEvent, { kind: 'contacts' }> => ({
  kind: 'contacts',
  companyId,
  connectionId,
  importId: 'import-webhooks',
  batch: 0,
  contacts,
});
const newNumbers = (numbers: string[]) => numbers.map((number) => ({ number }));
const numbers = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);

/** A tenant with one endpoint that wants contact.created (and one that does not). */
async function importingTenant() {
  const { companyId, connectionId } = await tenant();
  const wants = await createWebhookFor(companyId, { url: env.receiverUrl, events: ['contact.created'], description: '', enabled: true });
  await createWebhookFor(companyId, { url: env.receiverUrl, events: ['ticket.created'], description: '', enabled: true });
  return { companyId, connectionId, endpointId: wants.id };
}

const posted = () => env.received.map((r) => JSON.parse(r.body) as Body);

describe('a phone import', () => {
  it('emits contact.created once per contact it created, none for those it found or named, in batched calls', async () => {
    // Prepare: 60 new numbers, one known by its name, one known only by its number
    const { companyId, connectionId } = await importingTenant();
    await createContactFor(companyId, { name: 'Known Carla', number: '5511955550001', email: '', extraInfo: [] });
    await createContactFor(companyId, { name: '5511955550002', number: '5511955550002', email: '', extraInfo: [] });
    // The two manual creates each emitted their own contact.created: not this test's subject.
    await drain(env, env.urls.deliveries, 10);
    Object.assign(sqsCalls, { single: 0, batch: 0 });
    const fresh = numbers(60, '55119666');
    const contacts = [...fresh.map((number) => ({ number, name: `Agenda ${number.slice(-4)}` })), { number: '5511955550001' }];
    contacts.push({ number: '5511955550002', name: 'Named Later' });

    // Act
    const out = await deliver(recorder(), contactsBatch(companyId, connectionId, contacts));

    // Assess: 60 attempts queued in 6 SendMessageBatch calls (10 each), no single sends
    expect(out.batchItemFailures).toEqual([]);
    expect({ single: sqsCalls.single, batch: sqsCalls.batch }).toEqual({ single: 0, batch: 6 });
    expect(await deliverQueued(env, 100)).toBe(60);
    const events = posted();
    expect(events.every((e) => e.event === 'contact.created' && e.companyId === companyId)).toBe(true);
    expect(events.map((e) => e.data.contact.number).sort()).toEqual(fresh);
    expect(events[0]?.data.contact).toMatchObject({
      id: expect.any(Number),
      name: expect.stringMatching(/^Agenda /),
      whatsappId: connectionId,
    });
    expect(new Set(env.received.map((r) => r.headers['x-conversa-delivery'])).size).toBe(60);
  });

  it('a replayed batch creates nothing and emits nothing', async () => {
    // Prepare
    const { companyId, connectionId } = await importingTenant();
    const event = contactsBatch(companyId, connectionId, newNumbers(numbers(3, '55119777')));
    await deliver(recorder(), event);
    expect(await deliverQueued(env)).toBe(3);
    Object.assign(sqsCalls, { single: 0, batch: 0 });

    // Act
    await deliver(recorder(), event);

    // Assess
    expect(sqsCalls).toMatchObject({ single: 0, batch: 0 });
    expect(await deliverQueued(env)).toBe(0);
  });

  it('SQS down: every contact is imported, the events parked and sent once SQS is back', async () => {
    // Prepare
    const { companyId, connectionId, endpointId } = await importingTenant();
    const fresh = numbers(30, '55119888');
    sqsCalls.outage = true;

    // Act
    const out = await deliver(recorder(), contactsBatch(companyId, connectionId, newNumbers(fresh)));
    const queuedDuring = await deliverQueued(env);
    sqsCalls.outage = false;
    const report = await requeueParkedDeliveries();

    // Assess
    expect(out.batchItemFailures).toEqual([]);
    expect((await Promise.all(fresh.map((n) => getContactByNumber(companyId, n)))).every(Boolean)).toBe(true);
    expect(queuedDuring).toBe(0);
    expect(report.requeued).toBeGreaterThanOrEqual(30);
    expect(await deliverQueued(env, 100)).toBe(30);
    expect(
      posted()
        .map((e) => e.data.contact.number)
        .sort(),
    ).toEqual(fresh);
    const log = (await listDeliveries(companyId, endpointId, 1, 50)).deliveries;
    expect(log.map((d) => [d.status, d.error])).toEqual(fresh.map(() => ['succeeded', null]));
  });

  it('the delivery log unwritable: every contact is imported, the batch does not fail', async () => {
    // Prepare
    const { companyId, connectionId } = await importingTenant();
    const fresh = numbers(5, '55119999');
    logWrites.fail = true;

    // Act
    const out = await deliver(recorder(), contactsBatch(companyId, connectionId, newNumbers(fresh)));

    // Assess: the import stands; nothing is queued for a delivery that has no log to post from
    expect(out.batchItemFailures).toEqual([]);
    expect((await Promise.all(fresh.map((n) => getContactByNumber(companyId, n)))).every(Boolean)).toBe(true);
    expect(await deliverQueued(env)).toBe(0);
  });
});

describe('a spreadsheet import (POST /contacts/import rows)', () => {
  it('emits contact.created for each row it imported, none for a duplicate or a bad row, in batched calls', async () => {
    // Prepare
    const { companyId } = await importingTenant();
    await createContactFor(companyId, { name: 'Known Dora', number: '5511944440001', email: '', extraInfo: [] });
    await drain(env, env.urls.deliveries, 10);
    Object.assign(sqsCalls, { single: 0, batch: 0 });
    const fresh = numbers(12, '55119444');
    const rows = [
      ...fresh.map((number) => ({ name: `Sheet ${number.slice(-4)}`, number })),
      { name: 'Known Dora', number: '5511944440001' },
    ];
    rows.push({ name: 'x', number: 'not a phone' });

    // Act
    const result = await importContacts(companyId, rows);

    // Assess
    expect(result).toMatchObject({ imported: 12, duplicated: 1 });
    expect(result.invalid).toHaveLength(1);
    expect({ single: sqsCalls.single, batch: sqsCalls.batch }).toEqual({ single: 0, batch: 2 });
    expect(await deliverQueued(env, 100)).toBe(12);
    expect(
      posted()
        .map((e) => [e.event, e.data.contact.number])
        .sort(),
    ).toEqual(fresh.map((n) => ['contact.created', n]));
  });
});
