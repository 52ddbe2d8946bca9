/**
 * The session-host process dies (SIGKILL: no release, no flush) while 200 messages flow in from
 * simulated contacts and 200 flow out through the API, then starts again (issue 3 "Done means"):
 * every inbound message is stored once, every outgoing one reaches its contact's phone exactly once
 * and is recorded as sent.
 *
 * Bounding the wait: commands the dead host had received stay invisible for the session-commands
 * visibility timeout (60 s) and, the queue being FIFO per connection, hold that connection's later
 * sends behind them. This test lowers the timeout to 8 s for its own run (SetQueueAttributes, put
 * back after) so the recovery path is the real one, only shorter. In AWS a dead host delays its
 * connections' pending sends by up to 60 s.
 */
import { randomInt } from 'node:crypto';
import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  ok,
  type Simulator,
  simulator,
  sleep,
  stackControl,
  waitLinked,
  waitUntil,
} from './whatsapp-kit.ts';
import { type StackStore, stackStore } from './whatsapp-store.ts';

const CONTACTS = 10;
const PER_SIDE = 200;
/** Messages per second each way. */
const RATE = 50;
const CRASH_VISIBILITY_SECONDS = 8;

let call: Call;
let sim: Simulator;
let store: StackStore;
let tenant: Tenant;
let setup: ConnectionSetup;
let sqs: SQSClient;
let commandsVisibility: string | undefined;
const numbers = Array.from({ length: CONTACTS }, () => `55319${randomInt(10_000_000, 99_999_999)}`);
const tickets = new Map<string, number>();

beforeAll(async () => {
  const env = inject('env');
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  store = await stackStore(env);
  sqs = new SQSClient({
    endpoint: env.SQS_ENDPOINT,
    region: env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queueUrl = env.QUEUE_URL_SESSION_COMMANDS;
  const attributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }));
  commandsVisibility = attributes.Attributes?.VisibilityTimeout;
  await sqs.send(
    new SetQueueAttributesCommand({ QueueUrl: queueUrl, Attributes: { VisibilityTimeout: String(CRASH_VISIBILITY_SECONDS) } }),
  );

  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'wa-crash');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: [] });
  // Each contact opens a ticket, which the admin accepts so we may write to it.
  await Promise.all(numbers.map((number) => sim.send(setup.simId, number, 'hello', `Contact ${number}`)));
  await waitUntil('10 tickets', async () => {
    const page = await ok<{ tickets: { id: number; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
      token: tenant.admin.token,
      query: { showAll: 'true', status: 'pending' },
    });
    for (const ticket of page.tickets) tickets.set(ticket.contact.number, ticket.id);
    return numbers.every((n) => tickets.has(n));
  });
  for (const id of tickets.values()) {
    await ok(call, 'PUT', `/tickets/${id}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.admin.id } });
  }
}, 60_000);

afterAll(async () => {
  if (commandsVisibility) {
    await sqs.send(
      new SetQueueAttributesCommand({
        QueueUrl: inject('env').QUEUE_URL_SESSION_COMMANDS,
        Attributes: { VisibilityTimeout: commandsVisibility },
      }),
    );
  }
  sqs?.destroy();
  store?.close();
});

/** Runs `count` actions at `RATE` per second, each started on its tick; resolves when all settled. */
async function paced(count: number, action: (i: number) => Promise<unknown>): Promise<PromiseSettledResult<unknown>[]> {
  const started: Promise<unknown>[] = [];
  const t0 = Date.now();
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    started.push(action(i));
  }
  return Promise.allSettled(started);
}

const contactOf = (i: number) => numbers[i % CONTACTS] as string;

describe('session-host crash', () => {
  it('loses nothing and doubles nothing when killed mid-stream (200 in, 200 out) and started again', async () => {
    // Act: both streams run for ~4 s; the host is killed ~1.5 s in and started again right away.
    const control = stackControl(inject('controlUrl'));
    const inbound = paced(PER_SIDE, (i) => sim.send(setup.simId, contactOf(i), `in ${i}`));
    const outbound = paced(PER_SIDE, (i) =>
      ok(call, 'POST', `/messages/${tickets.get(contactOf(i))}`, { token: tenant.admin.token, body: { body: `out ${i}` } }),
    );
    await sleep(1500);
    await control.killSessionHost('SIGKILL');
    await control.startSessionHost();
    const results = [...(await inbound), ...(await outbound)];
    // Every send was accepted by the phone network and the API: whatever is missing later was lost by us.
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    await waitLinked(sim, setup.simId);

    // Assess inbound: 200 stored, each once.
    const inboundBodies = await waitUntil(
      'all inbound messages stored',
      async () => {
        const all = (await Promise.all([...tickets.values()].map((id) => store.ticketMessages(tenant.companyId, id)))).flat();
        const bodies = all.filter((m) => !m.fromMe && m.body.startsWith('in ')).map((m) => m.body);
        return bodies.length >= PER_SIDE ? bodies : undefined;
      },
      45_000,
      500,
    );
    expect(inboundBodies.sort()).toEqual(Array.from({ length: PER_SIDE }, (_, i) => `in ${i}`).sort());

    // Assess outbound: each phone got each of its messages exactly once, and each is recorded as sent.
    const expected = (number: string) =>
      Array.from({ length: PER_SIDE }, (_, i) => i)
        .filter((i) => contactOf(i) === number)
        .map((i) => `out ${i}`);
    const received = await waitUntil(
      'all outgoing messages on the phones',
      async () => {
        const chats = await Promise.all(numbers.map(async (n) => [n, await sim.chat(setup.simId, n)] as const));
        const total = chats.reduce((sum, [, chat]) => sum + chat.filter((m) => m.from === 'us').length, 0);
        return total >= PER_SIDE ? chats : undefined;
      },
      45_000,
      500,
    );
    await sleep(1000); // a late duplicate would show up here
    for (const [number] of received) {
      const ours = (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us').map((m) => /out \d+$/.exec(m.body)?.[0]);
      expect(ours.sort()).toEqual(expected(number).sort());
    }
    await waitUntil(
      'every outgoing message recorded as sent',
      async () => {
        const all = (await Promise.all([...tickets.values()].map((id) => store.ticketMessages(tenant.companyId, id)))).flat();
        const ours = all.filter((m) => m.fromMe);
        return ours.length === PER_SIDE && ours.every((m) => m.ack >= 1 && !m.error && m.waId);
      },
      20_000,
      500,
    );
  }, 90_000);
});
