/**
 * Issue 4's cost rule: a page of the ticket lists costs the same DynamoDB requests and items read
 * whether the tenant has 40 or 400 tickets (a wrapped client counts them), and walking the pages by
 * cursor or by pageNumber returns every ticket once, newest first. Issue 15's: a page of the inbox
 * costs at most 4 requests in a busy container, the caller's identity included (the user and the
 * company in one BatchGetItem; the plan and the rows' names from the per-container read caches).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { FILTERED_LIMIT, FILTERED_READS } from '../src/domain/tickets/list.ts';
import { clearReadCaches } from '../src/storage/read-cache.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

let stack: Stack;
let small: Inbox;
let large: Inbox;
let largeTickets: TicketRecord[] = [];
const meter = { requests: 0, itemsRead: 0 };

async function seedMany(inbox: Inbox, count: number): Promise<TicketRecord[]> {
  const base = Date.parse('2030-01-01T00:00:00Z');
  const out: TicketRecord[] = [];
  for (let i = 0; i < count; i += 25) {
    const batch = Array.from({ length: Math.min(25, count - i) }, (_, j) => {
      const n = i + j;
      const status = n % 4 === 0 ? 'open' : 'pending';
      return inbox.seedTicket({
        status,
        queueId: n % 2 === 0 ? inbox.q1.id : inbox.q2.id,
        userId: status === 'open' ? inbox.inQueue.id : null,
        updatedAt: new Date(base + n * 1000).toISOString(),
        contactName: n % 50 === 7 ? `Needle ${n}` : undefined,
        unreadMessages: n % 10 === 3 ? 2 : 0,
      });
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

beforeAll(async () => {
  stack = await startStack();
  [small, large] = await Promise.all([seedInbox(stack), seedInbox(stack)]);
  await seedMany(small, 40);
  largeTickets = await seedMany(large, 400);
  // The cursor signing key is read once per container (storage/cursors.ts), like the JWKS: not a page's cost.
  await call('GET /tickets', { token: large.admin.token, query: { status: 'pending', showAll: 'true' } });
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      meter.requests++;
      const result = await next(args);
      const output = result.output as { ScannedCount?: number; Item?: unknown; Responses?: Record<string, unknown[]> };
      meter.itemsRead +=
        output.ScannedCount ?? (output.Item ? 1 : 0) + Object.values(output.Responses ?? {}).reduce((n, r) => n + r.length, 0);
      return result;
    },
    { step: 'initialize', name: 'ticketsPageMeter' },
  );
}, 240_000);
afterAll(async () => {
  documentClient().middlewareStack.remove('ticketsPageMeter');
  await stack?.stop();
});

async function measuredNow(token: string, query: Record<string, string>) {
  meter.requests = 0;
  meter.itemsRead = 0;
  const res = await call('GET /tickets', { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...meter, rows: res.body.tickets.length as number, body: res.body };
}

/**
 * The page as a busy container serves it: the same request just before fills the read caches (the
 * plan, the tenant's queue, connection and user names, the mfaRequired setting), which then serve it
 * for 5 s. The caches start empty, so none filled earlier (by the seeding) runs out between the two.
 */
async function measured(token: string, query: Record<string, string>) {
  clearReadCaches();
  await measuredNow(token, query);
  return measuredNow(token, query);
}

/** Auth (the user and the company, one BatchGetItem): the same for any tenant size. */
const OVERHEAD_REQUESTS = 1;
/** Its items: the user and the company. */
const OVERHEAD_ITEMS = 2;
/**
 * Read once per container and tenant every 5 s: the plan, the queues', connections' and users' names,
 * and the company's mfaRequired setting (asked of every user without a second factor, issue 21).
 */
const CACHED_REQUESTS = 5;
/** Issue 15: what a page of the inbox may cost, identity included. */
const PAGE_REQUESTS = 4;

const lists: [string, (i: Inbox) => string, Record<string, string>, number][] = [
  ['admin show-all pending', (i) => i.admin.token, { status: 'pending', showAll: 'true' }, 1],
  ['admin show-all open with queueIds', (i) => i.admin.token, { status: 'open', showAll: 'true', queueIds: '[1,2]' }, 3],
  ['user pending of their queue', (i) => i.inQueue.token, { status: 'pending' }, 1],
  ['user assigned (open)', (i) => i.inQueue.token, { status: 'open' }, 1],
  ['search by contact name', (i) => i.admin.token, { showAll: 'true', searchParam: 'needle' }, 3],
  ['unread only', (i) => i.admin.token, { showAll: 'true', status: 'pending', withUnreadMessages: 'true' }, 1],
];

describe('page cost does not grow with the tenant', () => {
  for (const [name, token, query, partitions] of lists) {
    it(`${name}: requests and items read bounded by the partitions, not the tenant`, async () => {
      const q = (inbox: Inbox) => (query.queueIds ? { ...query, queueIds: JSON.stringify([inbox.q1.id, inbox.q2.id]) } : query);
      const at40 = await measured(token(small), q(small));
      const at400 = await measured(token(large), q(large));
      console.log(
        `${name}: 40 -> ${at40.requests} requests / ${at40.itemsRead} items (${at40.rows} rows); 400 -> ${at400.requests} requests / ${at400.itemsRead} items (${at400.rows} rows)`,
      );
      const filtered = Boolean(query.searchParam || query.withUnreadMessages);
      if (filtered) {
        // Filtered rows: at most FILTERED_READS Queries of FILTERED_LIMIT rows per partition.
        expect(at400.requests).toBeLessThanOrEqual(OVERHEAD_REQUESTS + partitions * FILTERED_READS);
        expect(at400.itemsRead).toBeLessThanOrEqual(OVERHEAD_ITEMS + partitions * FILTERED_READS * FILTERED_LIMIT);
      } else {
        // Plain lists: one Query per partition, of its share of the page (pageSize / k + 1 rows), at any
        // size: about a page of rows read, not a page per partition.
        expect(at400.requests).toBe(at40.requests);
        expect(at400.requests).toBeLessThanOrEqual(OVERHEAD_REQUESTS + partitions);
        expect(at400.itemsRead).toBeLessThanOrEqual(OVERHEAD_ITEMS + 41 + partitions);
      }
    });
  }

  it('a plain list reads at most pageSize + 1 rows per partition', async () => {
    const page = await measured(large.admin.token, { status: 'pending', showAll: 'true' });
    expect(page.rows).toBe(40);
    // 41 rows from gsi3 + the identity (user, company).
    expect(page.itemsRead).toBe(41 + OVERHEAD_ITEMS);
  });
});

describe('a page of the inbox costs at most 4 requests, identity included', () => {
  const inbox: [string, (i: Inbox) => string, (i: Inbox) => Record<string, string>][] = [
    ['admin open list (showAll)', (i) => i.admin.token, () => ({ status: 'open', showAll: 'true', pageNumber: '1' })],
    [
      'admin pending of two queues (three partitions with the queueless)',
      (i) => i.admin.token,
      (i) => ({ status: 'pending', queueIds: JSON.stringify([i.q1.id, i.q2.id]) }),
    ],
    ['user pending of their queue', (i) => i.inQueue.token, () => ({ status: 'pending' })],
    ['user assigned (open)', (i) => i.inQueue.token, () => ({ status: 'open' })],
    ['search by contact name', (i) => i.admin.token, () => ({ showAll: 'true', searchParam: 'needle' })],
  ];
  for (const [name, token, query] of inbox) {
    it(`${name}: at most ${PAGE_REQUESTS} requests; a cold container reads its fixed records once more`, async () => {
      // Prepare: a container that has not served this tenant for 5 s
      clearReadCaches();

      // Act
      const cold = await measuredNow(token(large), query(large));
      const warm = await measuredNow(token(large), query(large));

      // Assess
      expect(cold.rows).toBeGreaterThan(0);
      expect(warm.body).toEqual(cold.body);
      expect(warm.requests).toBeLessThanOrEqual(PAGE_REQUESTS);
      expect(cold.requests).toBeLessThanOrEqual(warm.requests + CACHED_REQUESTS);
    });
  }
});

describe('paging', () => {
  it('walks every pending ticket once, newest first, by cursor; pageNumber gives the same pages', async () => {
    const expected = largeTickets
      .filter((t) => t.status === 'pending')
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .map((t) => t.id);
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 1; page <= 20; page++) {
      const res = await call('GET /tickets', {
        token: large.admin.token,
        query: { status: 'pending', showAll: 'true', queueIds: JSON.stringify([large.q1.id, large.q2.id]), ...(cursor ? { cursor } : {}) },
      });
      seen.push(...res.body.tickets.map((t: { id: number }) => t.id));
      if (page === 3) {
        const byNumber = await call('GET /tickets', {
          token: large.admin.token,
          query: { status: 'pending', showAll: 'true', queueIds: JSON.stringify([large.q1.id, large.q2.id]), pageNumber: '3' },
        });
        expect(byNumber.body.tickets.map((t: { id: number }) => t.id)).toEqual(res.body.tickets.map((t: { id: number }) => t.id));
      }
      if (!res.body.hasMore) break;
      cursor = res.body.nextCursor;
    }
    expect(seen).toEqual(expected);
  });

  it('a filtered list (search) pages through its bounded reads to every match', async () => {
    const expected = largeTickets
      .filter((t) => t.contact.name.startsWith('Needle'))
      .map((t) => t.id)
      .reverse();
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await call('GET /tickets', {
        token: large.admin.token,
        query: { showAll: 'true', searchParam: 'needle', ...(cursor ? { cursor } : {}) },
      });
      seen.push(...res.body.tickets.map((t: { id: number }) => t.id));
      if (!res.body.hasMore) break;
      cursor = res.body.nextCursor;
    }
    expect(seen).toEqual(expected);
  });
});
