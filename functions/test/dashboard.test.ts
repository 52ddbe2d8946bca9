/**
 * The dashboard over DynamoDB Local: a few hundred tickets with known times (and ratings) driven
 * through the ticket writers across a month boundary, with many of them a few minutes either side of
 * the company's midnight (America/Sao_Paulo, UTC-3), so the UTC day and the company's day differ.
 * The dashboard's figures, read from the counters, must equal a recount from the raw tickets and
 * the script's known times, for the company (admin) and for one queue's attendant; and the routes
 * keep their tenant, their roles and their input rules.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { setSessionCommandSender } from '#domain/messages/session-commands';
import type { DashboardData } from '../src/contracts/dashboard.ts';
import { type DashboardViewer, getDashboard, getTicketsDay, getTicketsUsers } from '../src/domain/dashboard/dashboard.ts';
import { companyTimeZone, localDayHour } from '../src/storage/dashboard-counters.ts';
import { clearReadCaches } from '../src/storage/read-cache.ts';
import { commitIfUnchanged } from '../src/storage/sweeps/commit.ts';
import type { TicketRecord, TicketStatePatch } from '../src/storage/tickets/record.ts';
import { getTicket } from '../src/storage/tickets/tickets.ts';
import { getUser } from '../src/storage/users/users.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

const TZ = 'America/Sao_Paulo';
const MIN = 60_000;

let stack: Stack;
let inbox: Inbox;
let other: Inbox;

/** What the script did, as a recount sees it: conversations, waits, closes, contacts. */
interface Conversation {
  ticketId: number;
  beganAt: number;
  /** Final status: the stored ticket's (a ticket counts once, as its latest conversation). */
  status?: string;
  queueId: number;
}
const conversations: Conversation[] = [];
const waits: { at: number; ms: number; queueId: number }[] = [];
const closes: { at: number; userId: number | null; supportMs: number | null; rating: number | null; queueId: number }[] = [];
const contacts: number[] = [];

/** Deterministic pseudo-random numbers (mulberry32), so a failure reproduces. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const localDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date(ms));
const localHour = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', hourCycle: 'h23' }).format(new Date(ms)).padStart(2, '0');

async function change(ticket: TicketRecord, patch: TicketStatePatch, at: number): Promise<TicketRecord> {
  const next = await commitIfUnchanged(ticket, patch, [], new Date(at));
  if (!next) throw new Error(`ticket ${ticket.id} changed under the script`);
  return next;
}

/** One ticket's life: created pending, maybe taken, returned, closed (rated), reopened. */
async function script(rand: () => number, start: number, attendants: number[]) {
  const queue = rand() < 0.6 ? inbox.q1 : inbox.q2;
  const attendant = attendants[Math.floor(rand() * attendants.length)] as number;
  let t = start;
  let ticket = await inbox.seedTicket({ status: 'pending', queueId: queue.id, createdAt: iso(t), updatedAt: iso(t) });
  contacts.push(t);
  const conversation: Conversation = { ticketId: ticket.id, beganAt: t, queueId: queue.id };
  conversations.push(conversation);
  let queuedAt = t;
  let startedAt: number | null = null;
  if (rand() < 0.15) {
    // Closed while still waiting: no attendant, no times.
    t += Math.floor(rand() * 90) * MIN;
    ticket = await change(ticket, { status: 'closed' }, t);
    closes.push({ at: t, userId: null, supportMs: null, rating: null, queueId: queue.id });
    return;
  }
  if (rand() < 0.2) return; // still waiting
  t += (1 + Math.floor(rand() * 120)) * MIN;
  ticket = await change(ticket, { status: 'open', userId: attendant }, t);
  waits.push({ at: t, ms: t - queuedAt, queueId: queue.id });
  startedAt = t;
  if (rand() < 0.15) {
    // Returned to the waiting list and taken again: a second wait, the first start stays.
    t += (1 + Math.floor(rand() * 30)) * MIN;
    ticket = await change(ticket, { status: 'pending', userId: null }, t);
    queuedAt = t;
    t += (1 + Math.floor(rand() * 30)) * MIN;
    ticket = await change(ticket, { status: 'open', userId: attendant }, t);
    waits.push({ at: t, ms: t - queuedAt, queueId: queue.id });
  }
  if (rand() < 0.25) return; // still in conversation
  t += (1 + Math.floor(rand() * 240)) * MIN;
  const rating = rand() < 0.5 ? 1 + Math.floor(rand() * 3) : null;
  ticket = await change(ticket, { status: 'closed', ...(rating ? { rating, ratedAt: iso(t) } : {}) }, t);
  closes.push({ at: t, userId: attendant, supportMs: t - startedAt, rating, queueId: queue.id });
  if (rand() < 0.2) {
    // Reopened by the attendant: the conversation begins again now, never waiting, and leaves the
    // day it first began (counted once, issue 25).
    t += (1 + Math.floor(rand() * 600)) * MIN;
    ticket = await change(ticket, { status: 'open', userId: attendant }, t);
    conversation.beganAt = t;
  }
}

/** The dashboard recounted from the script's known times and the stored tickets. */
function recount(
  from: string,
  to: string,
  queueIds: Set<number> | null,
): Omit<DashboardData, 'attendants' | 'period'> & {
  attendants: Record<number, { tickets: number; rating: number | null; avgSupportTime: number }>;
} {
  const inRange = (ms: number) => localDay(ms) >= from && localDay(ms) <= to;
  const inScope = (queueId: number) => !queueIds || queueIds.has(queueId);
  const convs = conversations.filter((c) => inRange(c.beganAt) && inScope(c.queueId));
  const ws = waits.filter((w) => inRange(w.at) && inScope(w.queueId));
  const cs = closes.filter((c) => inRange(c.at) && inScope(c.queueId));
  const timed = cs.filter((c) => c.supportMs !== null);
  const minutes = (ms: number, n: number) => (n ? Math.round(ms / n / 600) / 100 : 0);
  const attendants: Record<number, { tickets: number; rating: number | null; avgSupportTime: number }> = {};
  for (const id of new Set(cs.flatMap((c) => (c.userId ? [c.userId] : [])))) {
    const mine = cs.filter((c) => c.userId === id);
    const rated = mine.filter((c) => c.rating !== null);
    attendants[id] = {
      tickets: mine.length,
      rating: rated.length ? Math.round((rated.reduce((s, c) => s + (c.rating as number), 0) / rated.length) * 100) / 100 : null,
      avgSupportTime: minutes(
        mine.reduce((s, c) => s + (c.supportMs ?? 0), 0),
        mine.filter((c) => c.supportMs !== null).length,
      ),
    };
  }
  return {
    counters: {
      supportHappening: convs.filter((c) => c.status === 'open').length,
      supportPending: convs.filter((c) => c.status === 'pending').length,
      supportFinished: convs.filter((c) => c.status === 'closed').length,
      leads: contacts.filter(inRange).length,
      avgSupportTime: minutes(
        timed.reduce((s, c) => s + (c.supportMs as number), 0),
        timed.length,
      ),
      avgWaitTime: minutes(
        ws.reduce((s, w) => s + w.ms, 0),
        ws.length,
      ),
    },
    attendants,
  };
}

const viewerOf = (box: Inbox, userId: number, profile: string, queueIds: number[]): DashboardViewer =>
  ({ companyId: box.companyId, userId, profile, super: false, user: { queueIds } }) as unknown as DashboardViewer;

beforeAll(async () => {
  stack = await startStack();
  inbox = await seedInbox(stack);
  other = await seedInbox(stack);
  await inbox.setting('timezone', TZ);
  clearReadCaches();
  const rand = random(12);
  const attendants = [inbox.inQueue.id, inbox.otherQueue.id, inbox.admin.id];
  // 300 tickets from 2026-01-30 to 2026-02-02 (local), a third of them within 40 minutes of local midnight.
  const base = Date.parse('2026-01-30T03:00:00Z'); // local midnight, 30 Jan
  const starts: number[] = [];
  for (let i = 0; i < 300; i++) {
    const day = Math.floor(rand() * 4);
    const nearMidnight = rand() < 0.35;
    const offset = nearMidnight ? (rand() < 0.5 ? -1 : 1) * Math.floor(rand() * 40) * MIN : Math.floor(rand() * 24 * 60) * MIN;
    starts.push(base + day * 24 * 60 * MIN + offset);
  }
  // Ten scripts at a time: the same item counters under concurrent transactions.
  for (let i = 0; i < starts.length; i += 10) {
    await Promise.all(starts.slice(i, i + 10).map((start, j) => script(random(1000 + i + j), start, attendants)));
  }
  for (const conversation of conversations) {
    if (conversation.status) continue;
    conversation.status = (await getTicket(inbox.companyId, conversation.ticketId))?.status;
  }
}, 600_000);
afterAll(async () => {
  await stack?.stop();
});

const periods: [string, string][] = [
  ['2026-01-29', '2026-02-03'],
  ['2026-01-31', '2026-02-01'],
  ['2026-02-01', '2026-02-01'],
  ['2026-01-30', '2026-01-31'],
];

describe('GET /dashboard figures equal a recount from the raw tickets', () => {
  it.each(periods)('the company (admin), %s to %s', async (from, to) => {
    const got = await getDashboard(viewerOf(inbox, inbox.admin.id, 'admin', []), { date_from: from, date_to: to });
    const want = recount(from, to, null);
    expect(got.counters).toEqual(want.counters);
    expect(got.counters.supportFinished + got.counters.supportPending + got.counters.supportHappening).toBeGreaterThan(0);
    const byId = Object.fromEntries(
      got.attendants
        .filter((a) => a.tickets > 0)
        .map((a) => [a.id, { tickets: a.tickets, rating: a.rating, avgSupportTime: a.avgSupportTime }]),
    );
    expect(byId).toEqual(want.attendants);
    expect(got.period).toEqual({ from, to, timeZone: TZ });
  });

  it.each(periods)("an attendant of queue 1 sees queue 1's figures, %s to %s", async (from, to) => {
    const got = await getDashboard(viewerOf(inbox, inbox.inQueue.id, 'user', [inbox.q1.id]), { date_from: from, date_to: to });
    const want = recount(from, to, new Set([inbox.q1.id]));
    expect(got.counters).toEqual(want.counters);
    // Attendants: everyone who ended a queue-1 conversation, with queue 1's numbers only.
    const byId = Object.fromEntries(
      got.attendants
        .filter((a) => a.tickets > 0)
        .map((a) => [a.id, { tickets: a.tickets, rating: a.rating, avgSupportTime: a.avgSupportTime }]),
    );
    expect(byId).toEqual(want.attendants);
  });

  it('the charts: conversations begun per day, per hour for one day, and ended per attendant', async () => {
    const admin = viewerOf(inbox, inbox.admin.id, 'admin', []);
    const days = await getTicketsDay(admin, { initialDate: '2026-01-30', finalDate: '2026-02-02' });
    const perDay = ['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02'].map((day) => ({
      data: day,
      total: conversations.filter((c) => localDay(c.beganAt) === day).length,
    }));
    expect(days).toEqual({ data: perDay, count: perDay.reduce((n, p) => n + p.total, 0) });

    const hours = await getTicketsDay(admin, { initialDate: '2026-02-01', finalDate: '2026-02-01' });
    const begun = conversations.filter((c) => localDay(c.beganAt) === '2026-02-01');
    expect(hours.data).toHaveLength(24);
    for (const point of hours.data as { horario: string; total: number }[])
      expect(point.total, point.horario).toBe(begun.filter((c) => localHour(c.beganAt) === point.horario).length);
    expect(hours.count).toBe(begun.length);

    const users = await getTicketsUsers(admin, { initialDate: '2026-01-29', finalDate: '2026-02-03' });
    const want = recount('2026-01-29', '2026-02-03', null).attendants;
    expect(Object.fromEntries(users.data.map((u) => [u.nome, u.quantidade]))).toEqual(
      Object.fromEntries(
        await Promise.all(Object.entries(want).map(async ([id, a]) => [(await getUser(inbox.companyId, Number(id)))?.name, a.tickets])),
      ),
    );
  });
});

describe('GET /dashboard over HTTP', () => {
  it("answers the caller's own company only: another tenant's admin sees zeros where this one has tickets", async () => {
    const query = { date_from: '2026-01-29', date_to: '2026-02-03' };
    const mine = await call('GET /dashboard', { token: inbox.admin.token, query });
    const theirs = await call('GET /dashboard', { token: other.admin.token, query: { ...query, companyId: String(inbox.companyId) } });
    expect(mine.status).toBe(200);
    expect((mine.body as DashboardData).counters.supportFinished).toBeGreaterThan(0);
    expect(theirs.status).toBe(200);
    expect((theirs.body as DashboardData).counters).toEqual({
      supportHappening: 0,
      supportPending: 0,
      supportFinished: 0,
      leads: 0,
      avgSupportTime: 0,
      avgWaitTime: 0,
    });
    // Ids are per tenant: names tell the two apart.
    const ours = (await getUser(inbox.companyId, inbox.inQueue.id))?.name;
    expect((theirs.body as DashboardData).attendants.map((a) => a.name)).not.toContain(ours);
    expect((mine.body as DashboardData).attendants.map((a) => a.name)).toContain(ours);
  });

  it("a plain user gets their queues' figures, not the company's", async () => {
    const query = { date_from: '2026-01-29', date_to: '2026-02-03' };
    const user = await call('GET /dashboard', { token: inbox.inQueue.token, query });
    expect(user.status).toBe(200);
    expect((user.body as DashboardData).counters).toEqual(recount('2026-01-29', '2026-02-03', new Set([inbox.q1.id])).counters);
    const none = await call('GET /dashboard', { token: inbox.noQueues.token, query });
    expect((none.body as DashboardData).counters.supportFinished).toBe(0);
  });

  it('no token or a forged one is a 401', async () => {
    expect((await call('GET /dashboard', {})).status).toBe(401);
    const forged = `${inbox.admin.token.slice(0, -4)}AAAA`;
    expect((await call('GET /dashboard/ticketsDay', { token: forged })).status).toBe(401);
  });

  it.each([
    ['GET /dashboard', { days: 'abc' }, 'days'],
    ['GET /dashboard', { days: '0' }, 'days'],
    ['GET /dashboard', { days: '91' }, 'days'],
    ['GET /dashboard', { date_from: '2026-02-30' }, 'date_from'],
    ['GET /dashboard', { date_to: "'; DROP TABLE" }, 'date_to'],
    ['GET /dashboard', { date_from: '2026-03-01', date_to: '2026-02-01' }, 'date_from'],
    ['GET /dashboard', { date_from: '2020-01-01', date_to: '2026-02-01' }, 'date_to'],
    ['GET /dashboard/ticketsUsers', { initialDate: '01/02/2026' }, 'initialDate'],
    ['GET /dashboard/ticketsDay', { finalDate: '2026-13-01' }, 'finalDate'],
    ['GET /dashboard/ticketsDay', { companyId: 'x' }, 'companyId'],
  ])('%s with %j is a 400 naming %s', async (route, query, field) => {
    const res = await call(route, { token: inbox.admin.token, query: query as Record<string, string> });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field });
  });
});

describe('a reopened ticket on the dashboard (issue 25)', () => {
  it("counts once: the admin's own open ticket is in conversation, then finished, then in conversation again and not finished", async () => {
    // Prepare: a fresh company and a contact of a closed ticket (a closed ticket begins no conversation)
    const box = await seedInbox(stack);
    // Resolving sends the connection's completion message: the session's queue is not part of this test.
    const previous = setSessionCommandSender(async () => undefined);
    onTestFinished(() => void setSessionCommandSender(previous));
    const { contactId } = await box.seedTicket({ status: 'closed' });
    const token = box.admin.token;
    // Days on the company's clock (São Paulo by default): from 00:00 to 03:00 UTC, UTC's date is its tomorrow.
    const zone = await companyTimeZone(box.companyId);
    const today = localDayHour(new Date().toISOString(), zone).day;
    const yesterday = localDayHour(new Date(Date.now() - 86_400_000).toISOString(), zone).day;
    const counters = async () => {
      const res = await call('GET /dashboard', { token, query: { date_from: today, date_to: today } });
      expect(res.status).toBe(200);
      const { supportHappening, supportPending, supportFinished } = (res.body as DashboardData).counters;
      return { supportHappening, supportPending, supportFinished };
    };
    const ticketsDay = async (from: string) => {
      const res = await call('GET /dashboard/ticketsDay', { token, query: { initialDate: from, finalDate: today } });
      expect(res.status).toBe(200);
      return res.body.count as number;
    };

    // Act + Assess: the admin opens a ticket for themself, with no queue
    const created = await call('POST /tickets', { token, body: { contactId, userId: box.admin.id, status: 'open' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ticket = { id: created.body.id as number };
    expect(await counters()).toEqual({ supportHappening: 1, supportPending: 0, supportFinished: 0 });

    // Act + Assess: resolved
    expect((await call('PUT /tickets/{id}', { token, params: { id: ticket.id }, body: { status: 'closed' } })).status).toBe(200);
    expect(await counters()).toEqual({ supportHappening: 0, supportPending: 0, supportFinished: 1 });

    // Act: reopened
    const reopened = await call('PUT /tickets/{id}', { token, params: { id: ticket.id }, body: { status: 'open', userId: box.admin.id } });
    expect(reopened.status).toBe(200);

    // Assess: one conversation, in progress; the charts count it once (per hour for today, per day over two days)
    expect(await counters()).toEqual({ supportHappening: 1, supportPending: 0, supportFinished: 0 });
    expect(await ticketsDay(today)).toBe(1);
    expect(await ticketsDay(yesterday)).toBe(1);
  });
});
