/**
 * Contact lists and their contacts over DynamoDB Local + cognito-local: the spec's validation
 * messages, one number per list, the list's count, search and signed cursors, uploads of .xlsx, .csv
 * and JSON rows through the contacts import's reader, isWhatsappValid left to the engine, deletes,
 * and the attacks: another tenant's ids (404), a plain user on the admin-only delete (403), no or a
 * forged token (401), a plan without useCampaigns (403), garbage anywhere (400 naming the field),
 * tampered or foreign cursors (400 naming cursor).
 */
import { utils, write } from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getContactListItem, setWhatsappValid } from '#storage/contact-lists/items';
import { CAMPAIGN_COUNTERS, invoke, newCampaign, newItem, newList, phone, skipIds } from './campaigns-harness.ts';
import { multipart } from './messages-harness.ts';
import { type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

const published: { event: string; data: unknown }[] = [];
vi.mock(import('../src/realtime/publisher.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  publishToCompany: async (_companyId: number, event: string, data: unknown) => {
    published.push({ event, data });
    return { sent: 1, gone: 0, failed: 0 };
  },
}));

let stack: Stack;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await startStack();
  [t, other] = await Promise.all([seedTenant(stack), seedTenant(stack)]);
  await skipIds(other.companyId, CAMPAIGN_COUNTERS);
}, 120_000);
afterAll(async () => stack?.stop());

function sheet(rows: unknown[][]): Buffer {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Contatos');
  return write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

const upload = (id: number, data: Buffer, filename: string, token = t.admin.token) =>
  invoke('POST /contact-lists/{id}/upload', {
    token,
    params: { id },
    raw: multipart([{ name: 'file', value: data, filename, contentType: 'application/octet-stream' }]),
  });

const page = (query: Record<string, string>, token = t.admin.token) => invoke('GET /contact-list-items', { token, query });

describe('contact lists', () => {
  it('validates names with the spec messages, lists, searches, renames and publishes each change', async () => {
    for (const [name, message] of [
      ['', 'Required'],
      ['A', 'Too Short!'],
      ['x'.repeat(51), 'Too Long!'],
    ]) {
      const res = await invoke('POST /contact-lists', { token: t.admin.token, json: { name } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'name', message });
    }
    published.length = 0;
    const list = await newList(t, 'Promoção Março');
    expect(list).toMatchObject({ name: 'Promoção Março', contactsCount: 0, companyId: t.companyId });
    // Any user of the company edits the company's lists.
    const user = await t.addUser('user');
    const renamed = await invoke('PUT /contact-lists/{id}', {
      token: user.token,
      params: { id: list.id },
      json: { name: 'Promoção Abril' },
    });
    expect(renamed.body.name).toBe('Promoção Abril');
    const found = await invoke('GET /contact-lists', { token: t.admin.token, query: { searchParam: 'promocao abr' } });
    expect(found.body).toMatchObject({ records: [{ id: list.id }], hasMore: false });
    expect((await invoke('GET /contact-lists/list', { token: t.admin.token })).body.map((l: { id: number }) => l.id)).toContain(list.id);
    expect(published.map((p) => [p.event, (p.data as { action: string }).action])).toEqual([
      [`company-${t.companyId}-ContactList`, 'create'],
      [`company-${t.companyId}-ContactList`, 'update'],
    ]);
  });

  it('keeps one item per number in a list, counts them and leaves isWhatsappValid null until the engine checks it', async () => {
    const list = await newList(t);
    const number = phone();
    const item = await newItem(t, list.id, {
      name: 'Bia',
      number: `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4)}`,
      email: 'BIA@x.com',
    });
    expect(item).toMatchObject({ number, email: 'bia@x.com', isWhatsappValid: null, contactListId: list.id });
    const again = await invoke('POST /contact-list-items', {
      token: t.admin.token,
      json: { name: 'Bia 2', number, contactListId: list.id },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'ERR_DUPLICATED_CONTACT', field: 'number' });
    // The same number in another list is another audience.
    const elsewhere = await newList(t, 'Outra');
    await newItem(t, elsewhere.id, { number });
    const second = await newItem(t, list.id);
    expect((await invoke('GET /contact-lists/{id}', { token: t.admin.token, params: { id: list.id } })).body.contactsCount).toBe(2);

    // The engine's verdict lands on the item; a new number is unchecked again.
    expect(await setWhatsappValid(t.companyId, item.id, true)).toBe(true);
    expect((await invoke('GET /contact-list-items/{id}', { token: t.admin.token, params: { id: item.id } })).body.isWhatsappValid).toBe(
      true,
    );
    const taken = await invoke('PUT /contact-list-items/{id}', {
      token: t.admin.token,
      params: { id: item.id },
      json: { number: second.number },
    });
    expect(taken.status).toBe(409);
    const moved = await invoke('PUT /contact-list-items/{id}', {
      token: t.admin.token,
      params: { id: item.id },
      json: { number: phone() },
    });
    expect(moved.body).toMatchObject({ isWhatsappValid: null, name: 'Bia' });
    // The old number is free again in this list.
    await newItem(t, list.id, { number });

    const deleted = await invoke('DELETE /contact-list-items/{id}', { token: t.admin.token, params: { id: second.id } });
    expect(deleted.status).toBe(204);
    expect((await invoke('GET /contact-lists/{id}', { token: t.admin.token, params: { id: list.id } })).body.contactsCount).toBe(2);
    expect(await setWhatsappValid(t.companyId, second.id, false)).toBe(false);
    expect(await getContactListItem(t.companyId, second.id)).toBeUndefined();
  });

  it('pages with signed cursors and searches name, number and email without accents', async () => {
    const list = await newList(t, 'Paginada');
    for (let i = 0; i < 45; i++) await newItem(t, list.id, { name: i === 7 ? 'José Conceição' : `Pessoa ${i}` });
    const first = await page({ contactListId: String(list.id) });
    expect(first.body.contacts).toHaveLength(40);
    expect(first.body.hasMore).toBe(true);
    const second = await page({ contactListId: String(list.id), cursor: first.body.nextCursor });
    expect(second.body.contacts).toHaveLength(5);
    expect(new Set([...first.body.contacts, ...second.body.contacts].map((c: { id: number }) => c.id)).size).toBe(45);
    expect((await page({ contactListId: String(list.id), pageNumber: '2' })).body.contacts).toHaveLength(5);
    const search = await page({ contactListId: String(list.id), searchParam: 'jose conceicao' });
    expect(search.body.contacts.map((c: { name: string }) => c.name)).toEqual(['José Conceição']);

    // Cursors: altered, another list's, another search's, another tenant's, forged keys: 400 naming cursor.
    const cursor = first.body.nextCursor as string;
    const other40 = await newList(t, 'Outra paginada');
    const forged = `${Buffer.from(JSON.stringify({ pk: `C#${other.companyId}#CLI#0000000001`, sk: 'ITEM' })).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`;
    for (const [query, token] of [
      [{ contactListId: String(list.id), cursor: `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}` }, t.admin.token],
      [{ contactListId: String(other40.id), cursor }, t.admin.token],
      [{ contactListId: String(list.id), cursor, searchParam: 'pessoa' }, t.admin.token],
      [{ contactListId: String(list.id), cursor: forged }, t.admin.token],
      [{ contactListId: String(list.id), cursor: 'a.b.c' }, t.admin.token],
    ] as const) {
      const res = await page(query, token);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'cursor' });
    }
  });

  it('uploads .xlsx, .csv and JSON rows: duplicates counted, bad rows reported by line and field, a reload published', async () => {
    const list = await newList(t, 'Importada');
    const [a, b] = [phone(), phone()];
    await newItem(t, list.id, { number: b });
    published.length = 0;
    const xlsx = await upload(
      list.id,
      sheet([
        ['Nome', 'Número', 'E-mail'],
        ['Ana', a, 'ana@x.com'],
        ['Bruno', b, ''],
        ['C', '123', 'bad'],
        ['', '', ''],
      ]),
      'lista.xlsx',
    );
    expect(xlsx.status, JSON.stringify(xlsx.body)).toBe(200);
    expect(xlsx.body).toEqual({ imported: 1, duplicated: 1, invalid: [{ row: 4, field: 'name', message: 'Too Short!' }] });
    const csv = await upload(list.id, Buffer.from(`name,number\nCarla,${phone()}\n`), 'lista.csv');
    expect(csv.body).toMatchObject({ imported: 1, duplicated: 0 });
    const json = await invoke('POST /contact-lists/{id}/upload', {
      token: t.admin.token,
      params: { id: list.id },
      json: {
        contacts: [
          { name: 'Duda', number: phone() },
          { name: 'Ana de novo', number: a },
        ],
      },
    });
    expect(json.body).toMatchObject({ imported: 1, duplicated: 1 });
    expect((await invoke('GET /contact-lists/{id}', { token: t.admin.token, params: { id: list.id } })).body.contactsCount).toBe(4);
    expect(published).toContainEqual({
      event: `company-${t.companyId}-ContactListItem-${list.id}`,
      data: { action: 'reload', contactListId: list.id },
    });
    expect((await upload(list.id, Buffer.from('garbage'), 'lista.pdf')).body).toMatchObject({ field: 'file' });
    expect((await upload(list.id, Buffer.from('garbage'), 'lista.xlsx')).status).toBe(400);
  });

  it('deletes a list with its items, but not one a scheduled campaign ships to', async () => {
    const list = await newList(t, 'Apagar');
    const item = await newItem(t, list.id);
    const connection = await invoke('POST /whatsapp', { token: t.admin.token, json: { name: 'Loja', token: `token-${phone()}-abcdef` } });
    const campaign = await newCampaign(t, {
      contactListId: list.id,
      whatsappId: connection.body.id,
      message1: 'Oi {nome}',
      scheduledAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
    });
    const refused = await invoke('DELETE /contact-lists/{id}', { token: t.admin.token, params: { id: list.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ERR_CONTACT_LIST_IN_USE');
    await invoke('DELETE /campaigns/{id}', { token: t.admin.token, params: { id: campaign.id } });
    expect((await invoke('DELETE /contact-lists/{id}', { token: t.admin.token, params: { id: list.id } })).status).toBe(204);
    expect(await getContactListItem(t.companyId, item.id)).toBeUndefined();
    expect((await invoke('GET /contact-lists/{id}', { token: t.admin.token, params: { id: list.id } })).status).toBe(404);
    const late = await invoke('POST /contact-list-items', {
      token: t.admin.token,
      json: { name: 'Tarde', number: phone(), contactListId: list.id },
    });
    expect(late.status).toBe(404);
  });
});

describe('attacks', () => {
  it("answers 404 for another tenant's list and item ids, and changes nothing of theirs", async () => {
    const theirs = await newList(other, 'Deles');
    const theirItem = await newItem(other, theirs.id);
    const routes: [string, Record<string, unknown>, unknown?][] = [
      ['GET /contact-lists/{id}', { id: theirs.id }],
      ['PUT /contact-lists/{id}', { id: theirs.id }, { name: 'Roubada' }],
      ['DELETE /contact-lists/{id}', { id: theirs.id }],
      ['POST /contact-lists/{id}/upload', { id: theirs.id }, { contacts: [{ name: 'Intruso', number: phone() }] }],
      ['GET /contact-list-items/{id}', { id: theirItem.id }],
      ['PUT /contact-list-items/{id}', { id: theirItem.id }, { name: 'Roubado' }],
      ['DELETE /contact-list-items/{id}', { id: theirItem.id }],
    ];
    for (const [key, params, json] of routes) {
      const res = await invoke(key, { token: t.admin.token, params: params as Record<string, number>, json });
      expect(res.status, key).toBe(404);
    }
    for (const json of [{ name: 'Intruso', number: phone(), contactListId: theirs.id }]) {
      expect((await invoke('POST /contact-list-items', { token: t.admin.token, json })).status).toBe(404);
    }
    expect((await page({ contactListId: String(theirs.id) })).status).toBe(404);
    const still = await invoke('GET /contact-lists/{id}', { token: other.admin.token, params: { id: theirs.id } });
    expect(still.body).toMatchObject({ name: 'Deles', contactsCount: 1 });
  });

  it('refuses a plain user the admin-only item delete, no or a forged token, and a plan without useCampaigns', async () => {
    const list = await newList(t, 'Guardada');
    const item = await newItem(t, list.id);
    const user = await t.addUser('user');
    const asUser = await invoke('DELETE /contact-list-items/{id}', { token: user.token, params: { id: item.id } });
    expect(asUser.status).toBe(403);
    expect(asUser.body.error).toBe('ERR_NO_PERMISSION');
    // A plain user still reads, adds and edits.
    expect((await invoke('GET /contact-list-items/{id}', { token: user.token, params: { id: item.id } })).status).toBe(200);
    for (const token of [undefined, 'not.a.jwt', `${t.admin.token.slice(0, -4)}AAAA`]) {
      expect((await invoke('GET /contact-lists', { token })).status).toBe(401);
    }
    const without = await seedTenant(stack, { plan: { useCampaigns: false } });
    for (const key of [
      'GET /contact-lists',
      'POST /contact-lists',
      'GET /contact-lists/list',
      'GET /contact-list-items',
      'POST /contact-list-items',
    ]) {
      const res = await invoke(key, { token: without.admin.token, json: { name: 'Lista' }, query: { contactListId: '1' } });
      expect(res.status, key).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useCampaigns' });
    }
  });

  it('answers garbage in every field and query parameter with a 400 naming it, never a 500', async () => {
    const list = await newList(t, 'Lixo');
    const item = await newItem(t, list.id);
    const cases: [string, Record<string, unknown>, string][] = [
      ['POST /contact-list-items', { name: 'Ok nome', number: 'abc', contactListId: list.id }, 'number'],
      ['POST /contact-list-items', { name: 'Ok nome', number: phone(), contactListId: 'x' }, 'contactListId'],
      ['POST /contact-list-items', { name: 'Ok nome', number: phone(), contactListId: list.id, email: 'not-mail' }, 'email'],
      ['POST /contact-list-items', { name: ['x'], number: phone(), contactListId: list.id }, 'name'],
      ['POST /contact-lists', { name: { $gt: '' } }, 'name'],
    ];
    for (const [key, json, field] of cases) {
      const res = await invoke(key, { token: t.admin.token, json });
      expect(res.status, `${key} ${JSON.stringify(json)}`).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const put = await invoke('PUT /contact-list-items/{id}', { token: t.admin.token, params: { id: item.id }, json: { number: '12' } });
    expect(put.body).toMatchObject({ field: 'number', message: 'Too Short!' });
    for (const [query, field] of [
      [{}, 'contactListId'],
      [{ contactListId: '-1' }, 'contactListId'],
      [{ contactListId: String(list.id), pageNumber: '1e309' }, 'pageNumber'],
      [{ contactListId: String(list.id), searchParam: 'x'.repeat(500) }, 'searchParam'],
    ] as const) {
      const res = await page(query as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    for (const id of ['abc', '-1', '0', '99999999999999999999']) {
      expect(
        (await invoke('GET /contact-lists/{id}', { token: t.admin.token, params: { id } as unknown as Record<string, number> })).status,
      ).toBe(400);
    }
    expect((await invoke('GET /contact-lists', { token: t.admin.token, query: { pageNumber: 'abc' } })).body.field).toBe('pageNumber');
  });
});
