/**
 * Announcements over the local stack (SPEC 2 "Announcements", 3, 5, 7; issue 12): the super user
 * writes them with an image uploaded straight to the bucket; a user of any company lists the active
 * ones, opens one and fetches its image, and hears every change live on `company-announcement`;
 * an inactive one is gone for them (list, detail, image). Only super users write: an admin, a plain
 * user, a forged or missing token are refused, and garbage in every field and parameter is a 4xx.
 */
import type { Announcement, AnnouncementEvent, AnnouncementsPage } from '@conversa/functions/contracts/announcements';
import { channels } from '@conversa/functions/contracts/channels';
import type { MediaUpload } from '@conversa/functions/contracts/messages';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { connectSocket, ok, type Socket } from './whatsapp-kit.ts';

let call: Call;
let superToken: string;
let a: Tenant;
let b: Tenant;
let socket: Socket | undefined;

const apiUrl = () => inject('apiUrl').replace(/\/$/, '');
// A 1x1 PNG: the bytes a browser would upload.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  call = client(inject('apiUrl'));
  superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  a = await createTenant(call, superToken, planId, 'announce-a');
  b = await createTenant(call, superToken, planId, 'announce-b');
  socket = await connectSocket(inject('wsUrl'), b.user.token);
});

afterAll(() => socket?.close());

const create = (body: unknown) => ok<Announcement>(call, 'POST', '/announcements', { token: superToken, body });

/** As the web does it: a grant, a PUT of the bytes to the bucket, then the key named on the record. */
async function uploadImage(id: number, fileName = 'aviso.png', contentType = 'image/png'): Promise<Announcement> {
  const grant = await ok<MediaUpload>(call, 'POST', `/announcements/${id}/uploads`, {
    token: superToken,
    body: { fileName, contentType, size: PNG.length },
  });
  const put = await fetch(grant.uploadUrl, { method: grant.method, headers: grant.headers, body: PNG });
  expect(put.status).toBeLessThan(300);
  return ok<Announcement>(call, 'POST', `/announcements/${id}/media-upload`, { token: superToken, body: { key: grant.key } });
}

const fetchMedia = (mediaPath: string, token: string) =>
  fetch(`${apiUrl()}${mediaPath}`, { headers: { authorization: `Bearer ${token}` } });

describe('announcements', () => {
  it('the super user creates one with an image; users of every company read it, fetch the image and hear it live', async () => {
    const title = `Manutenção ${Date.now()}`;
    const made = await create({ title, text: 'Sábado das 22h às 23h', priority: 1 });
    expect(made).toMatchObject({ title, text: 'Sábado das 22h às 23h', priority: 1, status: true, mediaPath: null });
    const created = await socket!.waitFor(
      'the create event',
      (f) => f.event === channels.announcement() && (f.data as AnnouncementEvent).action === 'create',
    );
    expect((created.data as { record: Announcement }).record.title).toBe(title);

    const withImage = await uploadImage(made.id);
    expect(withImage.mediaName).toBe('aviso.png');
    expect(withImage.mediaPath).toMatch(new RegExp(`^/public/announcements/${made.id}/[0-9a-f-]{36}/aviso\\.png$`));
    await socket!.waitFor(
      'the update event with the image',
      (f) => f.event === channels.announcement() && (f.data as { record?: Announcement }).record?.mediaPath === withImage.mediaPath,
    );

    for (const reader of [a.user, a.admin, b.user]) {
      const page = await ok<AnnouncementsPage>(call, 'GET', '/announcements', { token: reader.token, query: { searchParam: title } });
      expect(page).toEqual({ records: [expect.objectContaining({ id: made.id, title, priority: 1 })], hasMore: false });
      expect((await ok<Announcement>(call, 'GET', `/announcements/${made.id}`, { token: reader.token })).text).toBe(
        'Sábado das 22h às 23h',
      );
      const image = await fetchMedia(withImage.mediaPath as string, reader.token);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    }
  });

  it('an inactive announcement is gone for users (list, detail, image, a delete event) and stays for the super user', async () => {
    const made = await create({ title: `Rascunho ${Date.now()}`, text: 'Ainda não', priority: '2', status: 'false' });
    expect(made).toMatchObject({ priority: 2, status: false });
    const withImage = await uploadImage(made.id, 'rascunho.JPG', 'image/jpeg');
    await socket!.waitFor('the delete event', (f) => f.event === channels.announcement() && (f.data as { id?: number }).id === made.id);

    const listed = await ok<AnnouncementsPage>(call, 'GET', '/announcements', { token: a.user.token, query: { searchParam: 'Rascunho' } });
    expect(listed.records.map((r) => r.id)).not.toContain(made.id);
    expect((await call('GET', `/announcements/${made.id}`, { token: a.user.token })).status).toBe(404);
    expect((await fetchMedia(withImage.mediaPath as string, a.user.token)).status).toBe(404);
    // The event that told the sockets carried no text of the inactive announcement.
    expect(socket!.frames.some((f) => JSON.stringify(f.data).includes('Ainda não'))).toBe(false);

    const mine = await ok<AnnouncementsPage>(call, 'GET', '/announcements', { token: superToken, query: { searchParam: 'Rascunho' } });
    expect(mine.records.map((r) => r.id)).toContain(made.id);
    expect((await fetchMedia(withImage.mediaPath as string, superToken)).status).toBe(200);

    // Turned on, it reaches users live; turned off again, it leaves them live.
    await ok(call, 'PUT', `/announcements/${made.id}`, { token: superToken, body: { status: true } });
    await socket!.waitFor(
      'the update event',
      (f) => f.event === channels.announcement() && (f.data as { record?: Announcement }).record?.text === 'Ainda não',
    );
    expect((await ok<Announcement>(call, 'GET', `/announcements/${made.id}`, { token: a.user.token })).status).toBe(true);
    const before = socket!.frames.length;
    await ok(call, 'PUT', `/announcements/${made.id}`, { token: superToken, body: { status: false } });
    await socket!.waitFor(
      'the second delete event',
      (f) => socket!.frames.indexOf(f) >= before && f.event === channels.announcement() && (f.data as { id?: number }).id === made.id,
    );
    expect((await call('GET', `/announcements/${made.id}`, { token: a.user.token })).status).toBe(404);

    // The image removed, then the announcement: its file goes with it, users were already without it.
    expect((await ok<Announcement>(call, 'DELETE', `/announcements/${made.id}/media-upload`, { token: superToken })).mediaPath).toBeNull();
    expect((await fetchMedia(withImage.mediaPath as string, superToken)).status).toBe(404);
    expect((await call('DELETE', `/announcements/${made.id}`, { token: superToken })).status).toBe(204);
    expect((await call('GET', `/announcements/${made.id}`, { token: superToken })).status).toBe(404);
  });

  it('searches and pages the list: priority first, records and hasMore', async () => {
    const tag = `pagina${Date.now()}`;
    for (let i = 0; i < 21; i++) await create({ title: `${tag} ${i}`, text: 'x', priority: i === 20 ? 1 : 3 });
    const first = await ok<AnnouncementsPage>(call, 'GET', '/announcements', { token: a.user.token, query: { searchParam: tag } });
    expect(first.records).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.records[0]?.title).toBe(`${tag} 20`);
    const second = await ok<AnnouncementsPage>(call, 'GET', '/announcements', {
      token: a.user.token,
      query: { searchParam: tag, pageNumber: '2' },
    });
    expect(second).toEqual({ records: [expect.objectContaining({ title: `${tag} 0` })], hasMore: false });
  });

  it('only super users write: admins and users 403, forged or missing tokens 401, and nothing changes', async () => {
    const made = await create({ title: `Intocável ${Date.now()}`, text: 'original' });
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/announcements', { title: 'Hijack', text: 'x' }],
      ['PUT', `/announcements/${made.id}`, { title: 'Hijacked' }],
      ['DELETE', `/announcements/${made.id}`],
      ['POST', `/announcements/${made.id}/uploads`, { fileName: 'x.png', contentType: 'image/png', size: 10 }],
      ['POST', `/announcements/${made.id}/media-upload`, { key: `announcements/${made.id}/x/y.png` }],
      ['DELETE', `/announcements/${made.id}/media-upload`],
    ];
    for (const [method, path, body] of writes) {
      for (const token of [a.admin.token, a.user.token, b.admin.token]) {
        const res = await call(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
      for (const token of [undefined, `${superToken.slice(0, -4)}AAAA`, 'garbage']) {
        expect((await call(method, path, { token, body })).status, `${method} ${path} forged`).toBe(401);
      }
    }
    for (const path of ['/announcements', `/announcements/${made.id}`]) {
      expect((await call('GET', path, { token: `${a.user.token.slice(0, -4)}AAAA` })).status).toBe(401);
      expect((await call('GET', path)).status).toBe(401);
    }
    expect(await ok<Announcement>(call, 'GET', `/announcements/${made.id}`, { token: superToken })).toMatchObject({
      title: made.title,
      text: 'original',
    });
  });

  it('refuses garbage in every field, parameter and upload with a 4xx naming the field', async () => {
    const made = await create({ title: `Alvo ${Date.now()}`, text: 'texto' });
    const bodies: Array<[unknown, string]> = [
      [{ text: 'sem título' }, 'title'],
      [{ title: '   ', text: 'x' }, 'title'],
      [{ title: 'x' }, 'text'],
      [{ title: 'x', text: '' }, 'text'],
      [{ title: 'x'.repeat(201), text: 'x' }, 'title'],
      [{ title: 'x', text: 'x', priority: 7 }, 'priority'],
      [{ title: 'x', text: 'x', priority: 0 }, 'priority'],
      [{ title: 'x', text: 'x', priority: 'alta' }, 'priority'],
      [{ title: 'x', text: 'x', priority: 1.5 }, 'priority'],
      [{ title: 'x', text: 'x', priority: [1] }, 'priority'],
      [{ title: 'x', text: 'x', status: 'talvez' }, 'status'],
      [{ title: 'x', text: 'x', status: null }, 'status'],
      [{ title: ['x'], text: 'x' }, 'title'],
      [{ title: { $ne: '' }, text: 'x' }, 'title'],
    ];
    for (const [body, field] of bodies) {
      const res = await call('POST', '/announcements', { token: superToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    expect((await call('PUT', `/announcements/${made.id}`, { token: superToken, body: { priority: 9 } })).status).toBe(400);
    expect((await call('PUT', `/announcements/${made.id}`, { token: superToken, body: { title: '' } })).status).toBe(400);
    expect((await call('POST', '/announcements', { token: superToken, rawBody: '{"title":' })).status).toBe(400);
    for (const id of ['abc', '-1', '0', '1e309', '99999999']) {
      const res = await call('GET', `/announcements/${id}`, { token: a.user.token });
      expect([400, 404], id).toContain(res.status);
    }
    const queries: Record<string, string>[] = [
      { pageNumber: '0' },
      { pageNumber: 'x' },
      { pageNumber: '-3' },
      { searchParam: 'x'.repeat(500) },
    ];
    for (const query of queries) {
      expect((await call('GET', '/announcements', { token: a.user.token, query })).status, JSON.stringify(query)).toBe(400);
    }
    // Images only, the spec's three types, type and extension agreeing: nothing a browser would run.
    for (const [fileName, contentType] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['photo.png', 'text/html'],
      ['photo.gif', 'image/gif'],
      ['photo', 'image/png'],
    ]) {
      const res = await call('POST', `/announcements/${made.id}/uploads`, { token: superToken, body: { fileName, contentType, size: 10 } });
      expect(res.status, fileName).toBe(400);
    }
    // A key that is not an upload of this announcement: another announcement's, a tenant's, a path trick.
    for (const key of [
      `announcements/${made.id + 1}/00000000-0000-4000-8000-000000000000/x.png`,
      `${a.companyId}/quick-messages/1/00000000-0000-4000-8000-000000000000/x.png`,
      `announcements/${made.id}/../../${a.companyId}/x.png`,
      `announcements/${made.id}/00000000-0000-4000-8000-000000000000/missing.png`,
    ]) {
      const res = await call('POST', `/announcements/${made.id}/media-upload`, { token: superToken, body: { key } });
      expect(res.status, key).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'key' });
    }
    // Multipart: an HTML file is refused and never stored.
    const form = new FormData();
    form.append('file', new Blob(['<script>alert(1)</script>'], { type: 'text/html' }), 'x.html');
    const multipart = await fetch(`${apiUrl()}/announcements/${made.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${superToken}` },
      body: form,
    });
    expect(multipart.status).toBe(400);
    expect((await ok<Announcement>(call, 'GET', `/announcements/${made.id}`, { token: superToken })).mediaPath).toBeNull();
    // A media route under the announcements' area that no announcement names is nobody's.
    const probe = await fetchMedia(`/public/announcements/${made.id}/00000000-0000-4000-8000-000000000000/x.png`, a.user.token);
    expect(probe.status).toBe(404);
  });
});
