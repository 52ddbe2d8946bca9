/**
 * Campaign lists over the local stack (issue 10), as a client calls them through the gateway:
 * - a list's numbers become WhatsApp-valid or not through the company's connected session (the
 *   simulated network: 10-15 digits not starting with 0 are on it), the page told to reload over
 *   the socket; numbers added while no session is connected stay unchecked until one connects;
 * - a file list's files uploaded several at once (multipart) and by presigned PUT, downloaded back
 *   through the media route, and out of reach of another tenant, of a plain user's writes and of
 *   garbage (4xx, nothing stored).
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { ContactList, ContactListItem, ContactListItemsPage } from '@conversa/functions/contracts/contact-lists';
import type { FileList } from '@conversa/functions/contracts/file-lists';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { connectedConnection, connectSocket, ok, type Simulator, type Socket, simulator, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let a: Tenant;
let b: Tenant;
let socket: Socket | undefined;

const onWhatsApp = () => `55119${randomInt(10_000_000, 99_999_999)}`;
/** Nine digits: well formed (an import refuses a leading 0 since 80de565), but the simulated network has accounts for 10 to 15 digits only. */
const offWhatsApp = () => `9${randomInt(10_000_000, 99_999_999)}`;
const api = () => inject('apiUrl').replace(/\/$/, '');

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  [a, b] = await Promise.all([createTenant(call, superToken, planId, 'lists-a'), createTenant(call, superToken, planId, 'lists-b')]);
  socket = await connectSocket(inject('wsUrl'), a.user.token);
});

afterAll(() => socket?.close());

async function items(t: Tenant, listId: number): Promise<ContactListItem[]> {
  const page = await ok<ContactListItemsPage>(call, 'GET', '/contact-list-items', {
    token: t.user.token,
    query: { contactListId: String(listId) },
  });
  return page.contacts;
}

const verdicts = (list: ContactListItem[]) => Object.fromEntries(list.map((item) => [item.number, item.isWhatsappValid]));

describe('WhatsApp validity of list contacts', () => {
  it('checks an uploaded list through the connected session: valid and invalid per the network, live', async () => {
    await connectedConnection(call, sim, { token: a.admin.token, companyId: a.companyId, queues: ['Listas'] });
    const list = await ok<ContactList>(call, 'POST', '/contact-lists', { token: a.user.token, body: { name: 'Verificar' } });
    const valid = Array.from({ length: 3 }, onWhatsApp);
    const invalid = Array.from({ length: 2 }, offWhatsApp);
    const rows = [...valid, ...invalid].map((number, i) => ({ name: `Contato ${i}`, number }));
    expect(await ok(call, 'POST', `/contact-lists/${list.id}/upload`, { token: a.user.token, body: { contacts: rows } })).toMatchObject({
      imported: 5,
    });
    await waitUntil('every number checked', async () => (await items(a, list.id)).every((item) => item.isWhatsappValid !== null));
    expect(verdicts(await items(a, list.id))).toEqual({
      ...Object.fromEntries(valid.map((n) => [n, true])),
      ...Object.fromEntries(invalid.map((n) => [n, false])),
    });
    // The list's page hears of it: the upload's reload, then the verdicts' own.
    const reloads = () => (socket?.frames ?? []).filter((frame) => frame.event === channels.contactListItems(a.companyId, list.id));
    await waitUntil('the verdicts reload the list', async () => reloads().length >= 2);

    // One added by hand, and one renumbered off WhatsApp, are checked again.
    const added = await ok<ContactListItem>(call, 'POST', '/contact-list-items', {
      token: a.user.token,
      body: { name: 'Manual', number: onWhatsApp(), contactListId: list.id },
    });
    const renumbered = (await items(a, list.id)).find((item) => item.number === valid[0]) as ContactListItem;
    const off = offWhatsApp();
    await ok(call, 'PUT', `/contact-list-items/${renumbered.id}`, { token: a.user.token, body: { number: off } });
    await waitUntil('the new numbers checked', async () => {
      const now = verdicts(await items(a, list.id));
      return now[added.number] === true && now[off] === false;
    });
  });

  it('leaves numbers unchecked while no session is connected, and checks them when one connects', async () => {
    const list = await ok<ContactList>(call, 'POST', '/contact-lists', { token: b.user.token, body: { name: 'Sem conexão' } });
    const [yes, no] = [onWhatsApp(), offWhatsApp()];
    for (const number of [yes, no])
      await ok(call, 'POST', '/contact-list-items', { token: b.user.token, body: { name: 'Espera', number, contactListId: list.id } });
    expect(verdicts(await items(b, list.id))).toEqual({ [yes]: null, [no]: null });
    await connectedConnection(call, sim, { token: b.admin.token, companyId: b.companyId, queues: ['Depois'] });
    await waitUntil('checked on connect', async () => (await items(b, list.id)).every((item) => item.isWhatsappValid !== null));
    expect(verdicts(await items(b, list.id))).toEqual({ [yes]: true, [no]: false });
  });
});

async function uploadFiles(t: Tenant, id: number, parts: [string, string | Blob, string?][]) {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (filename) form.append(name, value as Blob, filename);
    else form.append(name, value as string);
  }
  const res = await fetch(`${api()}/files/uploadList/${id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.admin.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as FileList & { error?: string; field?: string } };
}

/** GET /public/... as the browser does: the route answers a redirect to a short-lived presigned URL. */
async function download(t: Tenant, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${api()}${path}`, { headers: { authorization: `Bearer ${t.user.token}` } });
  return { status: res.status, text: res.ok ? await res.text() : '' };
}

describe('file lists', () => {
  it('uploads several files at once and by presigned PUT, and serves them back to the company only', async () => {
    const list = await ok<FileList>(call, 'POST', '/files', {
      token: a.admin.token,
      body: { name: 'Catálogo', message: 'Veja os arquivos', options: [{ name: 'Preços' }] },
    });
    const sent = await uploadFiles(a, list.id, [
      ['id', '1'],
      ['files', new Blob(['tabela de preços'], { type: 'application/pdf' }), 'precos.pdf'],
      ['id', ''],
      ['name', ''],
      ['name', 'Foto'],
      ['files', new Blob(['imagem'], { type: 'image/png' }), 'foto.png'],
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.options).toMatchObject([
      { id: 1, name: 'Preços', mediaName: 'precos.pdf', mediaType: 'application/pdf' },
      { id: 2, name: 'Foto', mediaName: 'foto.png', mediaType: 'image/png' },
    ]);
    const [precos, foto] = sent.body.options.map((option) => option.path as string);
    expect(await download(a, precos as string)).toEqual({ status: 200, text: 'tabela de preços' });
    expect((await download(b, foto as string)).status).toBe(404);

    // A large file goes straight to the bucket with a grant, then is named by its key.
    const bytes = new TextEncoder().encode('um vídeo grande');
    const grant = await ok<{ key: string; uploadUrl: string; headers: Record<string, string> }>(
      call,
      'POST',
      `/files/uploadList/${list.id}/uploads`,
      {
        token: a.admin.token,
        body: { fileName: 'video.mp4', contentType: 'video/mp4', size: bytes.length },
      },
    );
    expect((await fetch(grant.uploadUrl, { method: 'PUT', headers: grant.headers, body: bytes })).ok).toBe(true);
    const attached = await ok<FileList>(call, 'POST', `/files/uploadList/${list.id}`, {
      token: a.admin.token,
      body: { options: [{ id: 2, key: grant.key }] },
    });
    expect(attached.options[1]).toMatchObject({ name: 'Foto', mediaName: 'video.mp4', mediaType: 'video/mp4' });
    expect(await download(a, attached.options[1]?.path as string)).toEqual({ status: 200, text: 'um vídeo grande' });
    expect((await download(a, foto as string)).status).toBe(404);

    // Another tenant: nothing to see, change or delete; a plain user of the company reads only.
    for (const [method, body] of [['GET'], ['PUT', { name: 'Hijack' }], ['DELETE']] as const) {
      expect((await call(method, `/files/${list.id}`, { token: b.admin.token, body })).status, method).toBe(404);
    }
    expect((await uploadFiles(b, list.id, [['files', new Blob(['x']), 'x.pdf']])).status).toBe(404);
    expect((await ok<{ files: FileList[] }>(call, 'GET', '/files', { token: b.admin.token })).files).toEqual([]);
    expect((await call('GET', `/files/${list.id}`, { token: a.user.token })).status).toBe(200);
    expect((await call('PUT', `/files/${list.id}`, { token: a.user.token, body: { name: 'Minha' } })).status).toBe(403);
    expect((await call('DELETE', `/files/${list.id}`, { token: a.user.token })).status).toBe(403);

    // Garbage: 4xx naming the field, nothing stored.
    for (const body of [
      { name: 'ab', message: 'x' },
      { name: 'Lista', message: '' },
      { name: 'Lista', message: 'x', options: [{ name: 7 }] },
    ]) {
      const res = await call('POST', '/files', { token: a.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const unknownOption = await uploadFiles(a, list.id, [
      ['id', '99'],
      ['files', new Blob(['x']), 'x.pdf'],
    ]);
    expect(unknownOption).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'options.0.id' } });
    expect((await ok<FileList>(call, 'GET', `/files/${list.id}`, { token: a.admin.token })).options).toHaveLength(2);

    // A campaign names it; deleting the list removes its files.
    const campaign = await call('POST', '/campaigns', { token: a.user.token, body: { name: 'Com arquivos', fileListId: list.id } });
    expect(campaign.status, campaign.text).toBe(201);
    expect((await call('POST', '/campaigns', { token: b.user.token, body: { name: 'Alheia', fileListId: list.id } })).status).toBe(404);
    expect((await call('DELETE', `/files/${list.id}`, { token: a.admin.token })).status).toBe(204);
    expect((await download(a, precos as string)).status).toBe(404);
  });
});
