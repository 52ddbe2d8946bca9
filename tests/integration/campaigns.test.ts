/**
 * Campaigns' first increment over the local stack, as a client calls it through the gateway: a
 * contact list filled by an .xlsx upload (the same reader as the contacts import) and paged with a
 * signed cursor, a scheduled campaign that is PROGRAMADA and editable until an hour before its start,
 * the company's socket told of each change on `company-{id}-campaign`, the settings' allowed
 * values, and the gates: a plan without useCampaigns (403), another tenant's ids (404), a plain user
 * on the admin-only routes (403), a forged token (401). The shipping engine is not part of this step.
 */
import { randomInt } from 'node:crypto';
import type { Campaign } from '@conversa/functions/contracts/campaigns';
import { channels } from '@conversa/functions/contracts/channels';
import type { ContactList, ContactListItemsPage } from '@conversa/functions/contracts/contact-lists';
import { utils, write } from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { connectSocket, ok, type Socket } from './whatsapp-kit.ts';

let call: Call;
let superToken: string;
let a: Tenant;
let b: Tenant;
let socket: Socket | undefined;

const phone = () => `55119${randomInt(10_000_000, 99_999_999)}`;
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

beforeAll(async () => {
  call = client(inject('apiUrl'));
  superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  a = await createTenant(call, superToken, planId, 'campaigns-a');
  b = await createTenant(call, superToken, planId, 'campaigns-b');
  socket = await connectSocket(inject('wsUrl'), a.user.token);
});

afterAll(() => socket?.close());

async function uploadSheet(t: Tenant, listId: number, rows: unknown[][]): Promise<{ status: number; body: unknown }> {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Contatos');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer)]), 'lista.xlsx');
  const res = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/contact-lists/${listId}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.user.token}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

describe('contact lists and campaigns over the local stack', () => {
  it('fills a list from an .xlsx, pages it with a signed cursor, and schedules a campaign to it', async () => {
    const list = await ok<ContactList>(call, 'POST', '/contact-lists', { token: a.user.token, body: { name: 'Clientes 2026' } });
    const rows = [['Nome', 'Telefone', 'Email'], ...Array.from({ length: 45 }, (_, i) => [`Cliente ${i}`, phone(), `c${i}@loja.test`])];
    rows.push(['X', '1', '']);
    const uploaded = await uploadSheet(a, list.id, rows);
    expect(uploaded).toEqual({
      status: 200,
      body: { imported: 45, duplicated: 0, invalid: [{ row: 47, field: 'name', message: 'Too Short!' }] },
    });
    const again = await uploadSheet(a, list.id, rows.slice(0, 3));
    expect(again.body).toMatchObject({ imported: 0, duplicated: 2 });

    const first = await ok<ContactListItemsPage>(call, 'GET', '/contact-list-items', {
      token: a.user.token,
      query: { contactListId: String(list.id) },
    });
    expect(first.contacts).toHaveLength(40);
    expect(first.contacts.every((c) => c.isWhatsappValid === null)).toBe(true);
    const second = await ok<ContactListItemsPage>(call, 'GET', '/contact-list-items', {
      token: a.user.token,
      query: { contactListId: String(list.id), cursor: first.nextCursor as string },
    });
    expect(second.contacts).toHaveLength(5);
    const stolen = await call('GET', '/contact-list-items', {
      token: a.user.token,
      query: { contactListId: String(list.id), cursor: `${first.nextCursor}x` },
    });
    expect(stolen.status).toBe(400);
    expect((await ok<ContactList>(call, 'GET', `/contact-lists/${list.id}`, { token: a.user.token })).contactsCount).toBe(45);

    const connection = await ok<{ id: number }>(call, 'POST', '/whatsapp', {
      token: a.admin.token,
      body: { name: 'Loja', token: `campaign-${randomInt(1e9)}-token` },
    });
    const campaign = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: {
        name: 'Oferta de março',
        contactListId: list.id,
        whatsappId: connection.id,
        message1: 'Olá {nome}!',
        scheduledAt: inHours(2),
      },
    });
    expect(campaign).toMatchObject({
      status: 'PROGRAMADA',
      editable: true,
      contactList: { id: list.id, contactsCount: 45 },
      whatsapp: { name: 'Loja' },
    });
    await socket!.waitFor(
      'the campaign create event',
      (f) => f.event === channels.campaign(a.companyId) && JSON.stringify(f.data).includes(`"id":${campaign.id}`),
    );
    // Within the hour it is read-only: the server refuses, not only the form.
    const soon = await call('PUT', `/campaigns/${campaign.id}`, { token: a.user.token, body: { scheduledAt: inHours(0.5) } });
    expect(soon.status).toBe(200);
    const late = await call('PUT', `/campaigns/${campaign.id}`, { token: a.user.token, body: { name: 'Tarde demais' } });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: 'ERR_CAMPAIGN_NOT_EDITABLE' });
    // Its list is not deleted under it.
    expect((await call('DELETE', `/contact-lists/${list.id}`, { token: a.user.token })).status).toBe(409);
    const records = await ok<{ records: Campaign[]; hasMore: boolean }>(call, 'GET', '/campaigns', {
      token: a.user.token,
      query: { searchParam: 'marco' },
    });
    expect(records.records.map((r) => r.id)).toEqual([campaign.id]);
  });

  it('keeps campaign settings to the allowed values; only admins change them', async () => {
    const bad = await call('POST', '/campaign-settings', { token: a.admin.token, body: { settings: { messageInterval: 3 } } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'settings.messageInterval' });
    expect((await call('POST', '/campaign-settings', { token: a.user.token, body: { settings: { messageInterval: 5 } } })).status).toBe(
      403,
    );
    await ok(call, 'POST', '/campaign-settings', { token: a.admin.token, body: { settings: { messageInterval: 5, greaterInterval: 30 } } });
    const read = await ok<{ key: string; value: string }[]>(call, 'GET', '/campaign-settings', { token: a.user.token });
    expect(read).toContainEqual({ key: 'messageInterval', value: '5' });
    expect(read).toContainEqual({ key: 'greaterInterval', value: '30' });
    expect(read).toContainEqual({ key: 'longerIntervalAfter', value: '20' });
  });

  it("refuses another tenant's lists, items and campaigns (404), forged tokens (401) and a plan without useCampaigns (403)", async () => {
    for (let i = 0; i < 3; i++) await ok(call, 'POST', '/contact-lists', { token: b.admin.token, body: { name: `Filler ${i}` } });
    const theirList = await ok<ContactList>(call, 'POST', '/contact-lists', { token: b.admin.token, body: { name: 'Lista de B' } });
    // Item ids are per company and A holds ~50: B's item comes after as many of B's own.
    await ok(call, 'POST', `/contact-lists/${theirList.id}/upload`, {
      token: b.admin.token,
      body: { contacts: Array.from({ length: 80 }, (_, i) => ({ name: `Filler ${i}`, number: phone() })) },
    });
    const theirItem = await ok<{ id: number }>(call, 'POST', '/contact-list-items', {
      token: b.admin.token,
      body: { name: 'Contato de B', number: phone(), contactListId: theirList.id },
    });
    for (let i = 0; i < 3; i++) await ok(call, 'POST', '/campaigns', { token: b.admin.token, body: { name: `Filler ${i}` } });
    const theirCampaign = await ok<Campaign>(call, 'POST', '/campaigns', { token: b.admin.token, body: { name: 'Campanha de B' } });
    for (const [method, path, body] of [
      ['GET', `/contact-lists/${theirList.id}`],
      ['PUT', `/contact-lists/${theirList.id}`, { name: 'Roubada' }],
      ['DELETE', `/contact-lists/${theirList.id}`],
      ['GET', `/contact-list-items/${theirItem.id}`],
      ['DELETE', `/contact-list-items/${theirItem.id}`],
      ['GET', `/campaigns/${theirCampaign.id}`],
      ['PUT', `/campaigns/${theirCampaign.id}`, { name: 'Roubada' }],
      ['DELETE', `/campaigns/${theirCampaign.id}`],
      ['POST', '/campaigns', { name: 'Com a lista de B', contactListId: theirList.id }],
    ] as const) {
      const res = await call(method, path, { token: a.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).not.toContain('de B');
    }
    const list = await call('GET', '/contact-list-items', { token: a.admin.token, query: { contactListId: String(theirList.id) } });
    expect(list.status).toBe(404);
    expect((await ok<Campaign>(call, 'GET', `/campaigns/${theirCampaign.id}`, { token: b.admin.token })).name).toBe('Campanha de B');

    expect((await call('GET', '/campaigns', { token: `${a.admin.token.slice(0, -4)}AAAA` })).status).toBe(401);
    expect((await call('GET', '/contact-lists')).status).toBe(401);
    const plan = await ok<{ id: number }>(call, 'POST', '/plans', {
      token: superToken,
      body: { name: `Sem campanhas ${randomInt(1e9)}`, useCampaigns: false },
    });
    const without = await createTenant(call, superToken, plan.id, 'campaigns-off');
    for (const path of ['/campaigns', '/contact-lists', '/campaign-settings', '/contact-lists/list']) {
      const res = await call('GET', path, { token: without.admin.token });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useCampaigns' });
    }
  });
});
