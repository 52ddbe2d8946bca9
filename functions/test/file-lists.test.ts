/**
 * File lists (issue 10) over DynamoDB Local + cognito-local + s3rver: the spec's validation messages,
 * search and pages, files uploaded multipart (several at once, onto options or as new ones) and by
 * presigned PUT, served back through the media route, replaced and removed files gone from the
 * bucket, a list a scheduled campaign sends kept, the engine's getFileList, a campaign's fileListId
 * checked in the caller's tenant, and the attacks: another tenant (404), a plain user writing (403),
 * a plan without useCampaigns (403), garbage (400 naming the field, nothing stored).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getFileList } from '#storage/file-lists';
import { CAMPAIGN_COUNTERS, hoursAhead, newItem, newList, skipIds } from './campaigns-harness.ts';
import { type Env, invoke, multipart, readObject, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

const published: { event: string; data: unknown }[] = [];
vi.mock(import('../src/realtime/publisher.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  publishToCompany: async (_companyId: number, event: string, data: unknown) => {
    published.push({ event, data });
    return { sent: 1, gone: 0, failed: 0 };
  },
}));

let env: Env;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  env = await startEnv();
  [t, other] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  await skipIds(other.companyId, [...CAMPAIGN_COUNTERS, 'FILE_LIST']);
}, 120_000);
afterAll(async () => env?.stop());

const create = (json: unknown, token = t.admin.token) => invoke('POST /files', { token, json });
const upload = (id: number, parts: Parameters<typeof multipart>[0], token = t.admin.token) =>
  invoke('POST /files/uploadList/{id}', { token, params: { id }, raw: multipart(parts) });
const file = (name: string, content: string, contentType = 'application/pdf') => ({
  name: 'files',
  value: Buffer.from(content),
  filename: name,
  contentType,
});
const keyOf = (path: string) => decodeURIComponent(path.replace(/^\/public\//, ''));

describe('file lists', () => {
  it('validates with the spec messages, creates, searches, pages, renames and publishes', async () => {
    for (const [json, field, message] of [
      [{ message: 'oi' }, 'name', 'Required'],
      [{ name: 'ab', message: 'oi' }, 'name', 'nome muito curto'],
      [{ name: 'Catálogo' }, 'message', 'Required'],
      [{ name: 'Catálogo', message: '   ' }, 'message', 'Required'],
      [{ name: 'Catálogo', message: 'oi', options: [{ name: '' }] }, 'options.0.name', 'Required'],
      [{ name: 'Catálogo', message: 'oi', options: 'x' }, 'options', undefined],
      [{ name: 'Catálogo', message: 'oi', options: Array.from({ length: 21 }, () => ({ name: 'f' })) }, 'options', undefined],
      [{ name: 'Catálogo', message: 'oi', options: [{ id: 3, name: 'f' }] }, 'options', undefined],
    ] as const) {
      const res = await create(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field, ...(message ? { message } : {}) });
    }
    published.length = 0;
    const made = await create({
      name: 'Catálogo Verão',
      message: 'Veja nossos produtos',
      options: [{ name: 'Preços' }, { name: 'Fotos' }],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Catálogo Verão',
      message: 'Veja nossos produtos',
      companyId: t.companyId,
      userId: t.admin.id,
      options: [
        { id: 1, name: 'Preços', path: null },
        { id: 2, name: 'Fotos', path: null },
      ],
    });
    for (let i = 0; i < 20; i++) await create({ name: `Lista ${String(i).padStart(2, '0')}`, message: 'm' });
    const first = await invoke('GET /files', { token: t.admin.token, query: { pageNumber: '1' } });
    expect(first.body.files).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const found = await invoke('GET /files', { token: t.admin.token, query: { searchParam: 'catalogo ver', companyId: '999' } });
    expect(found.body).toEqual({ files: [expect.objectContaining({ id: made.body.id })], hasMore: false });
    const renamed = await invoke('PUT /files/{id}', {
      token: t.admin.token,
      params: { id: made.body.id },
      json: { name: 'Catálogo Inverno' },
    });
    expect(renamed.body).toMatchObject({ name: 'Catálogo Inverno', message: 'Veja nossos produtos', options: [{ id: 1 }, { id: 2 }] });
    expect(published.filter((p) => p.event === `company-${t.companyId}-file`).map((p) => (p.data as { action: string }).action)).toEqual([
      'create',
      ...Array(20).fill('create'),
      'update',
    ]);
  });

  it('takes several files at once, serves them back, replaces and removes them in the bucket, and the engine reads them', async () => {
    const list = (await create({ name: 'Materiais', message: 'Segue', options: [{ name: 'Tabela' }] })).body;
    const sent = await upload(list.id, [
      { name: 'id', value: '1' },
      file('tabela.pdf', 'tabela v1'),
      { name: 'id', value: '' },
      { name: 'name', value: '' },
      { name: 'name', value: 'Foto da loja' },
      file('loja.jpg', 'jpeg bytes', 'image/jpeg'),
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.options).toMatchObject([
      { id: 1, name: 'Tabela', mediaType: 'application/pdf', mediaName: 'tabela.pdf' },
      { id: 2, name: 'Foto da loja', mediaType: 'image/jpeg', mediaName: 'loja.jpg' },
    ]);
    const [tabela, loja] = sent.body.options.map((o: { path: string }) => keyOf(o.path));
    expect((await readObject(tabela))?.toString()).toBe('tabela v1');
    // Downloaded back through the media route by any user of the company, never by another tenant.
    const user = await t.addUser('user');
    const served = await invoke('GET /public/{path+}', { token: user.token, params: { path: loja } });
    expect(served.status).toBe(302);
    expect(await (await fetch(served.headers.location as string)).text()).toBe('jpeg bytes');
    expect((await invoke('GET /public/{path+}', { token: other.admin.token, params: { path: loja } })).status).toBe(404);

    const engine = await getFileList(t.companyId, list.id);
    expect(engine?.message).toBe('Segue');
    expect(engine?.files).toEqual([
      { optionId: 1, key: tabela, name: 'tabela.pdf', mimetype: 'application/pdf' },
      { optionId: 2, key: loja, name: 'loja.jpg', mimetype: 'image/jpeg' },
    ]);
    expect(await getFileList(other.companyId, list.id)).toBeUndefined();

    // A new file on option 1 replaces the old object; dropping option 2 removes its file.
    const replaced = await upload(list.id, [{ name: 'id', value: '1' }, file('tabela2.pdf', 'tabela v2')]);
    const tabela2 = keyOf(replaced.body.options[0].path);
    expect(await readObject(tabela)).toBeUndefined();
    expect((await readObject(tabela2))?.toString()).toBe('tabela v2');
    const dropped = await invoke('PUT /files/{id}', {
      token: t.admin.token,
      params: { id: list.id },
      json: { options: [{ id: 1, name: 'Tabela nova' }] },
    });
    expect(dropped.body.options).toMatchObject([{ id: 1, name: 'Tabela nova', mediaName: 'tabela2.pdf' }]);
    expect(await readObject(loja)).toBeUndefined();
    expect((await invoke('GET /public/{path+}', { token: user.token, params: { path: loja } })).status).toBe(404);

    // Deleting the list removes its objects.
    expect((await invoke('DELETE /files/{id}', { token: t.admin.token, params: { id: list.id } })).status).toBe(204);
    expect(await readObject(tabela2)).toBeUndefined();
    expect((await invoke('GET /files/{id}', { token: t.admin.token, params: { id: list.id } })).status).toBe(404);
  });

  it('attaches a presigned upload by key, only one granted for this list', async () => {
    const list = (await create({ name: 'Vídeos', message: 'Assista', options: [{ name: 'Demo' }] })).body;
    const elsewhere = (await create({ name: 'Outra lista', message: 'x', options: [{ name: 'A' }] })).body;
    const bytes = Buffer.from('a large video');
    const grant = await invoke('POST /files/uploadList/{id}/uploads', {
      token: t.admin.token,
      params: { id: list.id },
      json: { fileName: 'demo.mp4', contentType: 'video/mp4', size: bytes.length },
    });
    expect(grant.status).toBe(200);
    expect((await fetch(grant.body.uploadUrl, { method: 'PUT', headers: grant.body.headers, body: bytes })).ok).toBe(true);
    const attach = (id: number, options: unknown) =>
      invoke('POST /files/uploadList/{id}', { token: t.admin.token, params: { id }, json: { options } });
    expect((await attach(elsewhere.id, [{ id: 1, key: grant.body.key }])).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'options.0.key',
    });
    expect((await attach(list.id, [{ id: 1, key: `${t.companyId}/files/${list.id}/../x.pdf` }])).status).toBe(400);
    expect((await attach(list.id, [{ id: 7, key: grant.body.key }])).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'options.0.id',
    });
    const attached = await attach(list.id, [{ id: 1, key: grant.body.key }]);
    expect(attached.body.options).toMatchObject([{ id: 1, name: 'Demo', mediaType: 'video/mp4', mediaName: 'demo.mp4' }]);
    expect(keyOf(attached.body.options[0].path)).toBe(grant.body.key);
  });

  it('takes only what WhatsApp sends (no page, SVG or program, no type disguised by its name), storing nothing it refuses', async () => {
    // Each of these, served from our bucket, would run in a browser or be a program a contact opens.
    const list = (await create({ name: 'Perigosos', message: 'x', options: [{ name: 'A' }] })).body;
    const refused: Array<[string, string]> = [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['setup.exe', 'application/x-msdownload'],
      ['boleto.pdf.exe', 'application/pdf'],
      ['photo.png', 'text/html'],
      ['script.js', 'text/javascript'],
      ['noextension', 'application/pdf'],
    ];
    for (const [name, type] of refused) {
      const res = await upload(list.id, [{ name: 'id', value: '1' }, file(name, '<svg onload="alert(1)"/>', type)]);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'files.0' });
      const grant = await invoke('POST /files/uploadList/{id}/uploads', {
        token: t.admin.token,
        params: { id: list.id },
        json: { fileName: name, contentType: type, size: 10 },
      });
      expect(grant.status, name).toBe(400);
      expect(grant.body, name).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'contentType' });
    }
    expect((await invoke('GET /files/{id}', { token: t.admin.token, params: { id: list.id } })).body.options).toMatchObject([
      { id: 1, path: null },
    ]);
    // A right-to-left override makes "\u202Egnp.exe" read "exe.png": it is an .exe, and refused as one.
    const disguised = await upload(list.id, [file('\u202Egnp.exe', 'MZ', 'image/png')]);
    expect(disguised.body).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED' });
    // An allowed file keeps no bidi control in its stored name, its key or the option named after it.
    const kept = await upload(list.id, [file('bol\u202Eeto\u2066.pdf', 'pdf bytes')]);
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.options[1]).toMatchObject({ name: 'boleto.pdf', mediaName: 'boleto.pdf', mediaType: 'application/pdf' });
    expect(keyOf(kept.body.options[1].path)).toMatch(/\/boleto\.pdf$/);
  });

  it('refuses garbage before storing anything', async () => {
    const list = (await create({ name: 'Garbage', message: 'x', options: [{ name: 'A' }] })).body;
    for (const [parts, field] of [
      [[{ name: 'id', value: '9' }, file('a.pdf', 'a')], 'options.0.id'],
      [[{ name: 'id', value: 'abc' }, file('a.pdf', 'a')], 'id.0'],
      [[{ name: 'id', value: '1' }, file('a.pdf', '')], 'files.0'],
      [[{ name: 'name', value: 'no file' }], 'files'],
    ] as const) {
      const res = await upload(list.id, [...parts]);
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    const tooMany = Array.from({ length: 10 }, (_, i) => file(`f${i}.pdf`, 'x'));
    await upload(list.id, tooMany);
    expect((await upload(list.id, tooMany)).body).toMatchObject({ error: 'ERR_VALIDATION', field: 'files' });
    expect((await invoke('GET /files/{id}', { token: t.admin.token, params: { id: list.id } })).body.options).toHaveLength(11);
    for (const json of [null, [], 'x', { options: [] }, { options: [{ id: 'x', key: 'k' }] }, { options: [{ id: 1 }] }]) {
      const res = await invoke('POST /files/uploadList/{id}', { token: t.admin.token, params: { id: list.id }, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999']) {
      expect((await invoke('GET /files/{id}', { token: t.admin.token, params: { id } })).status, id).toBeGreaterThanOrEqual(400);
      expect((await invoke('GET /files/{id}', { token: t.admin.token, params: { id } })).status, id).toBeLessThan(500);
    }
    const queries: Record<string, string>[] = [
      { pageNumber: '0' },
      { pageNumber: 'x' },
      { searchParam: 'x'.repeat(101) },
      { companyId: 'abc' },
    ];
    for (const query of queries) {
      expect((await invoke('GET /files', { token: t.admin.token, query })).status, JSON.stringify(query)).toBe(400);
    }
  });

  it("keeps other tenants, plain users' writes and plans without campaigns out", async () => {
    const list = (await create({ name: 'Privada', message: 'x', options: [{ name: 'A' }] })).body;
    await upload(list.id, [{ name: 'id', value: '1' }, file('a.pdf', 'secret')]);
    const foreign = { token: other.admin.token, params: { id: list.id } };
    expect((await invoke('GET /files/{id}', foreign)).status).toBe(404);
    expect((await invoke('PUT /files/{id}', { ...foreign, json: { name: 'Hacked' } })).status).toBe(404);
    expect((await invoke('DELETE /files/{id}', foreign)).status).toBe(404);
    expect((await upload(list.id, [file('b.pdf', 'x')], other.admin.token)).status).toBe(404);
    expect(
      (
        await invoke('POST /files/uploadList/{id}/uploads', {
          ...foreign,
          json: { fileName: 'a.pdf', contentType: 'application/pdf', size: 3 },
        })
      ).status,
    ).toBe(404);
    expect((await invoke('GET /files', { token: other.admin.token })).body.files.map((f: { id: number }) => f.id)).not.toContain(list.id);

    const user = await t.addUser('user');
    expect((await invoke('GET /files/{id}', { token: user.token, params: { id: list.id } })).status).toBe(200);
    expect((await create({ name: 'Minha', message: 'x' }, user.token)).status).toBe(403);
    expect((await invoke('PUT /files/{id}', { token: user.token, params: { id: list.id }, json: { name: 'Minha' } })).status).toBe(403);
    expect((await invoke('DELETE /files/{id}', { token: user.token, params: { id: list.id } })).status).toBe(403);
    expect((await upload(list.id, [file('b.pdf', 'x')], user.token)).status).toBe(403);

    const without = await seedTenant(env.stack, { plan: { useCampaigns: false } });
    const res = await invoke('GET /files', { token: without.admin.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect((await invoke('GET /files', { token: 'forged.token.here' })).status).toBe(401);
    expect((await getFileList(t.companyId, list.id))?.files).toHaveLength(1);
  });

  it("lets a campaign name its own tenant's file list only, and keeps a list a scheduled campaign sends", async () => {
    const list = (await create({ name: 'Anexos', message: 'x' })).body;
    const theirs = (await create({ name: 'Deles', message: 'x' }, other.admin.token)).body;
    const missing = await invoke('POST /campaigns', { token: t.admin.token, json: { name: 'Sem lista', fileListId: 999_999 } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ field: 'fileListId' });
    const foreign = await invoke('POST /campaigns', { token: t.admin.token, json: { name: 'Alheia', fileListId: theirs.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ field: 'fileListId' });

    const connection = await invoke('POST /whatsapp', {
      token: t.admin.token,
      json: { name: 'Loja', token: 'file-lists-test-token-0001' },
    });
    const contactListId = (await newList(t, 'Audiência')).id;
    await newItem(t, contactListId);
    const campaign = await invoke('POST /campaigns', {
      token: t.admin.token,
      json: {
        name: 'Com anexos',
        fileListId: list.id,
        whatsappId: connection.body.id,
        contactListId,
        message1: 'Olá',
        scheduledAt: hoursAhead(3),
      },
    });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    expect(campaign.body).toMatchObject({ fileListId: list.id, status: 'PROGRAMADA' });
    const refused = await invoke('DELETE /files/{id}', { token: t.admin.token, params: { id: list.id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'ERR_FILE_LIST_IN_USE' });
  });
});
