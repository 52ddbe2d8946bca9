/**
 * Contacts API over DynamoDB Local + cognito-local: SPEC 5 validation, number uniqueness per tenant
 * (create and edit), search from 3 characters by name or number prefix, pages, the tickets' contact
 * copy refreshed by an edit, delete refused while a ticket is open, and tenant isolation.
 */

import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactStoredItems, getContactByNumber } from '#storage/contacts/contacts';
import { db, table } from '#storage/db';
import { getTicket } from '#storage/tickets/tickets';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, seedTenant, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;
let serial = 0;
const phone = () => `5521${String(Date.now() % 1e6).padStart(6, '0')}${String(++serial).padStart(3, '0')}`;

beforeAll(async () => {
  stack = await startStack();
  inbox = await seedInbox(stack);
}, 90_000);
afterAll(async () => stack?.stop());

type Body = Record<string, unknown>;
const create = (body: Body, token = inbox.inQueue.token) => call('POST /contacts', { token, body });

describe('contacts', () => {
  it('creates with digits only, validates with the field named, and refuses a taken number', async () => {
    const number = phone();
    const made = await create({
      name: '  Maria Souza ',
      number: `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4)}`,
      email: 'M@X.COM',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Maria Souza', number, email: 'm@x.com', extraInfo: [], companyId: inbox.companyId });
    expect((await create({ name: 'Other', number })).body).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });
    expect((await create({ name: 'Other', number })).status).toBe(409);

    expect((await create({ name: 'x', number: phone() })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'name',
      message: 'Too Short!',
    });
    expect((await create({ number: phone() })).body).toMatchObject({ field: 'name', message: 'Required' });
    expect((await create({ name: 'x'.repeat(51), number: phone() })).body.message).toBe('Too Long!');
    expect((await create({ name: 'Joana', number: '1234-567' })).body).toMatchObject({ field: 'number', message: 'Too Short!' });
    expect((await create({ name: 'Joana', number: '9'.repeat(51) })).body).toMatchObject({ field: 'number', message: 'Too Long!' });
    expect((await create({ name: 'Joana', number: phone(), email: 'nope' })).body).toMatchObject({
      field: 'email',
      message: 'Invalid email',
    });
    expect((await create({ name: 'Joana', number: phone(), extraInfo: 'x' })).status).toBe(400);
  });

  it('moves the number guard on edit and refreshes the tickets copy', async () => {
    const ticket = await inbox.seedTicket({ contactName: 'Antes' });
    const taken = (await create({ name: 'Taken', number: phone() })).body;
    const clash = await call('PUT /contacts/{id}', {
      token: inbox.admin.token,
      params: { id: ticket.contactId },
      body: { number: taken.number },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('ERR_DUPLICATED_CONTACT');

    const number = phone();
    const edited = await call('PUT /contacts/{id}', {
      token: inbox.inQueue.token,
      params: { id: ticket.contactId },
      body: { name: 'Depois', number, extraInfo: [{ name: 'CPF', value: '123' }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Depois', number, extraInfo: [{ name: 'CPF', value: '123' }] });
    expect((await getContactByNumber(inbox.companyId, ticket.contact.number))?.id).toBeUndefined();
    expect((await getContactByNumber(inbox.companyId, number))?.id).toBe(ticket.contactId);
    expect((await getTicket(inbox.companyId, ticket.id))?.contact).toMatchObject({ name: 'Depois', number });
    // The old number is free again.
    expect((await create({ name: 'Reuse', number: ticket.contact.number })).status).toBe(201);
  });

  it('searches from 3 characters by name prefix (case and accents ignored) or number prefix, in pages', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const prefix = `55319${String(Date.now() % 1e4).padStart(4, '0')}`;
    for (let i = 0; i < 25; i++) {
      await create({ name: `${tag} Ãna ${String(i).padStart(2, '0')}`, number: `${prefix}${String(i).padStart(4, '0')}` });
    }
    const first = await call('GET /contacts', { token: inbox.inQueue.token, query: { searchParam: `${tag.toUpperCase()} ana` } });
    expect(first.body.contacts).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.contacts[0].name).toBe(`${tag} Ãna 00`);
    const second = await call('GET /contacts', { token: inbox.inQueue.token, query: { searchParam: `${tag} ana`, pageNumber: '2' } });
    expect(second.body.contacts.map((c: Body) => c.name)).toEqual([20, 21, 22, 23, 24].map((i) => `${tag} Ãna ${i}`));
    expect(second.body.count).toBe(25);
    const byCursor = await call('GET /contacts', {
      token: inbox.inQueue.token,
      query: { searchParam: `${tag} ana`, cursor: first.body.nextCursor },
    });
    expect(byCursor.body.contacts).toEqual(second.body.contacts);

    const byNumber = await call('GET /contacts', {
      token: inbox.inQueue.token,
      query: { searchParam: `(${prefix.slice(0, 2)}) ${prefix.slice(2)}001` },
    });
    expect(byNumber.body.contacts.map((c: Body) => c.number).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `${prefix}001${i}`));
    // Under 3 characters: no filter.
    const all = await call('GET /contacts', { token: inbox.inQueue.token, query: { searchParam: 'zq' } });
    expect(all.body.contacts).toHaveLength(20);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await call('GET /contacts', { token: inbox.inQueue.token, query: { searchParam: tag, date: '2001-01-01' } });
    expect(dated.body.contacts).toEqual([]);
    const todays = await call('GET /contacts', {
      token: inbox.inQueue.token,
      query: { searchParam: tag, dateStart: today, dateEnd: today },
    });
    expect(todays.body.contacts).toHaveLength(20);
    expect((await call('GET /contacts', { token: inbox.inQueue.token, query: { date: 'soon' } })).status).toBe(400);
    const list = await call('GET /contacts/list', { token: inbox.inQueue.token, query: { searchParam: tag } });
    expect(list.body).toHaveLength(25);
    expect(Object.keys(list.body[0]).sort()).toEqual(['email', 'id', 'name', 'number']);
  });

  it('deletes (admin only) unless a ticket is open or pending; closed tickets keep their copy', async () => {
    const open = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    expect((await call('DELETE /contacts/{id}', { token: inbox.inQueue.token, params: { id: open.contactId } })).status).toBe(403);
    const refused = await call('DELETE /contacts/{id}', { token: inbox.admin.token, params: { id: open.contactId } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect((await call('GET /contacts/{id}', { token: inbox.admin.token, params: { id: open.contactId } })).status).toBe(200);

    const closed = await inbox.seedTicket({ status: 'closed' });
    expect((await call('DELETE /contacts/{id}', { token: inbox.admin.token, params: { id: closed.contactId } })).status).toBe(204);
    expect((await call('GET /contacts/{id}', { token: inbox.admin.token, params: { id: closed.contactId } })).body).toEqual({
      error: 'ERR_NO_CONTACT_FOUND',
    });
    expect(await getContactByNumber(inbox.companyId, closed.contact.number)).toBeUndefined();
    expect((await getTicket(inbox.companyId, closed.id))?.contact.name).toBe(closed.contact.name);
    expect((await call('DELETE /contacts/{id}', { token: inbox.admin.token, params: { id: closed.contactId } })).status).toBe(404);
  });

  it('exports every contact, however many, a thousand a page in name order', async () => {
    // Prepare: a tenant of 1,050 contacts written straight into the store.
    const big = await seedTenant(stack);
    const at = new Date().toISOString();
    const items = Array.from({ length: 1050 }, (_, i) =>
      contactStoredItems({
        id: i + 1,
        companyId: big.companyId,
        name: `Cliente ${String(i).padStart(4, '0')}`,
        number: `5531${String(i).padStart(8, '0')}`,
        email: i === 7 ? 'sete@x.com' : '',
        profilePicUrl: '',
        isGroup: false,
        extraInfo: [],
        whatsappId: null,
        createdAt: at,
        updatedAt: at,
      }),
    ).flat();
    for (let i = 0; i < items.length; i += 25) {
      await db().send(
        new BatchWriteCommand({ RequestItems: { [table()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
      );
    }
    // Act: follow the cursor like the web's export.
    const pages: { contacts: { name: string; number: string; email: string }[]; nextCursor?: string }[] = [];
    let cursor: string | undefined;
    do {
      const res = await call('GET /contacts/export', { token: big.admin.token, query: cursor ? { cursor } : {} });
      expect(res.status).toBe(200);
      pages.push(res.body);
      cursor = res.body.nextCursor;
    } while (cursor && pages.length < 10);
    // Assess
    const rows = pages.flatMap((page) => page.contacts);
    expect(pages[0]?.contacts.length).toBeLessThanOrEqual(1000);
    expect(pages.length).toBeGreaterThan(1);
    expect(rows).toHaveLength(1050);
    expect(rows.map((row) => row.name)).toEqual(Array.from({ length: 1050 }, (_, i) => `Cliente ${String(i).padStart(4, '0')}`));
    expect(rows[7]).toEqual({ name: 'Cliente 0007', number: '553100000007', email: 'sete@x.com' });
    // The pickers' list stays capped; another tenant's export holds none of these.
    expect((await call('GET /contacts/list', { token: big.admin.token })).body).toHaveLength(1000);
    const lonely = await seedTenant(stack);
    expect((await call('GET /contacts/export', { token: lonely.admin.token })).body).toEqual({ contacts: [] });
    expect((await call('GET /contacts/export', { token: big.admin.token, query: { cursor: 'not-a-cursor' } })).status).toBeLessThan(500);
  });

  it("never shows or changes another tenant's contact", async () => {
    // Contact ids count per tenant: probe from a tenant that has none, so any answer would be B's.
    const lonely = await seedTenant(stack);
    const other = await seedInbox(stack);
    const theirs = await other.seedTicket({ contactName: 'Foreign' });
    const opts = { token: lonely.admin.token, params: { id: theirs.contactId } };
    expect((await call('GET /contacts/{id}', opts)).status).toBe(404);
    expect((await call('PUT /contacts/{id}', { ...opts, body: { name: 'Hacked' } })).status).toBe(404);
    expect((await call('DELETE /contacts/{id}', opts)).status).toBe(404);
    const search = await call('GET /contacts', { token: lonely.admin.token, query: { searchParam: 'Foreign' } });
    expect(search.body.contacts).toEqual([]);
    expect((await call('GET /contacts/list', { token: lonely.admin.token })).body).toEqual([]);
    expect((await getContactByNumber(other.companyId, theirs.contact.number))?.name).toBe('Foreign');
    // Another tenant may hold the same number.
    expect((await create({ name: 'Same number', number: theirs.contact.number })).status).toBe(201);
  });
});
