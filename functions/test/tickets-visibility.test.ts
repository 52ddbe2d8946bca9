/**
 * Who sees which ticket (SPEC 6) through GET /tickets, GET /tickets/{id} and GET /tickets/u/{uuid}:
 * admin with and without show-all, a user of the ticket's queue, a user of another queue, users
 * without queues with allTicket on and off, and another tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;
let other: Inbox;
const t: Record<string, TicketRecord> = {};

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

beforeAll(async () => {
  stack = await startStack();
  [inbox, other] = await Promise.all([seedInbox(stack), seedInbox(stack)]);
  const { q1, q2, inQueue, otherQueue, admin } = inbox;
  t.pendingQ1 = await inbox.seedTicket({ queueId: q1.id, updatedAt: minutesAgo(1), contactName: 'Ana Souza' });
  t.pendingQ2 = await inbox.seedTicket({ queueId: q2.id, updatedAt: minutesAgo(2) });
  t.pendingNoQueue = await inbox.seedTicket({ updatedAt: minutesAgo(3) });
  t.openInQueue = await inbox.seedTicket({ status: 'open', queueId: q1.id, userId: inQueue.id, updatedAt: minutesAgo(4) });
  t.openOther = await inbox.seedTicket({ status: 'open', queueId: q2.id, userId: otherQueue.id, updatedAt: minutesAgo(5) });
  t.openAdminQ1 = await inbox.seedTicket({ status: 'open', queueId: q1.id, userId: admin.id, updatedAt: minutesAgo(6) });
  t.closedInQueue = await inbox.seedTicket({ status: 'closed', queueId: q1.id, userId: inQueue.id, updatedAt: minutesAgo(7) });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

async function ids(token: string, query: Record<string, string>) {
  const res = await call('GET /tickets', { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.tickets as { id: number }[]).map((ticket) => ticket.id);
}

describe('GET /tickets visibility', () => {
  it('admin with showAll sees every ticket of the status, newest first; narrowed by queueIds (plus no queue)', async () => {
    const token = inbox.admin.token;
    expect(await ids(token, { status: 'pending', showAll: 'true' })).toEqual([t.pendingQ1!.id, t.pendingQ2!.id, t.pendingNoQueue!.id]);
    expect(await ids(token, { status: 'open', showAll: 'true' })).toEqual([t.openInQueue!.id, t.openOther!.id, t.openAdminQ1!.id]);
    expect(await ids(token, { status: 'pending', showAll: 'true', queueIds: JSON.stringify([inbox.q1.id]) })).toEqual([
      t.pendingQ1!.id,
      t.pendingNoQueue!.id,
    ]);
  });

  it('admin without showAll sees their own open tickets and the pending ones without a queue', async () => {
    expect(await ids(inbox.admin.token, { status: 'open' })).toEqual([t.openAdminQ1!.id]);
    expect(await ids(inbox.admin.token, { status: 'pending' })).toEqual([t.pendingNoQueue!.id]);
  });

  it('a user of the queue sees its pending tickets and their own open and closed ones; showAll is ignored', async () => {
    const token = inbox.inQueue.token;
    expect(await ids(token, { status: 'pending', showAll: 'true' })).toEqual([t.pendingQ1!.id]);
    expect(await ids(token, { status: 'open', showAll: 'true' })).toEqual([t.openInQueue!.id]);
    expect(await ids(token, { status: 'closed' })).toEqual([t.closedInQueue!.id]);
    // Selecting a queue that is not theirs shows nothing of it.
    expect(await ids(token, { status: 'pending', queueIds: JSON.stringify([inbox.q2.id]) })).toEqual([]);
  });

  it('a user of another queue sees that queue only', async () => {
    expect(await ids(inbox.otherQueue.token, { status: 'pending' })).toEqual([t.pendingQ2!.id]);
    expect(await ids(inbox.otherQueue.token, { status: 'open' })).toEqual([t.openOther!.id]);
  });

  it('pending tickets without a queue only for allTicket = enabled', async () => {
    expect(await ids(inbox.allTicket.token, { status: 'pending' })).toEqual([t.pendingNoQueue!.id]);
    expect(await ids(inbox.noQueues.token, { status: 'pending' })).toEqual([]);
  });

  it('search tab (no status) merges the lists the user may see, and text search finds the contact by name', async () => {
    expect(await ids(inbox.inQueue.token, {})).toEqual([t.pendingQ1!.id, t.openInQueue!.id, t.closedInQueue!.id]);
    expect(await ids(inbox.admin.token, { showAll: 'true', searchParam: 'ana souza' })).toEqual([t.pendingQ1!.id]);
    expect(await ids(inbox.admin.token, { showAll: 'true', searchParam: t.openOther!.contact.number })).toEqual([t.openOther!.id]);
  });

  it('rows carry the SPEC 3 shape with queue, user and connection names', async () => {
    const res = await call('GET /tickets', { token: inbox.inQueue.token, query: { status: 'open' } });
    expect(res.body).toMatchObject({ hasMore: false });
    expect(res.body.tickets[0]).toMatchObject({
      id: t.openInQueue!.id,
      uuid: t.openInQueue!.uuid,
      status: 'open',
      queue: { id: inbox.q1.id, name: 'Vendas', color: '#111111' },
      user: { id: inbox.inQueue.id },
      whatsapp: { id: inbox.connection.id, name: 'Principal' },
      contact: { name: t.openInQueue!.contact.name },
      tags: [],
    });
  });

  it('rejects malformed filters with a 400 naming the field', async () => {
    const res = await call('GET /tickets', { token: inbox.admin.token, query: { queueIds: '[1,' } });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'queueIds' } });
    const bad = await call('GET /tickets', { token: inbox.admin.token, query: { cursor: 'garbage' } });
    expect(bad).toMatchObject({ status: 400, body: { field: 'cursor' } });
  });
});

describe('GET /ticket/kanban', () => {
  it("holds the open and pending tickets of the caller's queues, narrowed by queueIds", async () => {
    const kanban = async (token: string, query: Record<string, string> = {}) =>
      ((await call('GET /ticket/kanban', { token, query })).body.tickets as { id: number }[]).map((ticket) => ticket.id);
    expect(await kanban(inbox.inQueue.token)).toEqual([t.pendingQ1!.id, t.openInQueue!.id, t.openAdminQ1!.id]);
    expect(await kanban(inbox.otherQueue.token)).toEqual([t.pendingQ2!.id, t.openOther!.id]);
    expect(await kanban(inbox.inQueue.token, { queueIds: JSON.stringify([inbox.q2.id]) })).toEqual([]);
    expect(await kanban(inbox.noQueues.token)).toEqual([]);
  });

  it("shows an admin the company's whole board, though the admin has no queues (the owner made at sign-up, issue 25 item 5)", async () => {
    const kanban = async (token: string, query: Record<string, string> = {}) =>
      ((await call('GET /ticket/kanban', { token, query })).body.tickets as { id: number }[]).map((ticket) => ticket.id);
    expect(await kanban(inbox.admin.token)).toEqual([
      t.pendingQ1!.id,
      t.pendingQ2!.id,
      t.pendingNoQueue!.id,
      t.openInQueue!.id,
      t.openOther!.id,
      t.openAdminQ1!.id,
    ]);
    // Narrowed to a queue, with the tickets of none (as the admin's show-all list is).
    expect(await kanban(inbox.admin.token, { queueIds: JSON.stringify([inbox.q1.id]) })).toEqual([
      t.pendingQ1!.id,
      t.pendingNoQueue!.id,
      t.openInQueue!.id,
      t.openAdminQ1!.id,
    ]);
    expect(await kanban(other.admin.token)).toEqual([]);
  });
});

describe('GET /tickets/{id} and /tickets/u/{uuid}', () => {
  it('403 ERR_NO_PERMISSION when the user may not see it, 200 when they may', async () => {
    const get = (token: string, ticket: TicketRecord) => call('GET /tickets/{id}', { token, params: { id: ticket.id } });
    expect((await get(inbox.inQueue.token, t.pendingQ2!)).body).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await get(inbox.inQueue.token, t.pendingQ2!)).status).toBe(403);
    expect((await get(inbox.inQueue.token, t.openOther!)).status).toBe(403);
    expect((await get(inbox.inQueue.token, t.openAdminQ1!)).status).toBe(200); // their queue
    expect((await get(inbox.allTicket.token, t.pendingNoQueue!)).status).toBe(200);
    expect((await get(inbox.noQueues.token, t.pendingNoQueue!)).status).toBe(403);
    expect((await get(inbox.admin.token, t.openOther!)).body).toMatchObject({ id: t.openOther!.id, status: 'open' });
    const byUuid = await call('GET /tickets/u/{uuid}', { token: inbox.inQueue.token, params: { uuid: t.pendingQ1!.uuid } });
    expect(byUuid.body).toMatchObject({ id: t.pendingQ1!.id });
    const deniedByUuid = await call('GET /tickets/u/{uuid}', { token: inbox.inQueue.token, params: { uuid: t.pendingQ2!.uuid } });
    expect(deniedByUuid.status).toBe(403);
  });

  it("another tenant's ticket is 404 ERR_NO_TICKET_FOUND, by id and by uuid, and never in its lists", async () => {
    const res = await call('GET /tickets/{id}', { token: other.admin.token, params: { id: t.openOther!.id } });
    expect(res).toEqual({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
    const byUuid = await call('GET /tickets/u/{uuid}', { token: other.admin.token, params: { uuid: t.openOther!.uuid } });
    expect(byUuid).toEqual({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
    expect(await ids(other.admin.token, { showAll: 'true' })).toEqual([]);
    const put = await call('PUT /tickets/{id}', { token: other.admin.token, params: { id: t.pendingQ1!.id }, body: { status: 'open' } });
    expect(put.status).toBe(404);
  });
});
