/**
 * GET /ticket/kanban on a board of more than one page (issue 25, Kanban): the answer holds 200
 * tickets with hasMore, and its nextCursor, passed back as `cursor`, reads the rest, so a client
 * that follows it gets every open and pending ticket once. Before, the route had no cursor: the
 * cards past 200 could not be read at all. A cursor of another list or garbage is a 400 on cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;
const seeded: number[] = [];
const BOARD = 230;

beforeAll(async () => {
  stack = await startStack();
  inbox = await seedInbox(stack);
  const at = Date.now() - BOARD * 1000;
  for (let i = 0; i < BOARD; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, BOARD - i) }, (_, j) =>
        inbox.seedTicket({
          status: (i + j) % 2 ? 'open' : 'pending',
          queueId: inbox.q1.id,
          userId: (i + j) % 2 ? inbox.admin.id : null,
          updatedAt: new Date(at + (i + j) * 1000).toISOString(),
        }),
      ),
    );
    seeded.push(...batch.map((ticket) => ticket.id));
  }
  // A closed one is never on the board.
  await inbox.seedTicket({ status: 'closed', queueId: inbox.q1.id, userId: inbox.admin.id });
}, 240_000);
afterAll(async () => stack?.stop());

type Page = { tickets: { id: number }[]; hasMore: boolean; nextCursor?: string };
const kanban = async (token: string, query: Record<string, string> = {}) => {
  const res = await call('GET /ticket/kanban', { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page;
};

describe('GET /ticket/kanban paging', () => {
  it('answers 200 with hasMore and a cursor; following the cursor reads every ticket of the board once', async () => {
    const first = await kanban(inbox.admin.token);
    expect(first.tickets).toHaveLength(200);
    expect(first.hasMore).toBe(true);
    expect(first.nextCursor).toEqual(expect.any(String));
    const all = [...first.tickets];
    let cursor = first.nextCursor;
    for (let pages = 1; cursor && pages < 10; pages++) {
      const page = await kanban(inbox.admin.token, { cursor });
      all.push(...page.tickets);
      cursor = page.hasMore ? page.nextCursor : undefined;
    }
    const ids = all.map((ticket) => ticket.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort((a, b) => a - b)).toEqual([...seeded].sort((a, b) => a - b));
  }, 120_000);

  it("the user's board pages too (their queue), and a cursor works only for the list it was made for", async () => {
    const first = await kanban(inbox.inQueue.token);
    expect(first.hasMore).toBe(true);
    const rest = await kanban(inbox.inQueue.token, { cursor: first.nextCursor as string });
    expect(first.tickets.length + rest.tickets.length).toBe(BOARD);
    // The admin's cursor on another user's board, or on a narrowed board, is refused.
    const adminFirst = await kanban(inbox.admin.token);
    const foreign = await call('GET /ticket/kanban', { token: inbox.inQueue.token, query: { cursor: adminFirst.nextCursor as string } });
    expect(foreign).toMatchObject({ status: 400, body: { field: 'cursor' } });
    const narrowed = await call('GET /ticket/kanban', {
      token: inbox.admin.token,
      query: { cursor: adminFirst.nextCursor as string, queueIds: JSON.stringify([inbox.q2.id]) },
    });
    expect(narrowed).toMatchObject({ status: 400, body: { field: 'cursor' } });
    const garbage = await call('GET /ticket/kanban', { token: inbox.admin.token, query: { cursor: 'garbage' } });
    expect(garbage).toMatchObject({ status: 400, body: { field: 'cursor' } });
  }, 120_000);
});
