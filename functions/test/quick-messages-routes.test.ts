/**
 * Quick messages over DynamoDB Local + cognito-local + s3rver: shortcode 'Obrigatório', own + geral
 * visibility, author-or-admin changes, search and pages, the media upload (spaces -> underscores,
 * bytes in the tenant's bucket prefix, replaced and removed objects deleted), tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, invoke, multipart, readObject, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let t: Tenant;
let author: { id: number; token: string };
let colleague: { id: number; token: string };

beforeAll(async () => {
  env = await startEnv();
  t = await seedTenant(env.stack);
  [author, colleague] = await Promise.all([t.addUser('user'), t.addUser('user')]);
}, 120_000);
afterAll(async () => env?.stop());

const create = (token: string, json: Record<string, unknown>) => invoke('POST /quick-messages', { token, json });
const keyOf = (route: string) => decodeURIComponent(route.replace(/^\/public\//, ''));

describe('quick messages', () => {
  it('validates, and shows each user their own and the geral ones', async () => {
    expect((await create(author.token, { message: 'x' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'shortcode',
      message: 'Obrigatório',
    });
    expect((await create(author.token, { shortcode: '  ' })).body.message).toBe('Obrigatório');
    const own = await create(author.token, { shortcode: 'oi', message: 'Olá, tudo bem?' });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ shortcode: 'oi', geral: false, status: true, isMedia: false, mediaPath: null, userId: author.id });
    const shared = await create(colleague.token, { shortcode: 'pix', message: 'Nossa chave PIX', geral: true });
    const hidden = await create(colleague.token, { shortcode: 'private', message: 'só meu' });

    const list = await invoke('GET /quick-messages/list', { token: author.token });
    expect(list.body.map((q: { shortcode: string }) => q.shortcode)).toEqual(['oi', 'pix']);
    expect(Object.keys(list.body[0]).sort()).toEqual(['id', 'isMedia', 'mediaName', 'mediaPath', 'message', 'shortcode']);
    expect((await invoke('GET /quick-messages/{id}', { token: author.token, params: { id: hidden.body.id } })).status).toBe(404);
    expect((await invoke('GET /quick-messages/{id}', { token: t.admin.token, params: { id: hidden.body.id } })).status).toBe(200);
    // Geral is usable by all, changed only by its author or an admin.
    expect(
      (await invoke('PUT /quick-messages/{id}', { token: author.token, params: { id: shared.body.id }, json: { message: 'no' } })).status,
    ).toBe(403);
    expect((await invoke('DELETE /quick-messages/{id}', { token: author.token, params: { id: shared.body.id } })).status).toBe(403);
    const edited = await invoke('PUT /quick-messages/{id}', {
      token: t.admin.token,
      params: { id: shared.body.id },
      json: { message: 'PIX: 123' },
    });
    expect(edited.body).toMatchObject({ message: 'PIX: 123', shortcode: 'pix' });

    const search = await invoke('GET /quick-messages', { token: author.token, query: { searchParam: 'PIX' } });
    expect(search.body).toEqual({ records: [expect.objectContaining({ id: shared.body.id })], hasMore: false });
    const adminView = await invoke('GET /quick-messages', { token: t.admin.token, query: { userId: String(colleague.id) } });
    expect(adminView.body.records.map((q: { id: number }) => q.id).sort()).toEqual([shared.body.id, hidden.body.id].sort());
  });

  it('pages by 20', async () => {
    const lonely = await seedTenant(env.stack);
    for (let i = 0; i < 23; i++) await create(lonely.admin.token, { shortcode: `s${String(i).padStart(2, '0')}`, message: 'm' });
    const first = await invoke('GET /quick-messages', { token: lonely.admin.token });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await invoke('GET /quick-messages', { token: lonely.admin.token, query: { pageNumber: '2' } });
    expect(second.body.records.map((q: { shortcode: string }) => q.shortcode)).toEqual(['s20', 's21', 's22']);
    expect(second.body.hasMore).toBe(false);
  });

  it('uploads, replaces and removes the media file in the tenant prefix', async () => {
    const made = await create(author.token, { shortcode: 'catalogo', message: 'Veja o catálogo' });
    const id = made.body.id;
    const upload = (name: string, bytes: string, token = author.token) =>
      invoke('POST /quick-messages/{id}/media-upload', {
        token,
        params: { id },
        raw: multipart([
          { name: 'typeArch', value: 'quickMessage' },
          { name: 'file', value: Buffer.from(bytes), filename: name, contentType: 'application/pdf' },
        ]),
      });
    const first = await upload('meu catalogo 2024.pdf', 'first pdf');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ isMedia: true, mediaName: 'meu_catalogo_2024.pdf' });
    const firstKey = keyOf(first.body.mediaPath);
    expect(firstKey.startsWith(`${t.companyId}/quick-messages/${id}/`)).toBe(true);
    expect((await readObject(firstKey))?.toString()).toBe('first pdf');
    expect((await upload('x.pdf', 'steal', colleague.token)).status).toBe(404);

    const second = await upload('novo.pdf', 'second pdf');
    expect((await readObject(keyOf(second.body.mediaPath)))?.toString()).toBe('second pdf');
    expect(await readObject(firstKey)).toBeUndefined();

    expect((await invoke('POST /quick-messages/{id}/media-upload', { token: author.token, params: { id }, json: {} })).status).toBe(400);
    const removed = await invoke('DELETE /quick-messages/{id}/media-upload', { token: author.token, params: { id } });
    expect(removed.body).toMatchObject({ isMedia: false, mediaPath: null, mediaName: '' });
    expect(await readObject(keyOf(second.body.mediaPath))).toBeUndefined();
    expect((await invoke('DELETE /quick-messages/{id}', { token: author.token, params: { id } })).status).toBe(204);
    expect((await invoke('GET /quick-messages/{id}', { token: author.token, params: { id } })).status).toBe(404);
  });

  it('takes no page, SVG or program as its file, by form or by grant, and keeps the one it had', async () => {
    const made = await create(author.token, { shortcode: 'perigo', message: 'x' });
    const id = made.body.id;
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['setup.exe', 'application/x-msdownload'],
      ['\u202Egnp.exe', 'image/png'],
    ]) {
      const form = await invoke('POST /quick-messages/{id}/media-upload', {
        token: author.token,
        params: { id },
        raw: multipart([{ name: 'file', value: Buffer.from('<svg onload="alert(1)"/>'), filename: name, contentType: type }]),
      });
      expect(form.status, name).toBe(400);
      expect(form.body, name).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'file' });
      const grant = await invoke('POST /quick-messages/{id}/uploads', {
        token: author.token,
        params: { id },
        json: { fileName: name, contentType: type, size: 10 },
      });
      expect(grant.status, name).toBe(400);
      expect(grant.body, name).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'contentType' });
    }
    expect((await invoke('GET /quick-messages/{id}', { token: author.token, params: { id } })).body).toMatchObject({ isMedia: false });
  });

  it('takes a file the browser uploaded to the bucket itself, larger than a request could carry', async () => {
    const made = await create(author.token, { shortcode: 'video', message: 'Nosso vídeo' });
    const id = made.body.id;
    const bytes = Buffer.alloc(7 * 1024 * 1024, 7);
    const grant = await invoke('POST /quick-messages/{id}/uploads', {
      token: author.token,
      params: { id },
      json: { fileName: 'apresentação.mp4', contentType: 'video/mp4', size: bytes.length },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect(grant.body.key).toMatch(new RegExp(`^${t.companyId}/quick-messages/${id}/[0-9a-f-]{36}/apresenta.+o\\.mp4$`));
    const attach = (key: string, token = author.token) =>
      invoke('POST /quick-messages/{id}/media-upload', { token, params: { id }, json: { key } });
    // Named before it is there: refused, nothing changes.
    expect((await attach(grant.body.key)).body).toMatchObject({ error: 'ERR_VALIDATION', field: 'key' });
    const put = await fetch(grant.body.uploadUrl, { method: 'PUT', headers: grant.body.headers, body: bytes });
    expect(put.ok).toBe(true);
    // A colleague may not ask for a grant or attach to it; another record's prefix is not this one's.
    expect((await attach(grant.body.key, colleague.token)).status).toBe(404);
    expect(
      (
        await invoke('POST /quick-messages/{id}/uploads', {
          token: colleague.token,
          params: { id },
          json: { fileName: 'a.pdf', contentType: 'application/pdf', size: 3 },
        })
      ).status,
    ).toBe(404);
    const elsewhere = await create(author.token, { shortcode: 'outro' });
    expect(
      (
        await invoke('POST /quick-messages/{id}/media-upload', {
          token: author.token,
          params: { id: elsewhere.body.id },
          json: { key: grant.body.key },
        })
      ).body,
    ).toMatchObject({ error: 'ERR_VALIDATION', field: 'key' });
    expect((await attach(`${t.companyId}/quick-messages/${id}/../x.pdf`)).status).toBe(400);

    const attached = await attach(grant.body.key);
    expect(attached.status).toBe(200);
    expect(attached.body).toMatchObject({ isMedia: true, mediaName: grant.body.key.split('/').at(-1) });
    expect(keyOf(attached.body.mediaPath)).toBe(grant.body.key);
    expect((await readObject(grant.body.key))?.length).toBe(bytes.length);
  });

  it("never reaches another tenant's quick messages", async () => {
    const other = await seedTenant(env.stack);
    const theirs = await create(other.admin.token, { shortcode: 'foreign', geral: true });
    const lonely = await seedTenant(env.stack);
    const opts = { token: lonely.admin.token, params: { id: theirs.body.id } };
    expect((await invoke('GET /quick-messages/{id}', opts)).status).toBe(404);
    expect((await invoke('PUT /quick-messages/{id}', { ...opts, json: { message: 'x' } })).status).toBe(404);
    expect((await invoke('DELETE /quick-messages/{id}/media-upload', opts)).status).toBe(404);
    expect((await invoke('GET /quick-messages/list', { token: lonely.admin.token })).body).toEqual([]);
  });
});
