/**
 * GET /messages/{ticketId} over DynamoDB Local: newest page first, each page in reading order, the
 * cursor and pageNumber walking the same pages, unread back to 0 with an updateUnread event for the
 * ticket's viewers, the ticket's visibility (404 for another tenant, 403 for a user outside it), and
 * the optional page size (limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Effects } from '#domain/messages/effects';
import { listTicketMessages } from '#domain/outbound/list';
import { getTicket } from '#storage/tickets/tickets';
import { createConnection, type Env, invoke, seedTicket, skipTicketIds, startEnv, storeInbound } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let connectionA: number;

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  await skipTicketIds(b.companyId);
  connectionA = (await createConnection(a)).id;
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

const page = (ticketId: number, query: Record<string, string> = {}, token = a.admin.token) =>
  invoke('GET /messages/{id}', { token, params: { id: ticketId }, query });

describe('GET /messages/{ticketId}', () => {
  it('pages 45 messages newest first (20, 20, 5), oldest to newest inside a page; cursor and pageNumber agree', async () => {
    // Prepare
    const ticket = await seedTicket(a, connectionA, { status: 'open', userId: a.admin.id });
    const start = Date.now() - 100_000;
    for (let i = 0; i < 45; i++) await storeInbound(ticket, `m${i}`, start + i * 1000);
    // Act
    const byNumber = await Promise.all([1, 2, 3].map((n) => page(ticket.id, { pageNumber: String(n) })));
    const first = byNumber[0]?.body;
    const second = await page(ticket.id, { cursor: first.cursor });
    const third = await page(ticket.id, { cursor: second.body.cursor });
    // Assess
    const bodies = (res: { body: { messages: { body: string }[] } }) => res.body.messages.map((m) => m.body);
    const expected = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `m${from + i}`);
    expect(bodies(byNumber[0] as never)).toEqual(expected(25, 45));
    expect(bodies(byNumber[1] as never)).toEqual(expected(5, 25));
    expect(bodies(byNumber[2] as never)).toEqual(expected(0, 5));
    expect(byNumber.map((r) => r.body.hasMore)).toEqual([true, true, false]);
    expect(bodies(second)).toEqual(expected(5, 25));
    expect(bodies(third)).toEqual(expected(0, 5));
    expect(third.body).toMatchObject({ hasMore: false, cursor: null });
    expect(first.ticket).toMatchObject({ id: ticket.id, status: 'open', contact: { number: ticket.contact.number } });
  });

  it('sets unread back to 0 on open and tells the ticket viewers with updateUnread, once', async () => {
    const ticket = await seedTicket(a, connectionA, { status: 'open', userId: a.admin.id });
    for (let i = 0; i < 3; i++) await storeInbound(ticket, `unread ${i}`);
    expect((await getTicket(a.companyId, ticket.id))?.unreadMessages).toBe(3);
    const published: Array<{ event: string; data: unknown; target: unknown }> = [];
    const effects: Effects = {
      sendCommand: async () => undefined,
      publish: async (_companyId, event, data, target) => published.push({ event, data, target }),
      now: () => new Date(),
    };
    const viewer = {
      companyId: a.companyId,
      userId: a.admin.id,
      profile: 'admin',
      super: false,
      user: { queueIds: [], allTicket: 'disabled', name: 'Ana' },
    };
    const result = await listTicketMessages(viewer, ticket.id, { pageNumber: 1 }, effects);
    expect(result.ticket.unreadMessages).toBe(0);
    expect((await getTicket(a.companyId, ticket.id))?.unreadMessages).toBe(0);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ event: `company-${a.companyId}-ticket`, data: { action: 'updateUnread', ticketId: ticket.id } });
    // Nothing unread any more: no second event.
    await listTicketMessages(viewer, ticket.id, { pageNumber: 1 }, effects);
    expect(published).toHaveLength(1);
  });

  it("answers 404 ERR_NO_TICKET_FOUND for another tenant's ticket, 403 to a user who may not see it, 400 on bad input", async () => {
    const connectionB = (await createConnection(b)).id;
    const ticketOfB = await seedTicket(b, connectionB, { status: 'open', userId: b.admin.id });
    await storeInbound(ticketOfB, 'B secret');
    const foreign = await page(ticketOfB.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await getTicket(b.companyId, ticketOfB.id))?.unreadMessages).toBe(1);

    const ticket = await seedTicket(a, connectionA, { status: 'open', userId: a.admin.id });
    const user = await a.addUser('user');
    expect((await page(ticket.id, {}, user.token)).status).toBe(403);
    // Pending with no queue: seen by allTicket users only; assigned to the user: seen.
    const mine = await seedTicket(a, connectionA, { status: 'open', userId: user.id });
    expect((await page(mine.id, {}, user.token)).status).toBe(200);

    const queries: Record<string, string>[] = [
      { pageNumber: '0' },
      { pageNumber: '101' },
      { cursor: 'not-a-cursor' },
      { cursor: 'eyJwayI6IkMjMSJ9' },
    ];
    for (const query of queries) {
      const res = await page(ticket.id, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    await env.commands.drain();
  });

  it('takes a page size (limit, 1..100): the newest 100 in one page, the next from its cursor; bad sizes are a 400 naming limit', async () => {
    // Prepare
    const ticket = await seedTicket(a, connectionA, { status: 'open', userId: a.admin.id });
    const start = Date.now() - 200_000;
    for (let i = 0; i < 130; i++) await storeInbound(ticket, `n${i}`, start + i * 1000);
    // Act
    const first = await page(ticket.id, { limit: '100' });
    const rest = await page(ticket.id, { limit: '100', cursor: first.body.cursor });
    const second = await page(ticket.id, { limit: '100', pageNumber: '2' });
    // Assess
    const bodies = (res: { body: { messages: { body: string }[] } }) => res.body.messages.map((m) => m.body);
    const expected = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `n${from + i}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(bodies(first)).toEqual(expected(30, 130));
    expect(first.body.hasMore).toBe(true);
    expect(bodies(rest)).toEqual(expected(0, 30));
    expect(rest.body).toMatchObject({ hasMore: false, cursor: null });
    expect(bodies(second)).toEqual(expected(0, 30));
    // Without limit the page is still 20.
    expect(bodies(await page(ticket.id))).toEqual(expected(110, 130));
    for (const limit of ['0', '101', '2.5', 'ten', '-1']) {
      const res = await page(ticket.id, { limit });
      expect(res.status, limit).toBe(400);
      expect(res.body, limit).toMatchObject({ field: 'limit', message: 'limit must be a whole number from 1 to 100' });
    }
    // A pageNumber walk stays within the newest 2000 messages whatever the page size.
    const deep = await page(ticket.id, { limit: '100', pageNumber: '21' });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ field: 'pageNumber' });
    await env.commands.drain();
  });
});
