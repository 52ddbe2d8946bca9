/**
 * List cursors (GET /contacts, GET /contacts/export, GET /tickets, its text search) are the server's
 * own: a cursor altered by the client, one of another tenant, another user or another list (other
 * filters, another route) is a 400 naming `cursor`, never a key handed to DynamoDB (which answered a
 * 500, or a page of whatever the forged key pointed at). Genuine cursors still walk every page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

let stack: Stack;
let a: Inbox;
let b: Inbox;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const refused = { status: 400, body: { error: 'ERR_VALIDATION', field: 'cursor' } };

/** Flips one character of the cursor (the last, so the shape survives and only the content changes). */
const tamper = (cursor: string) => `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;

beforeAll(async () => {
  stack = await startStack();
  [a, b] = await Promise.all([seedInbox(stack), seedInbox(stack)]);
  // 45 pending tickets each, with a contact each: more than a page of both (20 contacts, 40 tickets).
  for (const inbox of [a, b]) {
    for (let i = 0; i < 45; i++) await inbox.seedTicket({ contactName: `Cliente ${String(i).padStart(2, '0')}`, queueId: inbox.q1.id });
  }
}, 180_000);
afterAll(async () => stack?.stop());

describe('contacts cursors', () => {
  it('a forged DynamoDB key, another tenant pointed at, is refused before any read', async () => {
    const forged = b64({
      pk: `C#${b.companyId}#CT#0000000001`,
      sk: 'CONTACT',
      gsi1pk: `C#${b.companyId}#CONTACTS`,
      gsi1sk: 'cliente 00#0000000001',
    });
    expect(await call('GET /contacts', { token: a.admin.token, query: { cursor: forged } })).toMatchObject(refused);
    expect(await call('GET /contacts/export', { token: a.admin.token, query: { cursor: forged } })).toMatchObject(refused);
    // Its own partition, a key outside the search's range: DynamoDB would refuse it with a 500.
    const outOfRange = b64({ sk: 'zzzz' });
    expect(await call('GET /contacts', { token: a.admin.token, query: { searchParam: 'cliente', cursor: outOfRange } })).toMatchObject(
      refused,
    );
    expect(await call('GET /contacts', { token: a.admin.token, query: { cursor: 'garbage' } })).toMatchObject(refused);
  });

  it('a genuine cursor works for its own list only: altered, other tenant, other list or filter are refused', async () => {
    const first = await call('GET /contacts', { token: a.admin.token });
    expect(first.status).toBe(200);
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const next = await call('GET /contacts', { token: a.admin.token, query: { cursor } });
    expect(next.status).toBe(200);
    expect(next.body.contacts).toHaveLength(20);
    expect(next.body.contacts.some((c: { id: number }) => first.body.contacts.some((f: { id: number }) => f.id === c.id))).toBe(false);

    expect(await call('GET /contacts', { token: a.admin.token, query: { cursor: tamper(cursor) } })).toMatchObject(refused);
    expect(await call('GET /contacts', { token: b.admin.token, query: { cursor } })).toMatchObject(refused);
    expect(await call('GET /contacts/export', { token: a.admin.token, query: { cursor } })).toMatchObject(refused);
    expect(await call('GET /contacts', { token: a.admin.token, query: { cursor, searchParam: 'cliente' } })).toMatchObject(refused);

    const search = await call('GET /contacts', { token: a.admin.token, query: { searchParam: 'cliente' } });
    const searchCursor = search.body.nextCursor as string;
    expect(searchCursor).toEqual(expect.any(String));
    expect((await call('GET /contacts', { token: a.admin.token, query: { searchParam: 'cliente', cursor: searchCursor } })).status).toBe(
      200,
    );
    expect(await call('GET /contacts', { token: a.admin.token, query: { searchParam: 'contato', cursor: searchCursor } })).toMatchObject(
      refused,
    );
    expect(await call('GET /contacts', { token: b.admin.token, query: { searchParam: 'cliente', cursor: searchCursor } })).toMatchObject(
      refused,
    );
  });
});

describe('tickets cursors', () => {
  const query = (extra: Record<string, string> = {}) => ({ status: 'pending', showAll: 'true', ...extra });

  it('a genuine cursor continues its own list; altered, other tenant, other user or other filters are refused', async () => {
    const first = await call('GET /tickets', { token: a.admin.token, query: query() });
    expect(first.status).toBe(200);
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const next = await call('GET /tickets', { token: a.admin.token, query: query({ cursor }) });
    expect(next.status).toBe(200);
    expect(first.body.tickets.length + next.body.tickets.length).toBe(45);

    expect(await call('GET /tickets', { token: a.admin.token, query: query({ cursor: tamper(cursor) }) })).toMatchObject(refused);
    expect(await call('GET /tickets', { token: b.admin.token, query: query({ cursor }) })).toMatchObject(refused);
    const otherAdmin = await a.tenant.addUser('admin');
    expect(await call('GET /tickets', { token: otherAdmin.token, query: query({ cursor }) })).toMatchObject(refused);
    expect(await call('GET /tickets', { token: a.admin.token, query: query({ cursor, status: 'open' }) })).toMatchObject(refused);
  });

  it('a forged position outside the day filtered on is refused, not sent to DynamoDB', async () => {
    const today = new Date().toISOString().slice(0, 10);
    // One source (the status list): the position is that list's sort key, here far past the day's range.
    const forged = b64(['9999-12-31T00:00:00.000Z#0000000001']);
    expect(await call('GET /tickets', { token: a.admin.token, query: query({ updatedAt: today, cursor: forged }) })).toMatchObject(refused);
  });

  it('search cursors are bound to their term and tenant', async () => {
    const first = await call('GET /tickets', { token: a.admin.token, query: query({ searchParam: 'cliente' }) });
    expect(first.status).toBe(200);
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect((await call('GET /tickets', { token: a.admin.token, query: query({ searchParam: 'cliente', cursor }) })).status).toBe(200);
    expect(await call('GET /tickets', { token: a.admin.token, query: query({ searchParam: 'contato', cursor }) })).toMatchObject(refused);
    expect(await call('GET /tickets', { token: b.admin.token, query: query({ searchParam: 'cliente', cursor }) })).toMatchObject(refused);
    expect(
      await call('GET /tickets', { token: a.admin.token, query: query({ searchParam: 'cliente', cursor: tamper(cursor) }) }),
    ).toMatchObject(refused);
  });
});
