/**
 * A webhook delivery whose attempt SQS did not take (issue 23 §2 "at least once, never lost",
 * domain/webhooks/queue-or-park.ts): its log item is written first, so a failed send parks it
 * (still pending, the log saying why and when it is tried again) and the minute job queues it
 * again once SQS takes it; the receiver then gets it once. The SQS client is wrapped to fail on
 * demand: every call refused (an outage) or the first entry of each batch.
 */
import type { SendMessageBatchCommandInput } from '@aws-sdk/client-sqs';
import type { ScheduledEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { requeueParkedDeliveries, UNQUEUED_ERROR } from '#domain/webhooks/queue-or-park';
import { handler as minuteJob } from '../src/handlers/jobs/ticket-sweeps.ts';
import { call, seedTenant, type Tenant } from './users-harness.ts';
import { type Body, deliveriesOf, deliverQueued, drain, startWebhookEnv, type WebhookEnv } from './webhooks-harness.ts';

const faults = vi.hoisted(() => ({ outage: false, refuseFirstEntry: false }));

vi.mock('#commons/sqs', async (importOriginal) => {
  const real = await importOriginal<typeof import('#commons/sqs')>();
  const unavailable = () => Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable', $fault: 'server' });
  return {
    ...real,
    sendMessage: async (input: Parameters<typeof real.sendMessage>[0]) => {
      if (faults.outage) throw unavailable();
      return real.sendMessage(input);
    },
    sendMessageBatch: async (input: SendMessageBatchCommandInput) => {
      if (faults.outage) throw unavailable();
      if (!faults.refuseFirstEntry) return real.sendMessageBatch(input);
      const [first, ...rest] = input.Entries ?? [];
      const out = rest.length ? await real.sendMessageBatch({ ...input, Entries: rest }) : { Successful: [], Failed: [] };
      return { ...out, Failed: [...(out.Failed ?? []), { Id: first?.Id, SenderFault: false, Code: 'InternalError' }] };
    },
  };
});

let env: WebhookEnv;
let a: Tenant;

beforeAll(async () => {
  env = await startWebhookEnv();
  a = await seedTenant(env.stack);
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
beforeEach(async () => {
  faults.outage = false;
  faults.refuseFirstEntry = false;
  env.received.length = 0;
  // Nothing parked or queued by an earlier test.
  await requeueParkedDeliveries();
  await drain(env, env.urls.deliveries, 100);
});

const endpoint = async (t = a): Promise<number> => {
  const made = await call('POST /webhooks', { token: t.admin.token, body: { url: env.receiverUrl, events: ['contact.created'] } });
  expect(made.status).toBe(201);
  return made.body.id as number;
};
const testEvent = (id: number) => call('POST /webhooks/{id}/test', { token: a.admin.token, params: { id } });
const runMinuteJob = () => minuteJob({} as ScheduledEvent);

describe('a delivery SQS did not take', () => {
  it('is parked (pending, saying why), queued again by the minute job, and posted once', async () => {
    // Prepare
    const id = await endpoint();
    faults.outage = true;

    // Act: a test event while SQS refuses every send
    const test = await testEvent(id);

    // Assess: the route answers (the delivery is in the log and will go), the log says it waits
    expect(test.status).toBe(201);
    expect(test.body).toMatchObject({ event: 'ping', status: 'pending', attempts: 0, error: UNQUEUED_ERROR });
    expect(Date.parse(test.body.nextRetryAt)).toBeGreaterThan(Date.now());
    expect((await deliveriesOf(a.admin.token, id))[0]).toMatchObject({ id: test.body.id, status: 'pending', error: UNQUEUED_ERROR });
    expect(await deliverQueued(env)).toBe(0);

    // Act: the minute job while SQS still refuses: it stays parked
    await runMinuteJob();
    expect(await deliverQueued(env)).toBe(0);
    expect((await deliveriesOf(a.admin.token, id))[0]).toMatchObject({ status: 'pending', error: UNQUEUED_ERROR });

    // Act: SQS is back; the next minute queues it
    faults.outage = false;
    await runMinuteJob();
    expect(await deliverQueued(env)).toBe(1);

    // Assess: posted once with its delivery id, the log settled and clean; a later run queues nothing more
    expect(env.received.map((r) => r.headers['x-conversa-delivery'])).toEqual([test.body.id]);
    expect((await deliveriesOf(a.admin.token, id))[0]).toMatchObject({ status: 'succeeded', attempts: 1, error: null, nextRetryAt: null });
    expect(await requeueParkedDeliveries()).toEqual({ requeued: 0, stillParked: 0 });
    expect(await deliverQueued(env)).toBe(0);
  });

  it("an inbox event during an outage: the change is made, each endpoint's delivery parked, then both arrive", async () => {
    // Prepare
    const t = await seedTenant(env.stack);
    const first = await endpoint(t);
    const second = await endpoint(t);
    faults.outage = true;

    // Act
    const contact = await call('POST /contacts', { token: t.admin.token, body: { name: 'Parked Ana', number: '5511977771111' } });
    const queuedAtOnce = await deliverQueued(env);
    const parked = [...(await deliveriesOf(t.admin.token, first)), ...(await deliveriesOf(t.admin.token, second))];
    faults.outage = false;
    const report = await requeueParkedDeliveries();
    const queuedLater = await deliverQueued(env);

    // Assess
    expect(contact.status).toBe(201);
    expect(queuedAtOnce).toBe(0);
    expect(parked.map((d: Body) => [d.event, d.status, d.error])).toEqual([
      ['contact.created', 'pending', UNQUEUED_ERROR],
      ['contact.created', 'pending', UNQUEUED_ERROR],
    ]);
    expect([report.requeued, queuedLater]).toEqual([2, 2]);
    const posted = env.received.map((r) => JSON.parse(r.body));
    expect(posted.map((p) => [p.event, p.data.contact.number])).toEqual([
      ['contact.created', '5511977771111'],
      ['contact.created', '5511977771111'],
    ]);
    for (const hook of [first, second])
      expect((await deliveriesOf(t.admin.token, hook)).map((d) => [d.status, d.error])).toEqual([['succeeded', null]]);
  });

  it('a resend SQS did not take is parked in its new round and sent by the sweep', async () => {
    // Prepare: a delivered test event
    const id = await endpoint();
    const test = await testEvent(id);
    expect(await deliverQueued(env)).toBe(1);
    faults.outage = true;

    // Act
    const resent = await call('POST /webhooks/{id}/deliveries/{deliveryId}/resend', {
      token: a.admin.token,
      params: { id, deliveryId: test.body.id },
    });
    faults.outage = false;
    const report = await requeueParkedDeliveries();
    const queued = await deliverQueued(env);

    // Assess
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: test.body.id, status: 'pending', error: UNQUEUED_ERROR });
    expect([report.requeued, queued]).toEqual([1, 1]);
    expect(env.received).toHaveLength(2);
    expect(env.received[1]?.body).toBe(env.received[0]?.body);
    expect((await deliveriesOf(a.admin.token, id))[0]).toMatchObject({ status: 'succeeded', attempts: 2, error: null });
  });
});
