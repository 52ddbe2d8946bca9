/**
 * Service levels (issue 22 §3) over the local stack: a queue promising a first response in 1 minute,
 * a ticket created in it; the ticket-sweeps job's breach step, run here in this process with a clock
 * past the due time as EventBridge would run it later, records the breach, and twice run notifies
 * the queue's admin and supervisor once (not the plain user); the ticket then reads breached and
 * GET /tickets?sla=breached lists it. A ticket answered in time is not breached. Attacks: the fields
 * refuse garbage and plain users, the filter refuses garbage, another tenant sees nothing.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { SlaBreachEvent } from '@conversa/functions/contracts/sla';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from './tenants.ts';
import { connectSocket, type Socket, sleep, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let a: Tenant;
let b: Tenant;
let connectionA = 0;
let queueId = 0;
let otherQueueId = 0;
let supervisor = { id: 0, token: '' };
const sockets: Record<'admin' | 'supervisor' | 'user' | 'otherTenant', Socket | undefined> = {
  admin: undefined,
  supervisor: undefined,
  user: undefined,
  otherTenant: undefined,
};

const MINUTE = 60_000;
const phone = () => `55119${randomInt(10_000_000, 99_999_999)}`;

async function ok<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await call(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body as T;
}

async function ticketIn(queue: number, t: Tenant = a, whatsappId = connectionA): Promise<Ticket> {
  const contact = await ok<{ id: number }>('POST', '/contacts', t.admin.token, { name: `Sla ${phone()}`, number: phone() });
  return ok<Ticket>('POST', '/tickets', t.admin.token, { contactId: contact.id, queueId: queue, whatsappId, status: 'open' });
}

async function listIds(token: string, query: Record<string, string>): Promise<number[]> {
  const page = await ok<{ tickets: Ticket[] }>('GET', `/tickets?${new URLSearchParams(query)}`, token);
  return page.tickets.map((ticket) => ticket.id);
}

const sweep = async (companyId: number, now: Date) => {
  const [{ sweepSlaBreaches }, { defaultEffects }] = await Promise.all([
    import('@conversa/functions/domain/sweeps/sla-breach'),
    import('@conversa/functions/domain/messages/effects'),
  ]);
  return sweepSlaBreaches(companyId, now, { ...defaultEffects, now: () => now });
};

const breachFrames = (socket: Socket | undefined, companyId: number, ticketId: number) =>
  (socket?.frames ?? []).filter((f) => f.event === channels.slaBreach(companyId) && (f.data as SlaBreachEvent).ticket.id === ticketId);

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const plan = await firstPlanId(call);
  a = await createTenant(call, superToken, plan, 'sla-a');
  b = await createTenant(call, superToken, plan, 'sla-b');
  queueId = (await ok<{ id: number }>('POST', '/queue', a.admin.token, { name: 'Sla fast', color: '#0a7b3e', firstResponseMinutes: 1 })).id;
  otherQueueId = (await ok<{ id: number }>('POST', '/queue', a.admin.token, { name: 'Sla none', color: '#7b0a3e' })).id;
  connectionA = (await ok<{ id: number }>('POST', '/whatsapp', a.admin.token, { name: 'Sla wa' })).id;
  // The plain user works the queue too: members who are not supervisors are not told of breaches.
  await ok('PUT', `/users/${a.user.id}`, a.admin.token, { queueIds: [queueId] });
  const email = `supervisor@${a.marker}.test`;
  const created = await ok<{ id: number }>('POST', '/users', a.admin.token, {
    name: 'Supervisor',
    email,
    password: PASSWORD,
    profile: 'supervisor',
    queueIds: [queueId],
  });
  const login = await ok<{ token: string }>('POST', '/auth/login', '', { email, password: PASSWORD });
  supervisor = { id: created.id, token: login.token };
  sockets.admin = await connectSocket(inject('wsUrl'), a.admin.token);
  sockets.supervisor = await connectSocket(inject('wsUrl'), supervisor.token);
  sockets.user = await connectSocket(inject('wsUrl'), a.user.token);
  sockets.otherTenant = await connectSocket(inject('wsUrl'), b.admin.token);
  // The job's step runs in this process against the stack's table and sockets.
  Object.assign(process.env, inject('env'));
}, 120_000);

afterAll(() => {
  for (const socket of Object.values(sockets)) socket?.close();
});

describe('service levels', () => {
  it('the queue keeps its targets; garbage and plain users are refused', async () => {
    const queue = await ok<{ firstResponseMinutes: number; resolutionMinutes: number }>('GET', `/queue/${queueId}`, a.admin.token);
    expect(queue).toMatchObject({ firstResponseMinutes: 1, resolutionMinutes: 0 });
    for (const bad of [-1, 1.5, 43_201, 'abc', '', true, null, { x: 1 }]) {
      for (const field of ['firstResponseMinutes', 'resolutionMinutes']) {
        const res = await call('PUT', `/queue/${queueId}`, { token: a.admin.token, body: { [field]: bad } });
        expect(res.status, `${field}=${JSON.stringify(bad)}: ${res.text}`).toBe(400);
        expect((res.body as { error: string }).error).toMatch(/^ERR_/);
      }
    }
    const plain = await call('PUT', `/queue/${queueId}`, { token: a.user.token, body: { firstResponseMinutes: 0 } });
    expect(plain.status).toBe(403);
    const foreign = await call('PUT', `/queue/${queueId}`, { token: b.admin.token, body: { firstResponseMinutes: 5 } });
    expect(foreign.status).toBe(404);
    expect(await ok('GET', `/queue/${queueId}`, a.admin.token)).toMatchObject({ firstResponseMinutes: 1 });
  });

  it('a ticket nobody answers is breached, listed by the filter, and notified once to admins and supervisors', async () => {
    const ticket = await ticketIn(queueId);
    expect(ticket.sla).toMatchObject({ state: 'ok', resolutionDueAt: null });
    const due = Date.parse(ticket.sla?.firstResponseDueAt as string);
    expect(due - Date.parse(ticket.createdAt)).toBe(MINUTE);
    // A queue without targets: no service level.
    expect((await ticketIn(otherQueueId)).sla).toBeNull();

    // Before its time the sweep leaves it alone.
    expect(await sweep(a.companyId, new Date(due - 1_000))).toBe(0);
    expect(await listIds(a.admin.token, { sla: 'breached', showAll: 'true' })).not.toContain(ticket.id);

    // Two runs after it (the stack was down at the due time): one notification.
    const after = new Date(due + 2 * MINUTE);
    const counts = await Promise.all([sweep(a.companyId, after), sweep(a.companyId, after)]);
    expect(counts[0] + counts[1]).toBe(1);
    expect(await sweep(a.companyId, after)).toBe(0);

    const read = await ok<Ticket>('GET', `/tickets/${ticket.id}`, a.admin.token);
    expect(read.sla?.state).toBe('breached');
    expect(await listIds(a.admin.token, { sla: 'breached', showAll: 'true' })).toContain(ticket.id);
    expect(await listIds(a.admin.token, { sla: 'breached', status: 'open', showAll: 'true' })).toContain(ticket.id);
    expect(await listIds(a.admin.token, { sla: 'dueSoon', showAll: 'true' })).not.toContain(ticket.id);
    expect(await listIds(a.admin.token, { status: 'open' })).toContain(ticket.id);

    await waitUntil('the breach on the admin socket', async () => breachFrames(sockets.admin, a.companyId, ticket.id).length > 0);
    await waitUntil('the breach on the supervisor socket', async () => breachFrames(sockets.supervisor, a.companyId, ticket.id).length > 0);
    const event = breachFrames(sockets.admin, a.companyId, ticket.id)[0]?.data as SlaBreachEvent;
    expect(event).toMatchObject({ action: 'breach', target: 'firstResponse', ticket: { id: ticket.id, sla: { state: 'breached' } } });
    // Let any duplicate arrive before counting.
    await sleep(1_500);
    expect(breachFrames(sockets.admin, a.companyId, ticket.id)).toHaveLength(1);
    expect(breachFrames(sockets.supervisor, a.companyId, ticket.id)).toHaveLength(1);
    expect(breachFrames(sockets.user, a.companyId, ticket.id)).toHaveLength(0);
    expect(sockets.otherTenant?.frames.some((f) => f.event.includes(`company-${a.companyId}-`))).toBe(false);
    // Another tenant neither reads nor lists it.
    expect((await call('GET', `/tickets/${ticket.id}`, { token: b.admin.token })).status).toBe(404);
    expect(await listIds(b.admin.token, { sla: 'breached', showAll: 'true' })).not.toContain(ticket.id);
  });

  it("an attendant's answer in time meets the first response; closing keeps it met", async () => {
    const ticket = await ticketIn(queueId);
    await ok('POST', `/messages/${ticket.id}`, a.admin.token, { body: 'Olá! Já vou ver isso.' });
    const answered = await waitUntil('the first response recorded', async () => {
      const read = await ok<Ticket>('GET', `/tickets/${ticket.id}`, a.admin.token);
      return read.sla?.state === 'met' ? read : undefined;
    });
    expect(answered.sla?.nextDueAt).toBeNull();
    await sweep(a.companyId, new Date(Date.now() + 5 * MINUTE));
    expect((await ok<Ticket>('GET', `/tickets/${ticket.id}`, a.admin.token)).sla?.state).toBe('met');
    expect(breachFrames(sockets.admin, a.companyId, ticket.id)).toHaveLength(0);
    await ok('PUT', `/tickets/${ticket.id}`, a.admin.token, { status: 'closed' });
    expect((await ok<Ticket>('GET', `/tickets/${ticket.id}`, a.admin.token)).sla?.state).toBe('met');
  });

  it('the sla filter refuses garbage with a clean 400', async () => {
    for (const bad of ['late', 'BREACHED', 'met', 'ok', '1', '[]', 'breached,dueSoon', 'x'.repeat(300)]) {
      const res = await call('GET', `/tickets?${new URLSearchParams({ sla: bad })}`, { token: a.admin.token });
      expect(res.status, `sla=${bad}: ${res.text}`).toBe(400);
      expect((res.body as { error: string }).error).toMatch(/^ERR_/);
    }
    expect((await call('GET', '/tickets?sla=dueSoon', { token: a.user.token })).status).toBe(200);
    expect((await call('GET', '/tickets?sla=', { token: a.user.token })).status).toBe(200);
  });
});
