/**
 * How the dashboard's counters are stored (storage/dashboard-counters.ts, issue 24 §2): the sums the
 * dashboard reads in D items, the hours and histograms in R items of one attendant at most. A busy
 * company's items stay small however many tickets, attendants and days it has; a change writes no
 * more items than the header says; every count is kept; and items written in the single shape
 * before the split are read as they were, alone or with new writes added to the same day.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardViewer, getDashboard, getTicketsDay, getTicketsUsers } from '../src/domain/dashboard/dashboard.ts';
import { getReportSummary } from '../src/domain/reports/reports.ts';
import {
  type CountedTicket,
  counterDeltas,
  type Deltas,
  dashboardPk,
  firstResponseDeltas,
  storedDeltas,
  trackingFields,
} from '../src/storage/dashboard-counters.ts';
import { db, table } from '../src/storage/db.ts';
import { clearReadCaches } from '../src/storage/read-cache.ts';
import { listUsers } from '../src/storage/users/users.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { type Stack, startStack } from './users-harness.ts';

const MIN = 60_000;
const DAY_MS = 24 * 60 * MIN;

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

/**
 * Ticket lives as the writers count them (UTC days): created, taken (answered with a first response),
 * sometimes returned and retaken, closed with a rating and service-level facts, sometimes reopened.
 * Calls `change` with each change's logical deltas, in order.
 */
function lives(
  options: { tickets: number; days: number; queues: number[]; attendants: number[]; seed: number; start?: number },
  change: (deltas: Deltas, kind: string) => void,
) {
  const rand = random(options.seed);
  const start = options.start ?? Date.parse('2026-03-01T00:00:00Z');
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)] as T;
  for (let id = 1; id <= options.tickets; id++) {
    let at = start + Math.floor(rand() * options.days) * DAY_MS + Math.floor(rand() * 20 * 60) * MIN;
    const iso = () => new Date(at).toISOString();
    const created: CountedTicket = {
      companyId: 1,
      id,
      status: 'pending',
      userId: null,
      queueId: pick(options.queues),
      createdAt: iso(),
      rating: null,
      ratedAt: null,
    };
    let ticket: CountedTicket = { ...created, ...trackingFields(undefined, created, iso()) };
    change(counterDeltas(undefined, ticket, iso(), 'UTC'), 'create');
    const step = (patch: Partial<CountedTicket>, kind: string) => {
      const patched = { ...ticket, ...patch };
      const next = { ...patched, ...trackingFields(ticket, patched, iso()) };
      change(counterDeltas(ticket, next, iso(), 'UTC'), kind);
      ticket = next;
    };
    if (rand() < 0.1) continue; // still waiting
    const attendant = pick(options.attendants);
    at += (1 + Math.floor(rand() * 60)) * MIN;
    step({ status: 'open', userId: attendant }, 'take');
    at += (1 + Math.floor(rand() * 600)) * 1000;
    if (ticket.convAt) change(firstResponseDeltas({ ...ticket, convAt: ticket.convAt }, attendant, iso(), 'UTC'), 'first response');
    const sla = { firstResponseDueAt: new Date(at - 60_000).toISOString(), firstRespondedAt: iso(), resolutionDueAt: iso() };
    if (rand() < 0.2) continue; // still in conversation
    at += (1 + Math.floor(rand() * 3000)) * MIN;
    ticket = { ...ticket, sla };
    const rating = rand() < 0.6 ? 1 + Math.floor(rand() * 3) : null;
    step({ status: 'closed', ...(rating ? { rating, ratedAt: iso() } : {}) }, 'close');
    if (rand() < 0.1) {
      at += (1 + Math.floor(rand() * 600)) * MIN;
      step({ status: 'pending', userId: null }, 'reopen');
    }
  }
}

/** Deltas summed into items, as the ADDs leave them. */
function sumInto(items: Map<string, Record<string, number>>, deltas: Deltas) {
  for (const [sk, attrs] of deltas) {
    const item = items.get(sk) ?? {};
    for (const [attr, n] of Object.entries(attrs)) item[attr] = (item[attr] ?? 0) + n;
    items.set(sk, item);
  }
}

/** DynamoDB's size of a stored counter item: names plus values (a number ~1 byte per 2 significant digits, plus 1). */
function itemBytes(companyId: number, sk: string, attrs: Record<string, number>): number {
  let bytes = 'pk'.length + dashboardPk(companyId).length + 'sk'.length + sk.length + 'entity'.length + 'dashboardCounter'.length;
  for (const [name, value] of Object.entries(attrs))
    bytes += name.length + Math.ceil(String(Math.abs(value)).replace(/^0+|\.|0+$/g, '').length / 2) + 1;
  return bytes;
}

const attendantsIn = (attrs: Record<string, number>) => new Set(Object.keys(attrs).flatMap((attr) => /^u(\d+)/.exec(attr)?.[1] ?? []));

/** Per day, queue and attribute: what every reader sums. */
function perDayQueue(items: Map<string, Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [sk, attrs] of items) {
    const [, day, , queue] = sk.split('#');
    for (const [attr, n] of Object.entries(attrs))
      if (n) out[`${day}/${Number(queue)}/${attr}`] = (out[`${day}/${Number(queue)}/${attr}`] ?? 0) + n;
  }
  for (const key of Object.keys(out)) if (out[key] === 0) delete out[key];
  return out;
}

describe("a busy company's counter items", () => {
  // 40,000 conversations over 14 days in 3 queues by 80 attendants (user ids up to 5 digits).
  const attendants = Array.from({ length: 80 }, (_, i) => 10_000 + i * 7);
  const single = new Map<string, Record<string, number>>();
  const stored = new Map<string, Record<string, number>>();
  lives({ tickets: 40_000, days: 14, queues: [1, 2, 3], attendants, seed: 5 }, (deltas) => {
    sumInto(single, deltas);
    sumInto(stored, storedDeltas(deltas));
  });

  it('stay under a bound: report items under 1 KB (one write unit), dashboard items ~45 B per attendant in them', () => {
    // (The dashboard items of this company still pass 1 KB: 5 sums for each of ~70 attendants a shard.)
    let largestReport = 0;
    let largestDashboard = 0;
    for (const [sk, attrs] of stored) {
      const bytes = itemBytes(1, sk, attrs);
      if (sk.startsWith('R#')) {
        expect(attendantsIn(attrs).size, sk).toBeLessThanOrEqual(1);
        largestReport = Math.max(largestReport, bytes);
      } else {
        expect(sk.startsWith('D#'), sk).toBe(true);
        expect(bytes, sk).toBeLessThanOrEqual(200 + 50 * attendantsIn(attrs).size);
        largestDashboard = Math.max(largestDashboard, bytes);
      }
    }
    expect(largestReport).toBeLessThanOrEqual(1024);
    // Each attendant's sums in their own shard's item (id mod 4): a day and queue hold them once, not once a shard.
    expect(largestDashboard).toBeLessThanOrEqual(200 + 50 * Math.ceil(attendants.length / 4) + 50 * 4);
    const seen = new Map<string, string>();
    for (const [sk, attrs] of stored) {
      if (!sk.startsWith('D#')) continue;
      const [, day, , queue, , shard] = sk.split('#');
      for (const id of attendantsIn(attrs)) {
        expect(Number(id) % 4, `${sk} u${id}`).toBe(Number(shard));
        expect(seen.get(`${day}/${queue}/${id}`) ?? sk).toBe(sk);
        seen.set(`${day}/${queue}/${id}`, sk);
      }
    }
    // What the split avoids: the single item held every attendant's histograms too.
    expect(Math.max(...[...single].map(([sk, attrs]) => itemBytes(1, sk, attrs)))).toBeGreaterThan(5 * 1024);
  });

  it('keep every count: the stored items sum, per day, queue and attribute, to the single ones', () => {
    expect(perDayQueue(stored)).toEqual(perDayQueue(single));
  });

  it('a dashboard item holds only what the dashboard reads: sums a few conversations fill', () => {
    const names = new Set(
      [...stored].filter(([sk]) => sk.startsWith('D#')).flatMap(([, attrs]) => Object.keys(attrs).map((a) => a.replace(/^u\d+/, 'u'))),
    );
    expect([...names].sort()).toEqual([
      'closed',
      'open',
      'pending',
      'supportMs',
      'supportN',
      'uc',
      'un',
      'ur',
      'us',
      'ut',
      'waitMs',
      'waitN',
    ]);
  });
});

describe('the items a change writes', () => {
  it('creation 2 (status, hour), take 1, first response 1, close 2-4, each logical item one D (and its attendant’s) and one R', () => {
    const written = new Map<string, number[]>();
    lives({ tickets: 2000, days: 3, queues: [1, 2], attendants: [3, 4, 5], seed: 9 }, (deltas, kind) => {
      const stored = storedDeltas(deltas);
      const logical = [...deltas.values()].filter((attrs) => Object.values(attrs).some((n) => n !== 0)).length;
      expect(stored.size).toBeLessThanOrEqual(3 * logical);
      const dashboard = [...stored].filter(([sk]) => sk.startsWith('D#'));
      // Apart from an attendant's sums (in the D item of their shard), a logical item's D part is one item.
      expect(dashboard.filter(([, attrs]) => Object.keys(attrs).some((a) => !/^u\d+/.test(a))).length).toBeLessThanOrEqual(logical);
      expect(dashboard.filter(([, attrs]) => Object.keys(attrs).every((a) => /^u\d+/.test(a))).length).toBeLessThanOrEqual(1);
      written.set(kind, [...(written.get(kind) ?? []), stored.size]);
    });
    const most = (kind: string) => Math.max(...(written.get(kind) ?? []));
    const least = (kind: string) => Math.min(...(written.get(kind) ?? []));
    expect([least('create'), most('create')]).toEqual([2, 2]);
    expect([least('take'), most('take')]).toEqual([1, 1]);
    expect([least('first response'), most('first response')]).toEqual([1, 1]);
    // A close on the day the conversation began: 2; on a later day the cohort's day adds its D item, and an
    // attendant of another shard than the ticket's their own.
    expect([least('close'), most('close')]).toEqual([2, 4]);
  });
});

describe('items written in the single shape before the split', () => {
  let stack: Stack;
  const boxes: Record<'single' | 'mixed' | 'split', Inbox> = {} as never;
  const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03'] as const;

  /** The same conversations' counters in each company, stored single, split, or the first half single and the rest split into the same items. */
  async function seed(box: Inbox, shape: 'single' | 'mixed' | 'split') {
    const items = new Map<string, Record<string, number>>();
    const users = [box.inQueue.id, box.otherQueue.id, box.admin.id];
    const queues = [box.q1.id, box.q2.id];
    let n = 0;
    lives({ tickets: 240, days: 3, queues: [0, 1], attendants: [0, 1, 2], seed: 21 }, (deltas, kind) => {
      if (kind === 'create') n++;
      // Positions to this company's ids: queue q<i>, user u<i>.
      const mine: Deltas = new Map();
      for (const [sk, attrs] of deltas) {
        const [, day, , queue, , shard] = sk.split('#');
        const renamed = Object.fromEntries(
          Object.entries(attrs).map(([attr, v]) => [attr.replace(/^u(\d+)/, (_, i) => `u${users[Number(i)]}`), v]),
        );
        mine.set(`D#${day}#Q#${String(queues[Number(queue)]).padStart(10, '0')}#S#${shard}`, renamed);
      }
      sumInto(items, shape === 'single' || (shape === 'mixed' && n <= 120) ? mine : storedDeltas(mine));
    });
    for (const [sk, attrs] of items)
      await db().send(
        new PutCommand({ TableName: table(), Item: { pk: dashboardPk(box.companyId), sk, entity: 'dashboardCounter', ...attrs } }),
      );
  }

  beforeAll(async () => {
    stack = await startStack();
    for (const shape of ['single', 'mixed', 'split'] as const) {
      boxes[shape] = await seedInbox(stack);
      await seed(boxes[shape], shape);
    }
    clearReadCaches();
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
  });

  /** Every dashboard and report figure of a company, its ids and names replaced by their positions. */
  async function figures(box: Inbox) {
    const viewer = { companyId: box.companyId, userId: box.admin.id, profile: 'admin', super: false, user: { queueIds: [] } };
    // The seeded users are made concurrently, so their ids differ in order between companies: each gets its role's label.
    const roles = new Map<number, string>([
      [box.admin.id, 'admin'],
      [box.inQueue.id, 'in queue'],
      [box.otherQueue.id, 'other queue'],
      [box.allTicket.id, 'all tickets'],
      [box.noQueues.id, 'no queues'],
    ]);
    const queues = new Map([
      [box.q1.id, 'queue 0'],
      [box.q2.id, 'queue 1'],
    ]);
    const names = new Map((await listUsers(box.companyId)).map((user) => [user.name, roles.get(user.id) ?? user.name]));
    const anonymous = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value, (key, v) => {
          if (key === 'id' || key === 'userId') return roles.get(v) ?? v;
          if (key === 'queueId') return queues.get(v) ?? v;
          return key === 'name' || key === 'nome' ? (names.get(v) ?? v) : v;
        }),
      );
    // Lists sorted by name break ties between companies differently: compare them by label.
    const byLabel = <T extends { name?: string; nome?: string }>(list: T[]) =>
      [...list].sort((a, b) => String(a.name ?? a.nome).localeCompare(String(b.name ?? b.nome)));
    const dashboard = viewer as unknown as DashboardViewer;
    const range = { initialDate: DAYS[0], finalDate: DAYS[2] };
    const { requests, ...board } = await getDashboard(dashboard, { date_from: DAYS[0], date_to: DAYS[2] });
    const all = anonymous({
      board,
      users: await getTicketsUsers(dashboard, range),
      days: await getTicketsDay(dashboard, range),
      hours: await Promise.all(DAYS.map((day) => getTicketsDay(dashboard, { initialDate: day, finalDate: day }))),
      report: await getReportSummary(dashboard, { from: DAYS[0], to: DAYS[2] }),
    });
    all.board.attendants = byLabel(all.board.attendants);
    all.users.data = byLabel(all.users.data);
    all.report.byUser = byLabel(all.report.byUser);
    return all;
  }

  it('read as they were: the dashboard, its charts and the reports equal the split counters, alone or mixed with new writes', async () => {
    const split = await figures(boxes.split);
    expect(split.board.counters.supportFinished).toBeGreaterThan(0);
    expect(split.hours[1].count).toBeGreaterThan(0);
    expect(split.report.byUser.length).toBe(3);
    expect(await figures(boxes.single)).toEqual(split);
    expect(await figures(boxes.mixed)).toEqual(split);
  });
});
