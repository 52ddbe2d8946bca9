/**
 * Webhooks end to end on the local stack (issue 23 §2 "Done means"): a receiver on 127.0.0.1 (the
 * local stack lets loopback URLs through, as for the bot fakes), registered through the API, gets a
 * contact's message on the simulated phone as a signed `message.received` within seconds (with the
 * `ticket.created` and `contact.created` that first message made); a receiver
 * answering 500 twice gets the same X-Conversa-Delivery a third time and the log shows three attempts
 * (the local stack retries after ~2 s and ~6 s: WEBHOOK_RETRY_BASE_SECONDS, the same code); a
 * disabled endpoint gets nothing; another tenant's endpoint is not found.
 */
import { createHmac, randomInt } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, waitUntil } from './whatsapp-kit.ts';

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

let call: Call;
let sim: Simulator;
let a: Tenant;
let b: Tenant;
let setup: ConnectionSetup;
let server: Server;
let base: string;
const hits: Hit[] = [];
/** Per path, the statuses to answer in turn (200 once they run out). */
const scripts = new Map<string, number[]>();

const phone = () => `55419${randomInt(10_000_000, 99_999_999)}`;
const hitsOf = (path: string) => hits.filter((hit) => hit.path === path);

/** What a receiver does with the secret it was shown: recompute v1 over "t.body" and check t is recent. */
function verifies(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(parts.t);
  if (Math.abs(Date.now() / 1000 - t) > 300) return false;
  return parts.v1 === createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

async function register(path: string, events: string[], token = a.admin.token) {
  return ok<{ id: number; secret: string }>(call, 'POST', '/webhooks', { token, body: { url: `${base}${path}`, events } });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      hits.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      res.statusCode = scripts.get(path)?.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  [a, b] = await Promise.all([createTenant(call, superToken, planId, 'webhooks-a'), createTenant(call, superToken, planId, 'webhooks-b')]);
  setup = await connectedConnection(call, sim, { token: a.admin.token, companyId: a.companyId, queues: ['Vendas'], greeting: '' });
}, 120_000);

afterAll(() => server?.close());

describe('webhooks over the local stack', () => {
  it("posts a contact's message as a signed message.received within seconds; a disabled endpoint gets nothing", async () => {
    const live = await register('/live', ['message.received', 'ticket.created', 'contact.created']);
    const off = await register('/off', ['message.received']);
    await ok(call, 'PUT', `/webhooks/${off.id}`, { token: a.admin.token, body: { enabled: false } });
    const number = phone();
    const sentAt = Date.now();
    await sim.send(setup.simId, number, 'Olá, quero saber do pedido 😀');

    const received = await waitUntil('message.received at the receiver', async () =>
      hitsOf('/live').find((hit) => hit.headers['x-conversa-event'] === 'message.received'),
    );
    // Seconds on an idle machine; the bound leaves room for the first load of the consumers' modules on a
    // loaded 2-core runner (a full run measured 15 s with eight suites beside it). The bench measures p50/p99.
    expect(received.at - sentAt).toBeLessThan(30_000);
    expect(received.headers['content-type']).toBe('application/json');
    expect(verifies(String(received.headers['x-conversa-signature']), received.body, live.secret)).toBe(true);
    expect(verifies(String(received.headers['x-conversa-signature']), received.body, 'whsec_wrong')).toBe(false);
    const payload = JSON.parse(received.body);
    expect(payload).toMatchObject({
      id: received.headers['x-conversa-delivery'],
      event: 'message.received',
      companyId: a.companyId,
      data: { message: { body: 'Olá, quero saber do pedido 😀', fromMe: false }, contact: { number } },
    });
    expect(Date.parse(payload.createdAt)).toBeGreaterThan(0);
    await waitUntil('ticket.created at the receiver', async () =>
      hitsOf('/live').some((hit) => hit.headers['x-conversa-event'] === 'ticket.created'),
    );
    // The number was new to the company: its contact was created by that first message.
    const contactCreated = await waitUntil('contact.created at the receiver', async () =>
      hitsOf('/live').find((hit) => hit.headers['x-conversa-event'] === 'contact.created'),
    );
    expect(JSON.parse(contactCreated.body)).toMatchObject({
      event: 'contact.created',
      companyId: a.companyId,
      data: { contact: { number } },
    });
    // An endpoint's deliveries go one at a time, in the order the changes were made: the contact, its ticket, the message.
    expect(hitsOf('/live').map((hit) => hit.headers['x-conversa-event'])).toEqual([
      'contact.created',
      'ticket.created',
      'message.received',
    ]);

    const log = await ok<{ deliveries: { event: string; status: string; attempts: number; responseCode: number }[] }>(
      call,
      'GET',
      `/webhooks/${live.id}/deliveries`,
      { token: a.admin.token },
    );
    expect(log.deliveries.find((d) => d.event === 'message.received')).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      responseCode: 200,
    });
    expect(hitsOf('/off')).toEqual([]);
    expect(
      (await ok<{ deliveries: unknown[] }>(call, 'GET', `/webhooks/${off.id}/deliveries`, { token: a.admin.token })).deliveries,
    ).toEqual([]);
  });

  it('retries a receiver that answers 500 twice: the same X-Conversa-Delivery three times, three attempts in the log', async () => {
    scripts.set('/flaky', [500, 500]);
    const flaky = await register('/flaky', ['message.received']);
    const number = phone();
    await sim.send(setup.simId, number, 'Tem alguém aí?');
    await waitUntil('three attempts at the flaky receiver', async () => hitsOf('/flaky').length >= 3, 60_000);
    const attempts = hitsOf('/flaky');
    const ids = new Set(attempts.map((hit) => hit.headers['x-conversa-delivery']));
    expect(ids.size).toBe(1);
    expect(new Set(attempts.map((hit) => hit.body)).size).toBe(1);
    for (const hit of attempts) expect(verifies(String(hit.headers['x-conversa-signature']), hit.body, flaky.secret)).toBe(true);
    // Backed off: the retries came after a pause, not at once.
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThan(1_000);
    const log = await waitUntil('the log settled', async () => {
      const page = await ok<{ deliveries: { id: string; status: string; attempts: number; responseCode: number }[] }>(
        call,
        'GET',
        `/webhooks/${flaky.id}/deliveries`,
        { token: a.admin.token },
      );
      return page.deliveries[0]?.status === 'succeeded' ? page.deliveries : undefined;
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ id: [...ids][0], status: 'succeeded', attempts: 3, responseCode: 200 });
  });

  it('tells of an attendant taking the ticket, replying, the phone reading the reply, and the ticket closing', async () => {
    const flow = await register('/flow', ['message.sent', 'message.ack', 'ticket.updated', 'ticket.closed']);
    const events = (event: string) => hitsOf('/flow').filter((hit) => hit.headers['x-conversa-event'] === event);
    const number = phone();
    await sim.send(setup.simId, number, 'Bom dia');
    // In its queue: the chatbot's step (the one queue taken at once) is a state change of its own just
    // after the ticket is listed, and an accept read before it is refused as stale (409 ERR_TICKET_CHANGED).
    const ticket = await waitUntil('the contact’s ticket, in its queue', async () => {
      const list = await ok<{ tickets: { id: number; queueId: number | null; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
        token: a.admin.token,
        query: { showAll: 'true', status: 'pending' },
      });
      return list.tickets.find((t) => t.contact.number === number && t.queueId !== null);
    });
    await ok(call, 'PUT', `/tickets/${ticket.id}`, { token: a.admin.token, body: { status: 'open', userId: a.admin.id } });
    await waitUntil('ticket.updated (accepted)', async () =>
      events('ticket.updated').some((hit) => JSON.parse(hit.body).data.ticket.status === 'open'),
    );
    await ok(call, 'POST', `/messages/${ticket.id}`, { token: a.admin.token, body: { body: 'Olá! Como posso ajudar?' } });
    const sent = await waitUntil('message.sent', async () => events('message.sent')[0]);
    expect(JSON.parse(sent.body).data.message).toMatchObject({ body: 'Olá! Como posso ajudar?', fromMe: true });
    const onPhone = await waitUntil('the reply on the phone', async () =>
      (await sim.chat(setup.simId, number)).find((m) => m.from === 'us' && m.body.includes('Como posso ajudar')),
    );
    await sim.ack(setup.simId, number, onPhone.waMessageId, 3);
    const read = await waitUntil('message.ack (read)', async () =>
      events('message.ack').find((hit) => JSON.parse(hit.body).data.message.ack >= 3),
    );
    expect(JSON.parse(read.body).data.message.body).toBe('Olá! Como posso ajudar?');
    await ok(call, 'PUT', `/tickets/${ticket.id}`, { token: a.admin.token, body: { status: 'closed' } });
    const closed = await waitUntil('ticket.closed', async () => events('ticket.closed')[0]);
    expect(JSON.parse(closed.body).data.ticket).toMatchObject({ id: ticket.id, status: 'closed' });
    for (const hit of hitsOf('/flow')) expect(verifies(String(hit.headers['x-conversa-signature']), hit.body, flow.secret)).toBe(true);
  });

  it("keeps one tenant's endpoints and deliveries from another", async () => {
    const mine = await register('/mine', ['contact.created']);
    for (const path of [`/webhooks/${mine.id}`, `/webhooks/${mine.id}/deliveries`]) {
      expect((await call('GET', path, { token: b.admin.token })).status).toBe(404);
    }
    expect((await call('POST', `/webhooks/${mine.id}/test`, { token: b.admin.token })).status).toBe(404);
    const theirs = await ok<{ webhooks: { id: number }[] }>(call, 'GET', '/webhooks', { token: b.admin.token });
    expect(theirs.webhooks).toEqual([]);
  });
});
