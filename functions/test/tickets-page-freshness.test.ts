/**
 * Issue 15 serves what a page of the inbox only shows (the plan, the names of the queues,
 * connections and users) from per-container read caches (storage/read-cache.ts), and reads what
 * decides who sees what (the caller's user and company) fresh on every request. These tests change
 * records as another container would, straight into the table around this container's storage
 * modules (so no `forget` runs here), and check when the next page shows it: a change of access at
 * once, a name within the caches' 5 s.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, table, updateExpression } from '../src/storage/db.ts';
import { updateQueue } from '../src/storage/queues/queues.ts';
import { REFERENCE_TTL_MS } from '../src/storage/read-cache.ts';
import { pad, tenantPk } from '../src/storage/table.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { updateUser } from '../src/storage/users/users.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;
let open: TicketRecord;
let pending: TicketRecord;

beforeAll(async () => {
  stack = await startStack();
  inbox = await seedInbox(stack);
  open = await inbox.seedTicket({ status: 'open', queueId: inbox.q1.id, userId: inbox.inQueue.id });
  pending = await inbox.seedTicket({ status: 'pending', queueId: inbox.q1.id });
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

/** A write by another container (another Lambda, the session-host): this container's caches are not told. */
async function writtenElsewhere(companyId: number, sk: string, patch: Record<string, unknown>): Promise<void> {
  await db().send(new UpdateCommand({ TableName: table(), Key: { pk: tenantPk(companyId), sk }, ...updateExpression(patch) }));
}

async function page(token: string, query: Record<string, string>) {
  const res = await call('GET /tickets', { token, query });
  return { status: res.status, body: res.body, tickets: (res.body.tickets ?? []) as { id: number; [key: string]: unknown }[] };
}

const listed = (tickets: { id: number }[], id: number) => tickets.find((ticket) => ticket.id === id);

describe("names shown on a page (the read caches' 5 s)", () => {
  it('a rename through this container shows on the next page', async () => {
    // Prepare: the names are cached
    await page(inbox.admin.token, { status: 'open', showAll: 'true' });

    // Act
    await updateQueue(inbox.companyId, inbox.q1.id, { name: 'Vendas renamed here' });
    await updateUser(inbox.companyId, inbox.inQueue.id, { name: 'Attendant renamed here' });
    const after = await page(inbox.admin.token, { status: 'open', showAll: 'true' });

    // Assess
    expect(listed(after.tickets, open.id)).toMatchObject({
      queue: { id: inbox.q1.id, name: 'Vendas renamed here' },
      user: { id: inbox.inQueue.id, name: 'Attendant renamed here' },
    });
  });

  it('a rename by another container shows within 5 s', async () => {
    // Prepare: the names are cached
    await page(inbox.admin.token, { status: 'open', showAll: 'true' });

    // Act
    await writtenElsewhere(inbox.companyId, `QUEUE#${pad(inbox.q1.id)}`, { name: 'Vendas renamed elsewhere' });
    await writtenElsewhere(inbox.companyId, `USER#${pad(inbox.inQueue.id)}`, { name: 'Attendant renamed elsewhere' });
    await writtenElsewhere(inbox.companyId, `WAPP#${pad(inbox.connection.id)}`, { name: 'Connection renamed elsewhere' });
    await new Promise((resolve) => setTimeout(resolve, REFERENCE_TTL_MS + 50));
    const after = await page(inbox.admin.token, { status: 'open', showAll: 'true' });

    // Assess
    expect(listed(after.tickets, open.id)).toMatchObject({
      queue: { id: inbox.q1.id, name: 'Vendas renamed elsewhere' },
      user: { id: inbox.inQueue.id, name: 'Attendant renamed elsewhere' },
      whatsapp: { id: inbox.connection.id, name: 'Connection renamed elsewhere' },
    });
  });
});

describe('access changed by another container applies on the next request', () => {
  it('a user removed from a queue stops seeing its pending tickets', async () => {
    // Prepare
    expect(listed((await page(inbox.inQueue.token, { status: 'pending' })).tickets, pending.id)).toBeDefined();

    // Act
    await writtenElsewhere(inbox.companyId, `USER#${pad(inbox.inQueue.id)}`, { queueIds: [] });
    const after = await page(inbox.inQueue.token, { status: 'pending' });

    // Assess
    expect(after.status).toBe(200);
    expect(listed(after.tickets, pending.id)).toBeUndefined();
    await writtenElsewhere(inbox.companyId, `USER#${pad(inbox.inQueue.id)}`, { queueIds: [inbox.q1.id] });
  });

  it('an admin made a user no longer sees the tickets of others', async () => {
    // Prepare
    const admin = await inbox.tenant.addUser('admin');
    expect(listed((await page(admin.token, { status: 'open', showAll: 'true' })).tickets, open.id)).toBeDefined();

    // Act
    await writtenElsewhere(inbox.companyId, `USER#${pad(admin.id)}`, { profile: 'user' });
    const after = await page(admin.token, { status: 'open', showAll: 'true' });

    // Assess
    expect(after.status).toBe(200);
    expect(listed(after.tickets, open.id)).toBeUndefined();
  });

  it('a session ended elsewhere, and a deleted user, are refused', async () => {
    // Prepare
    const ended = await inbox.tenant.addUser('admin');
    const deleted = await inbox.tenant.addUser('admin');
    await page(ended.token, { status: 'open', showAll: 'true' });
    await page(deleted.token, { status: 'open', showAll: 'true' });

    // Act: a newer sign-in elsewhere claimed the session; the other user is removed
    await writtenElsewhere(inbox.companyId, `USER#${pad(ended.id)}`, { sessionOrigin: 'a-newer-sign-in' });
    await db().send(new DeleteCommand({ TableName: table(), Key: { pk: tenantPk(inbox.companyId), sk: `USER#${pad(deleted.id)}` } }));

    // Assess
    expect(await page(ended.token, { status: 'open', showAll: 'true' })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_EXPIRED' },
    });
    expect(await page(deleted.token, { status: 'open', showAll: 'true' })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_EXPIRED' },
    });
  });

  it('a company made inactive is refused', async () => {
    // Prepare: its own tenant, which the test leaves inactive
    const other = await seedInbox(stack);
    expect((await page(other.admin.token, { status: 'open', showAll: 'true' })).status).toBe(200);

    // Act
    await writtenElsewhere(other.companyId, 'COMPANY', { status: false });

    // Assess
    expect(await page(other.admin.token, { status: 'open', showAll: 'true' })).toMatchObject({
      status: 403,
      body: { error: 'ERR_COMPANY_INACTIVE' },
    });
  }, 60_000);
});
