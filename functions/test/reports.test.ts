/**
 * Reports (issue 22 §4) over DynamoDB Local: a scripted day of tickets and messages with known times,
 * driven through the ticket writers and storeMessage, gives exact counter buckets; the summary's
 * median and p90 stay within the histogram's bound; a first response counts once (two at the same
 * moment included), a private note, the bot's or a campaign's message never; and the routes keep
 * their tenant, their queues and their input rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportSummary } from '#contracts/reports';
import { messageIdAt } from '#domain/messages/message-id';
import type { DashboardViewer } from '../src/domain/dashboard/dashboard.ts';
import { getReportSummary } from '../src/domain/reports/reports.ts';
import { type CountedTicket, counterDeltas, readCounters } from '../src/storage/dashboard-counters.ts';
import { type MessageRecord, storeMessage } from '../src/storage/messages/messages.ts';
import { clearReadCaches } from '../src/storage/read-cache.ts';
import { bucketName, bucketOf, bucketStart, HISTOGRAM_BUCKETS, HISTOGRAM_RATIO, quantile } from '../src/storage/report-histogram.ts';
import { commitIfUnchanged } from '../src/storage/sweeps/commit.ts';
import type { TicketRecord, TicketStatePatch } from '../src/storage/tickets/record.ts';
import { getTicket } from '../src/storage/tickets/tickets.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

const TZ = 'America/Sao_Paulo';
const DAY = '2026-03-10';
/** 00:00 of DAY in São Paulo (UTC-3). */
const MIDNIGHT = Date.parse(`${DAY}T03:00:00Z`);
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

let stack: Stack;
let inbox: Inbox;
let other: Inbox;

async function change(ticket: TicketRecord, patch: TicketStatePatch, at: number): Promise<TicketRecord> {
  const next = await commitIfUnchanged((await getTicket(ticket.companyId, ticket.id)) ?? ticket, patch, [], new Date(at));
  if (!next) throw new Error(`ticket ${ticket.id} changed under the script`);
  return next;
}

/** A message of ours (or the contact's) on `ticket` at `at`, stored as the pipeline stores one. */
async function send(ticket: TicketRecord, at: number, extra: Partial<MessageRecord> = {}): Promise<void> {
  const message: MessageRecord = {
    id: messageIdAt(at),
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    waId: null,
    body: 'resposta',
    fromMe: true,
    read: true,
    mediaType: null,
    mediaPath: null,
    mediaUrl: null,
    mediaName: null,
    ack: 1,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: null,
    quotedMsg: null,
    contact: null,
    pending: false,
    error: null,
    bot: false,
    userId: inbox.inQueue.id,
    createdAt: iso(at),
    updatedAt: iso(at),
    ...extra,
  };
  const current = (await getTicket(ticket.companyId, ticket.id)) ?? ticket;
  expect(await storeMessage(message, current, { unread: false, requireActive: false })).toBe('stored');
}

const seconds = { A: 5 * 60, B: 20, C: 30 * 60, D: 3 * 3600 };
const resolutions = { A: 65 * 60, B: 2 * 3600, D: 4 * 3600, E: 20 * 60 };

beforeAll(async () => {
  stack = await startStack();
  inbox = await seedInbox(stack);
  other = await seedInbox(stack);
  await inbox.setting('timezone', TZ);
  clearReadCaches();
  const at = (hour: number) => MIDNIGHT + hour * 60 * MIN;
  const seed = (queueId: number, start: number) =>
    inbox.seedTicket({ status: 'pending', queueId, createdAt: iso(start), updatedAt: iso(start) });

  // A (queue 1, 10:00): a note, the bot's and a campaign's message first, none a response; the attendant answers at 5 min, then again.
  let a = await seed(inbox.q1.id, at(10));
  await send(a, at(10) + MIN, { isPrivate: true });
  await send(a, at(10) + 2 * MIN, { bot: true, userId: null });
  await send(a, at(10) + 3 * MIN, { origin: 'campaign', userId: null });
  await send(a, at(10) - MIN, { userId: inbox.inQueue.id }); // before the conversation began: not its response
  a = await change(a, { status: 'open', userId: inbox.inQueue.id }, at(10) + 4 * MIN);
  await send(a, at(10) + seconds.A * 1000);
  await send(a, at(10) + seconds.A * 1000 + MIN);
  await change(a, { status: 'closed', rating: 3, ratedAt: iso(at(10) + resolutions.A * 1000) }, at(10) + resolutions.A * 1000);

  // B (queue 1, 10:30): two first replies at the same moment, 20 s and 25 s in: one counts.
  let b = await seed(inbox.q1.id, at(10.5));
  await Promise.all([send(b, at(10.5) + seconds.B * 1000), send(b, at(10.5) + 25_000)]);
  b = await change(b, { status: 'open', userId: inbox.inQueue.id }, at(10.5) + MIN);
  await change(b, { status: 'closed', rating: 1, ratedAt: iso(at(10.5) + resolutions.B * 1000) }, at(10.5) + resolutions.B * 1000);

  // C (queue 2, 14:00): the other queue's attendant answers at 30 min; still open.
  const c = await seed(inbox.q2.id, at(14));
  await send(c, at(14) + seconds.C * 1000, { userId: inbox.otherQueue.id });

  // D (queue 1, 15:00): taken, answered from the phone (no user: the ticket's attendant) at 3 h, closed at 4 h.
  let d = await seed(inbox.q1.id, at(15));
  d = await change(d, { status: 'open', userId: inbox.inQueue.id }, at(15) + MIN);
  await send(d, at(15) + seconds.D * 1000, { userId: null });
  await change(d, { status: 'closed' }, at(15) + resolutions.D * 1000);

  // E (queue 2, 09:00): closed unanswered after 20 min.
  const e = await seed(inbox.q2.id, at(9));
  await change(e, { status: 'closed' }, at(9) + resolutions.E * 1000);
}, 300_000);
afterAll(async () => {
  await stack?.stop();
});

/** The day's counters summed per attribute, for the queues given. */
async function counters(queueIds: number[]): Promise<Record<string, number>> {
  const { items } = await readCounters(inbox.companyId, DAY, DAY);
  const out: Record<string, number> = {};
  for (const item of items.filter((i) => queueIds.includes(i.queueId)))
    for (const [attr, n] of Object.entries(item.values)) if (/^(u\d+)?[FRGS]/.test(attr)) out[attr] = (out[attr] ?? 0) + n;
  return out;
}

const F = (s: number) => `F${bucketName(bucketOf(s))}`;
const R = (s: number) => `R${bucketName(bucketOf(s))}`;

describe('the counters of a scripted day', () => {
  it("hold exactly the day's first responses, resolutions and ratings, per queue and per attendant", async () => {
    const u1 = `u${inbox.inQueue.id}`;
    const u2 = `u${inbox.otherQueue.id}`;
    const want1: Record<string, number> = {};
    const inc = (key: string) => {
      want1[key] = (want1[key] ?? 0) + 1;
    };
    for (const s of [seconds.A, seconds.B, seconds.D]) {
      inc(F(s));
      inc(`${u1}${F(s)}`);
    }
    for (const s of [resolutions.A, resolutions.B, resolutions.D]) {
      inc(R(s));
      inc(`${u1}${R(s)}`);
    }
    for (const key of ['G3', 'G1', `${u1}G3`, `${u1}G1`]) inc(key);
    expect(await counters([inbox.q1.id])).toEqual(want1);
    expect(await counters([inbox.q2.id])).toEqual({ [F(seconds.C)]: 1, [`${u2}${F(seconds.C)}`]: 1, [R(resolutions.E)]: 1 });
  });

  it("a second first reply, a note, the bot's and a campaign's message count nothing: one first response per answered conversation", async () => {
    const all = await counters([inbox.q1.id, inbox.q2.id]);
    const firsts = Object.entries(all).filter(([attr]) => /^F\d\d$/.test(attr));
    expect(firsts.reduce((n, [, v]) => n + v, 0)).toBe(4);
  });

  it('the summary gives medians and p90 within the bound of the exact ones, the ratings and the volume', async () => {
    const admin = { companyId: inbox.companyId, userId: inbox.admin.id, profile: 'admin', super: false, user: { queueIds: [] } };
    const got = await getReportSummary(admin as unknown as DashboardViewer, { from: DAY, to: DAY });
    const exact = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.ceil(q * values.length) - 1] as number;
    const within = (estimate: number | null, value: number) => {
      expect(estimate).not.toBeNull();
      if (value < 30) expect(Math.abs((estimate as number) - value)).toBeLessThanOrEqual(30);
      else {
        expect(estimate as number).toBeGreaterThanOrEqual(value / HISTOGRAM_RATIO - 1);
        expect(estimate as number).toBeLessThanOrEqual(value * HISTOGRAM_RATIO + 1);
      }
    };
    const firsts = Object.values(seconds);
    const closes = Object.values(resolutions);
    within(got.firstResponse.median, exact(firsts, 0.5));
    within(got.firstResponse.p90, exact(firsts, 0.9));
    within(got.resolution.median, exact(closes, 0.5));
    within(got.resolution.p90, exact(closes, 0.9));
    expect(got.firstResponse.count).toBe(4);
    expect(got.resolution.count).toBe(4);
    expect(got.csat).toEqual({ average: 2, counts: { '1': 1, '2': 0, '3': 1, '4': 0, '5': 0 } });
    expect(got.volume).toEqual([{ day: DAY, conversations: 5 }]);
    // 10 March 2026 is a Tuesday (2): 09:00, 10:00 (twice), 14:00, 15:00.
    const cells = got.heatmap.filter((cell) => cell.conversations > 0);
    expect(cells).toEqual([
      { weekday: 2, hour: 9, conversations: 1 },
      { weekday: 2, hour: 10, conversations: 2 },
      { weekday: 2, hour: 14, conversations: 1 },
      { weekday: 2, hour: 15, conversations: 1 },
    ]);
    const byUser = Object.fromEntries(got.byUser.map((row) => [row.userId, [row.firstResponse.count, row.resolution.count]]));
    expect(byUser).toEqual({ [inbox.inQueue.id]: [3, 3], [inbox.otherQueue.id]: [1, 0] });
    const byQueue = Object.fromEntries(got.byQueue.map((row) => [row.queueId, [row.conversations, row.firstResponse.count, row.name]]));
    expect(byQueue).toEqual({ [inbox.q1.id]: [3, 3, inbox.q1.name], [inbox.q2.id]: [2, 1, inbox.q2.name] });
  });
});

describe('the histogram', () => {
  it('puts each duration in the bucket that holds it, 30 s to 2 days in 14 log steps', () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(29.9)).toBe(0);
    expect(bucketOf(30)).toBe(1);
    expect(bucketOf(172_799)).toBe(14);
    expect(bucketOf(172_800)).toBe(15);
    for (let b = 1; b < HISTOGRAM_BUCKETS - 1; b++) {
      expect(bucketOf(bucketStart(b))).toBe(b);
      expect(bucketOf(bucketStart(b + 1) - 0.001)).toBe(b);
    }
  });

  it('estimates any quantile within a factor RATIO of the exact nearest-rank value', () => {
    let seed = 5;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let run = 0; run < 50; run++) {
      const values = Array.from({ length: 1 + Math.floor(rand() * 200) }, () => Math.round(30 * 5000 ** rand()));
      const counts = Array.from({ length: HISTOGRAM_BUCKETS }, () => 0);
      for (const v of values) counts[bucketOf(v)] = (counts[bucketOf(v)] ?? 0) + 1;
      const sorted = [...values].sort((x, y) => x - y);
      for (const q of [0.5, 0.9]) {
        const exact = sorted[Math.ceil(q * sorted.length) - 1] as number;
        const estimate = quantile(counts, q) as number;
        expect(estimate / exact).toBeLessThanOrEqual(HISTOGRAM_RATIO + 0.01);
        expect(exact / estimate).toBeLessThanOrEqual(HISTOGRAM_RATIO + 0.01);
      }
    }
    expect(
      quantile(
        Array.from({ length: HISTOGRAM_BUCKETS }, () => 0),
        0.5,
      ),
    ).toBeNull();
  });
});

describe('service-level targets settled at the close', () => {
  const base: CountedTicket = {
    companyId: 1,
    id: 8,
    status: 'open',
    userId: 4,
    queueId: 2,
    createdAt: '2026-03-10T13:00:00.000Z',
    rating: null,
    ratedAt: null,
    convAt: '2026-03-10T13:00:00.000Z',
  };
  const close = (sla: CountedTicket['sla'], at: string) => {
    const deltas = counterDeltas({ ...base, sla }, { ...base, status: 'closed' }, at, 'UTC');
    const item = [...deltas.values()][0] ?? {};
    return { met: item.Sm ?? 0, missed: item.Sb ?? 0, userMet: item.u4Sm ?? 0, userMissed: item.u4Sb ?? 0 };
  };
  it('counts a target met when reached by its due time, missed after it, per queue and attendant', () => {
    const due = { firstResponseDueAt: '2026-03-10T13:10:00.000Z', resolutionDueAt: '2026-03-10T15:00:00.000Z' };
    expect(close({ ...due, firstRespondedAt: '2026-03-10T13:05:00.000Z' }, '2026-03-10T14:00:00.000Z')).toEqual({
      met: 2,
      missed: 0,
      userMet: 2,
      userMissed: 0,
    });
    expect(close({ ...due, firstRespondedAt: '2026-03-10T13:20:00.000Z' }, '2026-03-10T16:00:00.000Z')).toEqual({
      met: 0,
      missed: 2,
      userMet: 0,
      userMissed: 2,
    });
    // Closed unanswered: the first response is missed only once its due time has passed.
    expect(close({ firstResponseDueAt: due.firstResponseDueAt }, '2026-03-10T13:05:00.000Z')).toEqual({
      met: 0,
      missed: 0,
      userMet: 0,
      userMissed: 0,
    });
    expect(close({ firstResponseDueAt: due.firstResponseDueAt }, '2026-03-10T13:15:00.000Z')).toEqual({
      met: 0,
      missed: 1,
      userMet: 0,
      userMissed: 1,
    });
  });
});

describe('GET /reports over HTTP', () => {
  const query = { from: DAY, to: DAY };

  it("answers the caller's own company only: another tenant's admin sees nothing of this one's day", async () => {
    const mine = await call('GET /reports/summary', { token: inbox.admin.token, query });
    const theirs = await call('GET /reports/summary', {
      token: other.admin.token,
      query: { ...query, queueIds: String(inbox.q1.id), userIds: String(inbox.inQueue.id) },
    });
    expect(mine.status).toBe(200);
    expect((mine.body as ReportSummary).firstResponse.count).toBe(4);
    expect(theirs.status).toBe(200);
    const body = theirs.body as ReportSummary;
    expect([body.firstResponse.count, body.resolution.count, body.byUser, body.byQueue]).toEqual([0, 0, [], []]);
    expect(body.volume).toEqual([{ day: DAY, conversations: 0 }]);
    const csv = await call('GET /reports/export.csv', { token: other.admin.token, query });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).not.toContain(inbox.q1.name);
  });

  it("a plain user gets their queues' figures only, even naming another queue", async () => {
    const own = await call('GET /reports/summary', { token: inbox.inQueue.token, query });
    expect(own.status).toBe(200);
    expect((own.body as ReportSummary).byQueue.map((q) => q.queueId)).toEqual([inbox.q1.id]);
    expect((own.body as ReportSummary).firstResponse.count).toBe(3);
    const asked = await call('GET /reports/summary', { token: inbox.inQueue.token, query: { ...query, queueIds: String(inbox.q2.id) } });
    expect(asked.status).toBe(200);
    expect((asked.body as ReportSummary).byQueue).toEqual([]);
    expect((asked.body as ReportSummary).firstResponse.count).toBe(0);
    expect((asked.body as ReportSummary).volume).toEqual([{ day: DAY, conversations: 0 }]);
  });

  it('the admin filters by queue and by attendant', async () => {
    const q2 = await call('GET /reports/summary', { token: inbox.admin.token, query: { ...query, queueIds: String(inbox.q2.id) } });
    expect((q2.body as ReportSummary).resolution.count).toBe(1);
    const u = await call('GET /reports/summary', { token: inbox.admin.token, query: { ...query, userIds: String(inbox.otherQueue.id) } });
    expect((u.body as ReportSummary).firstResponse.count).toBe(1);
    expect((u.body as ReportSummary).byUser.map((row) => row.userId)).toEqual([inbox.otherQueue.id]);
  });

  it('the CSV holds the same rows: the total, each queue, each attendant and each day', async () => {
    const res = await call('GET /reports/export.csv', { token: inbox.admin.token, query });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    const lines = String(res.body).trim().split('\r\n');
    expect(lines[0]).toMatch(/^scope,id,name,conversations,firstResponseMedian/);
    expect(lines.filter((l) => l.startsWith('queue,'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('user,'))).toHaveLength(2);
    expect(lines).toContain(`day,,${DAY},5`);
    expect(lines[1]?.split(',').slice(0, 4)).toEqual(['total', '', `${DAY}..${DAY}`, '5']);
  });

  it('no token or a forged one is a 401', async () => {
    expect((await call('GET /reports/summary', { query })).status).toBe(401);
    const forged = `${inbox.admin.token.slice(0, -4)}AAAA`;
    expect((await call('GET /reports/export.csv', { token: forged, query })).status).toBe(401);
  });

  it.each([
    [{ from: '2026-02-30' }, 'from'],
    [{ from: 'abc' }, 'from'],
    [{ to: "'; DROP TABLE" }, 'to'],
    [{ from: '2026-03-02', to: '2026-03-01' }, 'from'],
    [{ from: '2024-01-01', to: '2026-03-01' }, 'to'],
    [{ queueIds: 'x' }, 'queueIds'],
    [{ queueIds: '1,,2' }, 'queueIds'],
    [{ queueIds: '0' }, 'queueIds'],
    [{ queueIds: '-1' }, 'queueIds'],
    [{ queueIds: '99999999999' }, 'queueIds'],
    [{ userIds: '1;2' }, 'userIds'],
    [{ userIds: Array.from({ length: 101 }, (_, i) => i + 1).join(',') }, 'userIds'],
  ])('%j is a 400 naming %s', async (bad, field) => {
    for (const route of ['GET /reports/summary', 'GET /reports/export.csv']) {
      const res = await call(route, { token: inbox.admin.token, query: bad as Record<string, string> });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
  });
});
