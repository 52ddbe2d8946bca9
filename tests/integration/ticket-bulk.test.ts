/**
 * Issue 22 §5 over the local stack: POST /tickets/bulk acts on many tickets, answering per id in the
 * order given, each ticket under its own rules (another tenant's id is not found, a closed one is
 * refused, a plain user's tickets outside their queues are not theirs); a bad body is a 400 and
 * changes nothing. Snooze: PUT /tickets/{id} {snoozeUntil} takes the ticket out of the open and
 * pending lists (into the snoozed one), and the ticket-sweeps job's snooze step, run here in this
 * process with a clock past the time as EventBridge would run it later, brings it back exactly once
 * even when two runs overlap, with its thread lines and a socket update.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { BulkTicketsResponse } from '@conversa/functions/contracts/ticket-requests';
import type { Ticket, TicketEvent } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, type CallResult, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { connectSocket, type Socket, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let a: Tenant;
let b: Tenant;
let connectionA = 0;
let queue1 = 0;
let queue2 = 0;
let tagId = 0;
let socket: Socket | undefined;

const HOUR = 3_600_000;
const phone = () => `55119${randomInt(10_000_000, 99_999_999)}`;

async function ok<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await call(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body as T;
}

/** A contact and its ticket, open with the admin in `queueId` (or pending when asked). */
async function ticketOf(t: Tenant, whatsappId: number, queueId: number | null, status: 'open' | 'pending' = 'open'): Promise<Ticket> {
  const contact = await ok<{ id: number }>('POST', '/contacts', t.admin.token, { name: `Bulk ${phone()}`, number: phone() });
  const ticket = await ok<Ticket>('POST', '/tickets', t.admin.token, { contactId: contact.id, queueId, whatsappId, status: 'open' });
  if (status === 'pending') return ok<Ticket>('PUT', `/tickets/${ticket.id}`, t.admin.token, { status: 'pending', userId: null });
  return ticket;
}

const getTicket = (id: number, token = a.admin.token) => ok<Ticket>('GET', `/tickets/${id}`, token);
const bulk = (token: string, body: unknown): Promise<CallResult> => call('POST', '/tickets/bulk', { token, body });

async function listIds(token: string, query: Record<string, string>): Promise<number[]> {
  const page = await ok<{ tickets: Ticket[] }>('GET', `/tickets?${new URLSearchParams(query)}`, token);
  return page.tickets.map((ticket) => ticket.id);
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const plan = await firstPlanId(call);
  a = await createTenant(call, superToken, plan, 'bulk-a');
  b = await createTenant(call, superToken, plan, 'bulk-b');
  queue1 = (await ok<{ id: number }>('POST', '/queue', a.admin.token, { name: 'Bulk one', color: '#1a2b3c' })).id;
  queue2 = (await ok<{ id: number }>('POST', '/queue', a.admin.token, { name: 'Bulk two', color: '#3c2b1a' })).id;
  connectionA = (await ok<{ id: number }>('POST', '/whatsapp', a.admin.token, { name: 'Bulk wa' })).id;
  tagId = (await ok<{ id: number }>('POST', '/tags', a.admin.token, { name: 'Bulk tag', color: '#00aa00', kanban: 0 })).id;
  // The plain user works queue one only.
  await ok('PUT', `/users/${a.user.id}`, a.admin.token, { queueIds: [queue1] });
  socket = await connectSocket(inject('wsUrl'), a.admin.token);
  // The job's step runs in this process against the stack's table and sockets.
  Object.assign(process.env, inject('env'));
}, 120_000);

afterAll(() => socket?.close());

describe('POST /tickets/bulk', () => {
  it('answers per id in the order given: another tenant id not found, a closed one refused, the rest resolved', async () => {
    const closed = await ticketOf(a, connectionA, queue1);
    await ok('PUT', `/tickets/${closed.id}`, a.admin.token, { status: 'closed' });
    const first = await ticketOf(a, connectionA, queue1);
    const second = await ticketOf(a, connectionA, queue2, 'pending');
    // Ticket ids are per tenant: tenant B gets more tickets than A has, so its last id is not one of A's.
    const connectionB = (await ok<{ id: number }>('POST', '/whatsapp', b.admin.token, { name: 'B wa' })).id;
    let foreign: Ticket | undefined;
    for (let i = 0; i <= second.id; i++) foreign = await ticketOf(b, connectionB, null);
    expect(foreign!.id).toBeGreaterThan(second.id);

    const res = await bulk(a.admin.token, { ids: [first.id, foreign!.id, closed.id, second.id], action: 'resolve' });
    expect(res.status, res.text).toBe(200);
    const { results } = res.body as BulkTicketsResponse;
    expect(results.map(({ id, ok: done, error }) => ({ id, ok: done, error }))).toEqual([
      { id: first.id, ok: true, error: undefined },
      { id: foreign!.id, ok: false, error: 'ERR_NO_TICKET_FOUND' },
      { id: closed.id, ok: false, error: 'ERR_TICKET_CLOSED' },
      { id: second.id, ok: true, error: undefined },
    ]);
    expect((await getTicket(first.id)).status).toBe('closed');
    expect((await getTicket(second.id)).status).toBe('closed');
    // The other tenant's ticket is untouched.
    expect((await getTicket(foreign!.id, b.admin.token)).status).toBe('open');
    // Each went through the single-ticket path: its history line is in its thread.
    const thread = await ok<{ events: { kind: string }[] }>('GET', `/messages/${first.id}`, a.admin.token);
    expect(thread.events.map((e) => e.kind)).toContain('finished');
  });

  it('assigns, transfers and tags, each ticket under its own rules', async () => {
    const one = await ticketOf(a, connectionA, queue1, 'pending');
    const two = await ticketOf(a, connectionA, queue1, 'pending');
    // Accept for the caller (no userId): both open with the admin.
    let res = await bulk(a.admin.token, { ids: [one.id, two.id], action: 'assign' });
    expect((res.body as BulkTicketsResponse).results.every((r) => r.ok)).toBe(true);
    expect(await getTicket(one.id)).toMatchObject({ status: 'open', userId: a.admin.id });
    // Assign to the plain user.
    res = await bulk(a.admin.token, { ids: [one.id], action: 'assign', userId: a.user.id });
    expect((res.body as BulkTicketsResponse).results).toMatchObject([{ id: one.id, ok: true }]);
    expect(await getTicket(one.id)).toMatchObject({ status: 'open', userId: a.user.id });
    // Transfer to queue two: pending there, nobody's.
    res = await bulk(a.admin.token, { ids: [one.id, two.id], action: 'transfer', queueId: queue2 });
    expect((res.body as BulkTicketsResponse).results.map((r) => r.ok)).toEqual([true, true]);
    expect(await getTicket(two.id)).toMatchObject({ status: 'pending', queueId: queue2, userId: null });
    // Tag both.
    res = await bulk(a.admin.token, { ids: [two.id, one.id], action: 'tag', tagId });
    expect((res.body as BulkTicketsResponse).results.map((r) => [r.id, r.ok])).toEqual([
      [two.id, true],
      [one.id, true],
    ]);
    expect((await getTicket(one.id)).tags.map((t) => t.id)).toEqual([tagId]);
  });

  it('a plain user acts only on the tickets of their queues', async () => {
    const mine = await ticketOf(a, connectionA, queue1, 'pending');
    const notMine = await ticketOf(a, connectionA, queue2, 'pending');
    const res = await bulk(a.user.token, { ids: [notMine.id, mine.id], action: 'assign' });
    expect(res.status, res.text).toBe(200);
    expect((res.body as BulkTicketsResponse).results).toMatchObject([
      { id: notMine.id, ok: false, error: 'ERR_NO_PERMISSION' },
      { id: mine.id, ok: true },
    ]);
    expect(await getTicket(notMine.id)).toMatchObject({ status: 'pending', userId: null });
    expect(await getTicket(mine.id)).toMatchObject({ status: 'open', userId: a.user.id });
    // Nor tag them.
    const tagged = await bulk(a.user.token, { ids: [notMine.id], action: 'tag', tagId });
    expect((tagged.body as BulkTicketsResponse).results).toMatchObject([{ id: notMine.id, ok: false, error: 'ERR_NO_PERMISSION' }]);
    expect((await getTicket(notMine.id)).tags).toEqual([]);
  });

  it('refuses a bad body with a 400 and changes nothing', async () => {
    const ticket = await ticketOf(a, connectionA, queue1);
    const tooMany = Array.from({ length: 101 }, (_, i) => i + 1);
    const bad: unknown[] = [
      { ids: tooMany, action: 'resolve' },
      { ids: [], action: 'resolve' },
      { ids: [ticket.id, ticket.id], action: 'resolve' },
      { ids: [ticket.id], action: 'explode' },
      { ids: [ticket.id, 'x'], action: 'resolve' },
      { ids: [ticket.id, -4], action: 'resolve' },
      { ids: [ticket.id], action: 'transfer' },
      { ids: [ticket.id], action: 'tag' },
      { ids: [ticket.id], action: 'tag', tagId: 999_999 },
      { ids: [ticket.id], action: 'transfer', queueId: 999_999 },
      { ids: [ticket.id], action: 'assign', userId: 999_999 },
      { ids: ticket.id, action: 'resolve' },
      { ids: [ticket.id], action: 'resolve', companyId: b.companyId },
      null,
      'resolve',
      [ticket.id],
    ];
    for (const body of bad) {
      const res = await bulk(a.admin.token, body);
      expect(res.status, JSON.stringify(body)?.slice(0, 80)).toBe(400);
      expect((res.body as { error: string }).error).toMatch(/^ERR_/);
    }
    const raw = await call('POST', '/tickets/bulk', { token: a.admin.token, rawBody: '{"ids": [1,' });
    expect(raw.status).toBe(400);
    // Another tenant's queue or user is not found in this one.
    const bQueue = (await ok<{ id: number }>('POST', '/queue', b.admin.token, { name: 'B only', color: '#abcdef' })).id;
    if (bQueue !== queue1 && bQueue !== queue2)
      expect((await bulk(a.admin.token, { ids: [ticket.id], action: 'transfer', queueId: bQueue })).status).toBe(400);
    expect((await getTicket(ticket.id)).status).toBe('open');
    // Without a token, or with a forged one.
    expect((await call('POST', '/tickets/bulk', { body: { ids: [ticket.id], action: 'resolve' } })).status).toBe(401);
    const forged = `${a.admin.token.split('.').slice(0, 2).join('.')}.c2lnbmF0dXJl`;
    expect((await bulk(forged, { ids: [ticket.id], action: 'resolve' })).status).toBe(401);
    expect((await getTicket(ticket.id)).status).toBe('open');
  });

  it('acts on 100 tickets in one request', async () => {
    const tickets = await Promise.all(Array.from({ length: 100 }, () => ticketOf(a, connectionA, queue1, 'pending')));
    const started = Date.now();
    const res = await bulk(a.admin.token, { ids: tickets.map((t) => t.id), action: 'resolve' });
    expect(res.status, res.text).toBe(200);
    const { results } = res.body as BulkTicketsResponse;
    expect(results.map((r) => r.id)).toEqual(tickets.map((t) => t.id));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    // Well inside an HTTP API's 30 s, on this small machine.
    expect(Date.now() - started).toBeLessThan(25_000);
  }, 300_000);
});

describe('snooze', () => {
  const wake = async (now: Date) => {
    const [{ wakeDueSnoozes }, { defaultEffects }] = await Promise.all([
      import('@conversa/functions/domain/tickets/snooze'),
      import('@conversa/functions/domain/messages/effects'),
    ]);
    return wakeDueSnoozes({ ...defaultEffects, now: () => now });
  };

  it('takes the ticket out of the lists until its time, then brings it back to its attendant once', async () => {
    const ticket = await ticketOf(a, connectionA, queue1);
    const until = new Date(Date.now() + HOUR).toISOString();
    const snoozed = await ok<Ticket>('PUT', `/tickets/${ticket.id}`, a.admin.token, { snoozeUntil: until });
    expect(snoozed).toMatchObject({ status: 'open', userId: a.admin.id, snoozedUntil: until });

    // Out of the open list (and every default list), in the snoozed one.
    expect(await listIds(a.admin.token, { status: 'open' })).not.toContain(ticket.id);
    expect(await listIds(a.admin.token, { status: 'open', showAll: 'true' })).not.toContain(ticket.id);
    expect(await listIds(a.admin.token, { showAll: 'true' })).not.toContain(ticket.id);
    expect(await listIds(a.admin.token, { status: 'snoozed' })).toContain(ticket.id);
    // Another user's snoozed list does not hold it.
    expect(await listIds(a.user.token, { status: 'snoozed' })).not.toContain(ticket.id);

    // A run before its time leaves it asleep.
    await wake(new Date(Date.now() + HOUR / 2));
    expect((await getTicket(ticket.id)).snoozedUntil).toBe(until);

    // Two runs at once after its time (the stack was down then): it wakes once.
    // A socket of its own, opened now: the update of the wake must reach a live client.
    const live = await connectSocket(inject('wsUrl'), a.admin.token);
    const after = new Date(Date.parse(until) + HOUR);
    // (A run wakes every tenant's due snoozes, other files' too: what counts is this ticket's lines below.)
    const reports = await Promise.all([wake(after), wake(after)]);
    expect(reports.reduce((sum, r) => sum + r.woken, 0)).toBeGreaterThanOrEqual(1);
    expect(reports.reduce((sum, r) => sum + r.failures, 0)).toBe(0);
    expect(await getTicket(ticket.id)).toMatchObject({ status: 'open', userId: a.admin.id, snoozedUntil: null });
    expect(await listIds(a.admin.token, { status: 'open' })).toContain(ticket.id);
    expect(await listIds(a.admin.token, { status: 'snoozed' })).not.toContain(ticket.id);

    // A third run finds nothing of it left to wake.
    await wake(after);

    // The thread says so, once each; the socket got the update.
    const thread = await ok<{ events: { kind: string; detail?: string | null }[] }>('GET', `/messages/${ticket.id}`, a.admin.token);
    expect(thread.events.filter((e) => e.kind === 'snoozed')).toEqual([expect.objectContaining({ detail: until })]);
    expect(thread.events.filter((e) => e.kind === 'unsnoozed')).toHaveLength(1);
    await waitUntil('the woken ticket update on the socket', async () =>
      live.frames.some(
        (f) =>
          f.event === channels.ticket(a.companyId) &&
          (f.data as TicketEvent).action === 'update' &&
          (f.data as { ticket: Ticket }).ticket.id === ticket.id &&
          (f.data as { ticket: Ticket }).ticket.snoozedUntil === null,
      ),
    );
    live.close();
  });

  it('a snoozed pending ticket returns to Pending; null wakes by hand; acting on it wakes it', async () => {
    const pending = await ticketOf(a, connectionA, queue1, 'pending');
    const until = new Date(Date.now() + 2 * HOUR).toISOString();
    await ok('PUT', `/tickets/${pending.id}`, a.user.token, { snoozeUntil: until });
    expect(await listIds(a.user.token, { status: 'pending' })).not.toContain(pending.id);
    // An unassigned ticket is in its snoozer's list.
    expect(await listIds(a.user.token, { status: 'snoozed' })).toContain(pending.id);
    await wake(new Date(Date.now() + 3 * HOUR));
    expect(await getTicket(pending.id)).toMatchObject({ status: 'pending', snoozedUntil: null });
    expect(await listIds(a.user.token, { status: 'pending' })).toContain(pending.id);

    await ok('PUT', `/tickets/${pending.id}`, a.user.token, { snoozeUntil: until });
    const woken = await ok<Ticket>('PUT', `/tickets/${pending.id}`, a.user.token, { snoozeUntil: null });
    expect(woken.snoozedUntil).toBeNull();
    expect(await listIds(a.user.token, { status: 'pending' })).toContain(pending.id);

    await ok('PUT', `/tickets/${pending.id}`, a.user.token, { snoozeUntil: until });
    const accepted = await ok<Ticket>('PUT', `/tickets/${pending.id}`, a.user.token, { status: 'open', userId: a.user.id });
    expect(accepted).toMatchObject({ status: 'open', snoozedUntil: null });
    expect(await listIds(a.user.token, { status: 'open' })).toContain(pending.id);
    // Its due item went with the snooze: a later run wakes nothing of it (one line per wake, three so far).
    await wake(new Date(Date.now() + 3 * HOUR));
    const thread = await ok<{ events: { kind: string }[] }>('GET', `/messages/${pending.id}`, a.user.token);
    expect(thread.events.filter((e) => e.kind === 'unsnoozed')).toHaveLength(3);
  });

  it('refuses a time in the past, too far ahead, garbage, a closed ticket, and other tenants', async () => {
    const ticket = await ticketOf(a, connectionA, queue1);
    const put = (body: unknown, token = a.admin.token, id = ticket.id) => call('PUT', `/tickets/${id}`, { token, body });
    for (const snoozeUntil of [
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 91 * 24 * HOUR).toISOString(),
      'tomorrow',
      12,
      '',
      true,
      {},
    ]) {
      const res = await put({ snoozeUntil });
      expect(res.status, String(snoozeUntil)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const soon = new Date(Date.now() + HOUR).toISOString();
    expect((await put({ snoozeUntil: soon, status: 'closed' })).status).toBe(400);
    expect((await getTicket(ticket.id)).snoozedUntil).toBeNull();
    // Another tenant's admin and a plain user outside the ticket's queue.
    expect((await put({ snoozeUntil: soon }, b.admin.token)).status).toBe(404);
    const other = await ticketOf(a, connectionA, queue2);
    expect((await put({ snoozeUntil: soon }, a.user.token, other.id)).status).toBe(403);
    await ok('PUT', `/tickets/${ticket.id}`, a.admin.token, { status: 'closed' });
    const closed = await put({ snoozeUntil: soon });
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ error: 'ERR_TICKET_CLOSED' });
  });
});
