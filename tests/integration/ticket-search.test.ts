/**
 * Issue 4 over the local stack: the tag filter of GET /tickets returns exactly the tagged tickets the
 * caller may see (and follows a ticket when it moves between lists); searchParam finds tickets by a
 * word prefix of the contact's name, by number and by message text, through the search index; a
 * renamed contact stops matching its old name; GET /contacts searches any word of the name; a
 * search pages by cursor with hasMore.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { waitUntil } from './whatsapp-kit.ts';

let call: Call;
let t: Tenant;
let qA = 0;
let qB = 0;
let connectionId = 0;
let tagId = 0;
const tickets = { wanda: 0, bright: 0, otto: 0 };
const contacts = { wanda: 0, bright: 0, otto: 0 };

async function ok<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await call(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body as T;
}

async function openTicket(name: string, number: string, queueId: number): Promise<{ contactId: number; ticketId: number }> {
  const contact = await ok<{ id: number }>('POST', '/contacts', t.admin.token, { name, number });
  const ticket = await ok<{ id: number }>('POST', '/tickets', t.admin.token, {
    contactId: contact.id,
    queueId,
    whatsappId: connectionId,
    status: 'open',
  });
  return { contactId: contact.id, ticketId: ticket.id };
}

const ids = (body: unknown) => (body as { tickets: { id: number }[] }).tickets.map((ticket) => ticket.id).sort((a, b) => a - b);
const list = async (token: string, query: Record<string, string>) => {
  const qs = new URLSearchParams(query).toString();
  return ok<{ tickets: { id: number }[]; hasMore: boolean; nextCursor?: string }>('GET', `/tickets?${qs}`, token);
};

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  t = await createTenant(call, superToken, await firstPlanId(call), 'search');
  qA = (await ok<{ id: number }>('POST', '/queue', t.admin.token, { name: 'Queue A', color: '#a1a1a1' })).id;
  qB = (await ok<{ id: number }>('POST', '/queue', t.admin.token, { name: 'Queue B', color: '#b2b2b2' })).id;
  connectionId = (await ok<{ id: number }>('POST', '/whatsapp', t.admin.token, { name: 'Search wa' })).id;
  // The plain user works queue A only.
  await ok('PUT', `/users/${t.user.id}`, t.admin.token, { queueIds: [qA] });

  const wanda = await openTicket('Wanda Xylophone', '5511900000001', qA);
  const bright = await openTicket('Wanda Brightwater', '5521900000002', qB);
  const otto = await openTicket('Otto Kettle', '5531900000003', qA);
  Object.assign(contacts, { wanda: wanda.contactId, bright: bright.contactId, otto: otto.contactId });
  Object.assign(tickets, { wanda: wanda.ticketId, bright: bright.ticketId, otto: otto.ticketId });
  // Wanda's and Brightwater's tickets back to pending (queue A and B); Otto's stays open with the admin.
  await ok('PUT', `/tickets/${tickets.wanda}`, t.admin.token, { status: 'pending', userId: null });
  await ok('PUT', `/tickets/${tickets.bright}`, t.admin.token, { status: 'pending', userId: null });
  await ok('POST', `/messages/${tickets.otto}`, t.admin.token, { body: 'Your parcel left on the zeppelin today' });

  tagId = (await ok<{ id: number }>('POST', '/tags', t.admin.token, { name: 'Vip', color: '#ff0000', kanban: 0 })).id;
  await ok('POST', '/tags/sync', t.admin.token, { ticketId: tickets.wanda, tags: [tagId] });
  await ok('POST', '/tags/sync', t.admin.token, { ticketId: tickets.bright, tags: [tagId] });
}, 120_000);

describe('tag filter', () => {
  it('returns exactly the tagged tickets the caller may see', async () => {
    const tags = JSON.stringify([tagId]);
    expect(ids(await list(t.admin.token, { tags, showAll: 'true' }))).toEqual([tickets.wanda, tickets.bright].sort((a, b) => a - b));
    // The plain user sees queue A's pending ticket, not queue B's.
    expect(ids(await list(t.user.token, { tags, status: 'pending' }))).toEqual([tickets.wanda]);
    // A tag that no ticket carries, and one that does not exist.
    const other = (await ok<{ id: number }>('POST', '/tags', t.admin.token, { name: 'Empty', color: '#00ff00', kanban: 0 })).id;
    expect(ids(await list(t.admin.token, { tags: JSON.stringify([other]), showAll: 'true' }))).toEqual([]);
    expect(ids(await list(t.admin.token, { tags: JSON.stringify([tagId, other]), showAll: 'true' }))).toEqual([]);
    expect(ids(await list(t.admin.token, { tags: JSON.stringify([999_999]), showAll: 'true' }))).toEqual([]);
  });

  it('follows a tagged ticket between lists, and drops it when the tag comes off', async () => {
    const tags = JSON.stringify([tagId]);
    await ok('PUT', `/tickets/${tickets.wanda}`, t.admin.token, { status: 'open', userId: t.admin.id });
    expect(ids(await list(t.admin.token, { tags, status: 'open', showAll: 'true' }))).toEqual([tickets.wanda]);
    expect(ids(await list(t.admin.token, { tags, status: 'pending', showAll: 'true' }))).toEqual([tickets.bright]);
    await ok('POST', '/tags/sync', t.admin.token, { ticketId: tickets.bright, tags: [] });
    expect(ids(await list(t.admin.token, { tags, showAll: 'true' }))).toEqual([tickets.wanda]);
  });
});

describe('search', () => {
  it('finds tickets by a word prefix of the contact name, by number and by message text', async () => {
    expect(ids(await list(t.admin.token, { searchParam: 'wan', showAll: 'true' }))).toEqual(
      [tickets.wanda, tickets.bright].sort((a, b) => a - b),
    );
    expect(ids(await list(t.admin.token, { searchParam: 'XYLO', showAll: 'true' }))).toEqual([tickets.wanda]);
    expect(ids(await list(t.admin.token, { searchParam: 'wanda bright', showAll: 'true' }))).toEqual([tickets.bright]);
    expect(ids(await list(t.admin.token, { searchParam: '55319', showAll: 'true' }))).toEqual([tickets.otto]);
    // Message words go in through the table's stream, a moment after the message.
    const byText = await waitUntil('the message words indexed', async () => {
      const found = ids(await list(t.admin.token, { searchParam: 'zeppelin', showAll: 'true' }));
      return found.length ? found : undefined;
    });
    expect(byText).toEqual([tickets.otto]);
    expect(ids(await list(t.admin.token, { searchParam: 'nobody-here', showAll: 'true' }))).toEqual([]);
  });

  it('only lists what the caller may see', async () => {
    // Brightwater's ticket is in queue B: not the plain user's.
    expect(ids(await list(t.user.token, { searchParam: 'brightwater' }))).toEqual([]);
    expect(ids(await list(t.admin.token, { searchParam: 'brightwater', showAll: 'true' }))).toEqual([tickets.bright]);
  });

  it('a renamed contact no longer matches its old name, and matches the new one', async () => {
    await ok('PUT', `/contacts/${contacts.bright}`, t.admin.token, { name: 'Greta Brightwater' });
    expect(ids(await list(t.admin.token, { searchParam: 'wanda', showAll: 'true' }))).toEqual([tickets.wanda]);
    expect(ids(await list(t.admin.token, { searchParam: 'greta', showAll: 'true' }))).toEqual([tickets.bright]);
  });

  it('GET /contacts searches any word of the name, and the number', async () => {
    const found = async (searchParam: string) =>
      (await ok<{ contacts: { id: number }[] }>('GET', `/contacts?searchParam=${encodeURIComponent(searchParam)}`, t.admin.token)).contacts
        .map((c) => c.id)
        .sort((a, b) => a - b);
    expect(await found('brightw')).toEqual([contacts.bright]);
    expect(await found('wanda')).toEqual([contacts.wanda]);
    expect(await found('kettle')).toEqual([contacts.otto]);
    expect(await found('5521900')).toEqual([contacts.bright]);
  });

  it('pages by cursor with hasMore', async () => {
    const made: number[] = [];
    for (let i = 0; i < 43; i++) made.push((await openTicket(`Pagina Person${i}`, `55419000${String(i).padStart(5, '0')}`, qA)).ticketId);
    const first = await list(t.admin.token, { searchParam: 'pagina', showAll: 'true' });
    expect(first.tickets).toHaveLength(40);
    expect(first.hasMore).toBe(true);
    const second = await list(t.admin.token, { searchParam: 'pagina', showAll: 'true', cursor: first.nextCursor as string });
    expect(second.hasMore).toBe(false);
    expect([...ids(first), ...ids(second)].sort((a, b) => a - b)).toEqual(made.sort((a, b) => a - b));
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(43);
    const bad = await call('GET', '/tickets?searchParam=pagina&cursor=not-a-cursor', { token: t.admin.token });
    expect(bad.status).toBe(400);
  }, 60_000);
});
