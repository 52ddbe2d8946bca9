/**
 * Write shards of a busy tenant's ticket lists (storage/list-shards.ts, issue 15) over DynamoDB Local
 * and cognito-local: once the tenant has shards its tickets spread over them, and every list a person
 * reads (the tabs, show-all, queue filters, tags, kanban, paging, a cursor made before the change)
 * still shows every ticket once, newest first. The shard count grows with the tenant's inbound rate
 * (domain/inbound/tenant-load.ts) and never shrinks, and the API never shows it.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { observeInboundLoad, shardsFor } from '../src/domain/inbound/tenant-load.ts';
import { getCompany, raiseListShards } from '../src/storage/companies/companies.ts';
import { table } from '../src/storage/db.ts';
import { addToWindow } from '../src/storage/rate-limits.ts';
import { createTag, newTagId, setTicketTags } from '../src/storage/tags.ts';
import { ticketLists } from '../src/storage/tickets/list-keys.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { updateTicketState } from '../src/storage/tickets/tickets.ts';
import { deliver, recorder, waMessage } from './inbound-harness.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const secondsAgo = (n: number) => new Date(Date.now() - n * 1000).toISOString();

/** Ids of one list page and its cursor, as the inbox reads them. */
async function page(token: string, query: Record<string, string>) {
  const res = await call('GET /tickets', { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: (res.body.tickets as { id: number }[]).map((t) => t.id), next: res.body.nextCursor as string | undefined };
}

/** Every page of a list, following its cursors. */
async function allPages(token: string, query: Record<string, string>): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const got = await page(token, cursor ? { ...query, cursor } : query);
    ids.push(...got.ids);
    cursor = got.next;
    if (!cursor) return ids;
  }
  throw new Error('more than 20 pages');
}

const newestFirst = (tickets: TicketRecord[]) =>
  [...tickets].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id).map((t) => t.id);

/** The gsi1 partitions (`#s<n>` included) that hold the tenant's rows of one list. */
async function partitionsHolding(partitionBase: string, ids: number[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let shard = 0; shard < 8; shard++) {
    const partition = shard ? `${partitionBase}#s${shard}` : partitionBase;
    const out = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
      }),
    );
    if ((out.Items ?? []).some((item) => ids.includes(Number(item.id)))) found.add(partition);
  }
  return found;
}

describe('a sharded tenant', () => {
  let inbox: Inbox;
  const pendingQ1: TicketRecord[] = [];
  const pendingNoQueue: TicketRecord[] = [];
  const openMine: TicketRecord[] = [];
  const closed: TicketRecord[] = [];

  beforeAll(async () => {
    inbox = await seedInbox(stack);
    expect(await raiseListShards(inbox.companyId, 4)).toBe(true);
    let age = 1000;
    for (let i = 0; i < 30; i++) pendingQ1.push(await inbox.seedTicket({ queueId: inbox.q1.id, updatedAt: secondsAgo(age--) }));
    for (let i = 0; i < 18; i++) pendingNoQueue.push(await inbox.seedTicket({ updatedAt: secondsAgo(age--) }));
    for (let i = 0; i < 9; i++)
      openMine.push(
        await inbox.seedTicket({ status: 'open', queueId: inbox.q1.id, userId: inbox.inQueue.id, updatedAt: secondsAgo(age--) }),
      );
    for (let i = 0; i < 5; i++)
      closed.push(await inbox.seedTicket({ status: 'closed', queueId: inbox.q2.id, updatedAt: secondsAgo(age--) }));
  }, 180_000);

  it('writes its tickets over the four shards of each queue and status list', async () => {
    const q1 = await partitionsHolding(
      ticketLists.byStatusAndQueue(inbox.companyId, 'pending', inbox.q1.id),
      pendingQ1.map((t) => t.id),
    );
    expect(q1.size).toBe(4);
    for (const ticket of pendingQ1)
      expect(ticketLists.byStatusAndQueue(inbox.companyId, 'pending', inbox.q1.id, ticket.id % 4)).toMatch(/#Q#\d+(#s[123])?$/);
  });

  it('shows every pending ticket once, newest first, across pages (admin show-all, with and without a queue filter)', async () => {
    const token = inbox.admin.token;
    const everyPending = newestFirst([...pendingQ1, ...pendingNoQueue]);
    const first = await page(token, { status: 'pending', showAll: 'true' });
    expect(first.ids.length).toBeGreaterThan(20);
    expect(first.ids).toEqual(everyPending.slice(0, first.ids.length));
    expect(await allPages(token, { status: 'pending', showAll: 'true' })).toEqual(everyPending);
    expect(await allPages(token, { status: 'pending', showAll: 'true', queueIds: JSON.stringify([inbox.q1.id]) })).toEqual(everyPending);
    expect(await allPages(token, { status: 'pending', showAll: 'true', queueIds: JSON.stringify([inbox.q2.id]) })).toEqual(
      newestFirst(pendingNoQueue),
    );
    expect(await allPages(token, { status: 'closed', showAll: 'true' })).toEqual(newestFirst(closed));
  });

  it('shows each attendant their own view: the queue’s pending, their open, the no-queue pending with allTicket', async () => {
    expect(await allPages(inbox.inQueue.token, { status: 'pending' })).toEqual(newestFirst(pendingQ1));
    expect(await allPages(inbox.inQueue.token, { status: 'open' })).toEqual(newestFirst(openMine));
    expect(await allPages(inbox.allTicket.token, { status: 'pending' })).toEqual(newestFirst(pendingNoQueue));
    expect(await allPages(inbox.otherQueue.token, { status: 'pending' })).toEqual([]);
  });

  it('reads a tag’s lists in every shard, and the kanban too', async () => {
    const now = new Date().toISOString();
    const tag = await createTag({
      id: await newTagId(inbox.companyId),
      companyId: inbox.companyId,
      name: 'VIP',
      color: '#ff0000',
      kanban: 1,
      userId: null,
      ticketsCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    const tagged = pendingQ1.slice(0, 8);
    for (const ticket of tagged) await setTicketTags(ticket, [{ id: tag.id, name: tag.name, color: tag.color }]);
    expect(await allPages(inbox.admin.token, { status: 'pending', showAll: 'true', tags: JSON.stringify([tag.id]) })).toEqual(
      newestFirst(tagged),
    );
    const kanban = await call('GET /ticket/kanban', { token: inbox.inQueue.token });
    expect(kanban.status).toBe(200);
    expect((kanban.body.tickets as { id: number }[]).map((t) => t.id).sort()).toEqual([...pendingQ1, ...openMine].map((t) => t.id).sort());
  });
});

describe('sharding an existing tenant', () => {
  it('keeps its tickets in view, continues a cursor made before, and moves a ticket to its shard on its next change', async () => {
    const inbox = await seedInbox(stack);
    const tickets: TicketRecord[] = [];
    for (let i = 0; i < 50; i++) tickets.push(await inbox.seedTicket({ queueId: inbox.q1.id, updatedAt: secondsAgo(2000 - i) }));
    const query = { status: 'pending', showAll: 'true' };
    const first = await page(inbox.admin.token, query);
    expect(first.next).toBeDefined();

    expect(await raiseListShards(inbox.companyId, 4)).toBe(true);
    // Nothing moved yet: one partition, and the old cursor continues where it was.
    const base = ticketLists.byStatusAndQueue(inbox.companyId, 'pending', inbox.q1.id);
    expect(
      await partitionsHolding(
        base,
        tickets.map((t) => t.id),
      ),
    ).toEqual(new Set([base]));
    const rest = await allPages(inbox.admin.token, { ...query, cursor: first.next as string });
    expect([...first.ids, ...rest]).toEqual(newestFirst(tickets));

    // A state change writes the ticket into its shard; the list reads it there.
    const moved = tickets.find((t) => t.id % 4 !== 0) as TicketRecord;
    const transferred = await updateTicketState(moved, { queueId: inbox.q2.id });
    const back = await updateTicketState(transferred, { queueId: inbox.q1.id });
    const where = await partitionsHolding(base, [moved.id]);
    expect(where).toEqual(new Set([`${base}#s${moved.id % 4}`]));
    const everything = await allPages(inbox.admin.token, query);
    expect(everything[0]).toBe(back.id);
    expect(everything.sort()).toEqual(tickets.map((t) => t.id).sort());
  });

  it('moves a conversation under way to its shard with its next message', async () => {
    // Prepare: 8 conversations open with an attendant (the bot has nothing to do for their messages), then the tenant sharded
    const inbox = await seedInbox(stack);
    const numbers = Array.from({ length: 8 }, (_, i) => `55119${72_000_000 + i}${inbox.companyId}`);
    const tickets: TicketRecord[] = [];
    for (const [i, number] of numbers.entries())
      tickets.push(
        await inbox.seedTicket({ number, status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id, updatedAt: secondsAgo(100 - i) }),
      );
    const ids = tickets.map((t) => t.id);
    const base = ticketLists.byStatusAndQueue(inbox.companyId, 'open', inbox.q1.id);
    expect(await partitionsHolding(base, ids)).toEqual(new Set([base]));
    expect(await raiseListShards(inbox.companyId, 4)).toBe(true);

    // Act: each contact writes again
    const next = numbers.map((number) => ({
      kind: 'message' as const,
      companyId: inbox.companyId,
      connectionId: inbox.connection.id,
      message: waMessage({ number, body: 'ainda aí?', timestamp: Date.now() }),
    }));
    expect((await deliver(recorder(), ...next)).batchItemFailures).toEqual([]);

    // Assess: each ticket in its shard (id % 4), and the attendant's open list shows all 8 once
    for (const ticket of tickets) {
      const shard = ticket.id % 4;
      expect(await partitionsHolding(base, [ticket.id])).toEqual(new Set([shard ? `${base}#s${shard}` : base]));
    }
    expect(new Set(ids.map((id) => id % 4)).size).toBeGreaterThan(1);
    const listed = await allPages(inbox.inQueue.token, { status: 'open' });
    expect([...listed].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('refuses a cursor of another list or a forged one, sharded or not', async () => {
    const inbox = await seedInbox(stack);
    await raiseListShards(inbox.companyId, 4);
    for (let i = 0; i < 45; i++) await inbox.seedTicket({ updatedAt: secondsAgo(3000 - i) });
    const first = await page(inbox.admin.token, { status: 'pending', showAll: 'true' });
    expect(first.next).toBeDefined();
    for (const cursor of [first.next as string, 'x', `${first.next}x`]) {
      const res = await call('GET /tickets', { token: inbox.inQueue.token, query: { status: 'pending', cursor } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'cursor' });
    }
  });
});

describe('the shard count', () => {
  it('is raised by the inbound consumer for a tenant past 100 messages a second, and its next tickets spread', async () => {
    const inbox = await seedInbox(stack);
    // Stay inside one 10 s window for the count and the batch.
    if (Date.now() % 10_000 > 7_000) await new Promise((resolve) => setTimeout(resolve, 10_000 - (Date.now() % 10_000)));
    await addToWindow(inbox.companyId, 'inbound', 985, 10);
    const contactWrites = (count: number, from: number) =>
      Array.from({ length: count }, (_, i) => ({
        kind: 'message' as const,
        companyId: inbox.companyId,
        connectionId: inbox.connection.id,
        message: waMessage({ number: `55119${String(from + i).padStart(8, '0')}`, timestamp: Date.now() }),
      }));
    expect((await deliver(recorder(), ...contactWrites(10, 71_000_000))).batchItemFailures).toEqual([]);
    expect((await getCompany(inbox.companyId))?.listShards).toBeUndefined();
    expect((await deliver(recorder(), ...contactWrites(10, 71_000_010))).batchItemFailures).toEqual([]);
    expect((await getCompany(inbox.companyId))?.listShards).toBe(4);

    expect((await deliver(recorder(), ...contactWrites(8, 71_000_020))).batchItemFailures).toEqual([]);
    const ids = await allPages(inbox.admin.token, { status: 'pending', showAll: 'true' });
    expect(ids).toHaveLength(28);
    const newest = ids.slice(0, 8);
    const partitions = await partitionsHolding(ticketLists.byStatusAndQueue(inbox.companyId, 'pending', null), newest);
    expect(partitions.size).toBeGreaterThan(1);
  });

  it('grows with the tenant’s inbound rate, only past a step, and never shrinks', async () => {
    const inbox = await seedInbox(stack);
    const steps = [
      { messagesPerSecond: 20, shards: 16 },
      { messagesPerSecond: 5, shards: 4 },
    ];
    const now = Date.parse('2030-01-01T00:00:00.000Z');
    expect(shardsFor(49, steps)).toBe(1);
    expect(shardsFor(50, steps)).toBe(4);
    expect(shardsFor(200, steps)).toBe(16);

    // 45 messages in the window (4.5 a second): counted, not raised.
    expect(await observeInboundLoad(new Map([[inbox.companyId, 45]]), { now, steps })).toEqual([]);
    expect((await getCompany(inbox.companyId))?.listShards).toBeUndefined();
    // Fewer than flushEvery gather in memory, uncounted; the next batch takes the window past 5 a second.
    expect(await observeInboundLoad(new Map([[inbox.companyId, 3]]), { now, steps })).toEqual([]);
    expect(await observeInboundLoad(new Map([[inbox.companyId, 20]]), { now: now + 1000, steps })).toEqual([inbox.companyId]);
    expect((await getCompany(inbox.companyId))?.listShards).toBe(4);
    // A quieter window changes nothing; a lower count is refused.
    expect(await observeInboundLoad(new Map([[inbox.companyId, 25]]), { now: now + 60_000, steps })).toEqual([]);
    expect(await raiseListShards(inbox.companyId, 2)).toBe(false);
    expect((await getCompany(inbox.companyId))?.listShards).toBe(4);
  });

  it('is raised by the default step (100 messages a second) and never reaches the API', async () => {
    const inbox = await seedInbox(stack);
    const now = Date.now();
    await addToWindow(inbox.companyId, 'inbound', 980, 10, now);
    expect(await observeInboundLoad(new Map([[inbox.companyId, 20]]), { now })).toEqual([inbox.companyId]);
    expect((await getCompany(inbox.companyId))?.listShards).toBe(4);
    const res = await call('GET /companies/{id}', { token: inbox.admin.token, params: { id: inbox.companyId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).not.toHaveProperty('listShards');
    expect(res.body.id).toBe(inbox.companyId);
  });
});
