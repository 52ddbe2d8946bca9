/**
 * Direct uploads (POST /messages/{ticketId}/uploads) over DynamoDB Local and s3rver: the browser gets
 * a presigned PUT for one file under the ticket's tenant prefix, PUTs the bytes to the bucket, and
 * sends the message with the key (`mediaUrls`); files never travel through the Lambda. The send
 * checks the tenant, that the object exists and its size, and writes nothing when it refuses.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import '#adapters/wiring';
import { putMedia } from '#domain/media/bucket';
import { getMessage, listMessagesPage } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { createConnection, type Env, invoke, multipart, readObject, seedTicket, skipTicketIds, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant, uniq } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let connectionA: number;
let connectionB: number;

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  await skipTicketIds(b.companyId); // B's ticket ids are none of A's: A asking for one finds nothing
  [connectionA, connectionB] = await Promise.all([createConnection(a).then((c) => c.id), createConnection(b).then((c) => c.id)]);
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  await env.commands.drain();
});

const openTicket = (t: Tenant, connectionId: number) => seedTicket(t, connectionId, { status: 'open', userId: t.admin.id });
const askUpload = (t: Tenant, ticket: TicketRecord, json: unknown) =>
  invoke('POST /messages/{id}/uploads', { token: t.admin.token, params: { id: ticket.id }, json });
const send = (t: Tenant, ticket: TicketRecord, json: unknown) =>
  invoke('POST /messages/{id}', { token: t.admin.token, params: { id: ticket.id }, json });
const stored = async (ticket: TicketRecord) => (await listMessagesPage(ticket.companyId, ticket.id, { limit: 100 })).messages;

/** What the browser does with an upload: PUT the bytes with the signed headers. */
async function upload(t: Tenant, ticket: TicketRecord, fileName: string, contentType: string, bytes: Buffer): Promise<string> {
  const res = await askUpload(t, ticket, { fileName, contentType, size: bytes.length });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const put = await fetch(res.body.uploadUrl, { method: 'PUT', headers: res.body.headers, body: bytes });
  if (!put.ok) throw new Error(`PUT ${put.status}`);
  return res.body.key;
}

describe('POST /messages/{ticketId}/uploads', () => {
  it('hands out a presigned PUT under the ticket, signed for the content type and length, for 15 minutes', async () => {
    const ticket = await openTicket(a, connectionA);
    const res = await askUpload(a, ticket, { fileName: 'relatório final.pdf', contentType: 'application/pdf', size: 6 * 1024 * 1024 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.key).toMatch(new RegExp(`^${a.companyId}/tickets/${ticket.id}/[0-9a-f-]{36}/relat.+rio_final\\.pdf$`));
    expect(res.body).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'application/pdf' }, expiresIn: 900 });
    expect(res.body.mediaUrl).toBe(`/public/${res.body.key.split('/').map(encodeURIComponent).join('/')}`);
    const url = new URL(res.body.uploadUrl);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type']));
    // No checksum of an empty body signed in (S3 would refuse the real file with BadDigest).
    expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('refuses a file over 10 MB, a bad type or name, a ticket that is not open, and another tenant\u2019s ticket', async () => {
    const ticket = await openTicket(a, connectionA);
    const pending = await seedTicket(a, connectionA, { status: 'pending' });
    const ofB = await openTicket(b, connectionB);
    const file = { fileName: 'a.png', contentType: 'image/png', size: 10 };
    const cases: Array<[TicketRecord, unknown, number]> = [
      [ticket, { ...file, size: 10 * 1024 * 1024 + 1 }, 400],
      [ticket, { ...file, size: 0 }, 400],
      [ticket, { ...file, contentType: 'image png; x' }, 400],
      [ticket, { ...file, fileName: '' }, 400],
      [ticket, { fileName: 'a.png' }, 400],
      [pending, file, 409],
      [ofB, file, 404],
    ];
    for (const [target, json, status] of cases) {
      const res = await askUpload(a, target, json);
      expect(res.status, JSON.stringify([json, res.body])).toBe(status);
    }
  });

  it('grants only what WhatsApp sends: no page, SVG or program, no type disguised by its name or a bidi override', async () => {
    const ticket = await openTicket(a, connectionA);
    for (const [fileName, contentType] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['setup.exe', 'application/x-msdownload'],
      ['setup.exe', 'application/octet-stream'],
      ['fatura.pdf.exe', 'application/pdf'],
      ['foto.png', 'text/html'],
      ['\u202Egnp.exe', 'image/png'],
    ]) {
      const res = await askUpload(a, ticket, { fileName, contentType, size: 10 });
      expect(res.status, fileName).toBe(400);
      expect(res.body, fileName).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'contentType' });
    }
    // Attaching through the form is held to the same list.
    const form = multipart([
      { name: 'medias', value: Buffer.from('<script>alert(1)</script>'), filename: 'x.html', contentType: 'text/html' },
    ]);
    const sent = await invoke('POST /messages/{id}', { token: a.admin.token, params: { id: ticket.id }, raw: form });
    expect(sent.status).toBe(400);
    expect(sent.body).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'medias' });
    expect(await stored(ticket)).toEqual([]);
    // An allowed file's key carries its name without bidi controls.
    const grant = await askUpload(a, ticket, { fileName: 'nota\u202E\u200Ffiscal.pdf', contentType: 'application/pdf', size: 10 });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect(grant.body.key).toMatch(/\/notafiscal\.pdf$/);
  });

  it('lets the bucket take only the signed content type and length, as S3 does', async () => {
    const ticket = await openTicket(a, connectionA);
    const grant = await askUpload(a, ticket, { fileName: 'a.pdf', contentType: 'application/pdf', size: 4 });
    const put = (headers: Record<string, string>, body: Buffer) => fetch(grant.body.uploadUrl, { method: 'PUT', headers, body });
    // Another type (an SVG under the PDF's grant) or another length is refused and stores nothing.
    expect((await put({ 'Content-Type': 'image/svg+xml' }, Buffer.from('<svg'))).status).toBe(403);
    expect((await put(grant.body.headers, Buffer.from('%PDF-longer'))).status).toBe(403);
    expect(await readObject(grant.body.key)).toBeUndefined();
    // A tampered signature or a URL past its expiry is refused too.
    const forged = new URL(grant.body.uploadUrl);
    forged.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    expect((await fetch(forged, { method: 'PUT', headers: grant.body.headers, body: Buffer.from('%PDF') })).status).toBe(403);
    // The signed request itself goes through.
    expect((await put(grant.body.headers, Buffer.from('%PDF'))).status).toBe(200);
    expect((await readObject(grant.body.key))?.toString()).toBe('%PDF');
  });
});

describe('POST /messages/{ticketId} with mediaUrls', () => {
  it('sends the uploaded files in order, the body captioning the first, each pointing at the private route', async () => {
    // Prepare: two files the browser put in the bucket itself.
    const ticket = await openTicket(a, connectionA);
    const photo = Buffer.from('89504e470d0a1a0a-fake-png', 'utf8');
    const voice = Buffer.from('ID3-fake-mp3', 'utf8');
    const keys = [
      await upload(a, ticket, 'foto da loja.png', 'image/png', photo),
      await upload(a, ticket, 'gravação.mp3', 'audio/mpeg', voice),
    ];
    // Act
    const res = await send(a, ticket, { body: 'veja a foto', mediaUrls: keys, asVoice: true });
    // Assess
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [first, second] = res.body.messages;
    expect(first).toMatchObject({ body: 'veja a foto', mediaType: 'image', mediaName: 'foto_da_loja.png', pending: true });
    expect(second).toMatchObject({ body: '', mediaType: 'audio' });
    expect(first.mediaUrl).toBe(`/public/${keys[0]?.split('/').map(encodeURIComponent).join('/')}`);
    expect((await getMessage(a.companyId, ticket.id, first.id))?.mediaPath).toBe(keys[0]);
    expect(await readObject(keys[0] ?? '')).toEqual(photo);
    const commands = await env.commands.drain();
    expect(commands.map((c) => (c.kind === 'send' ? [c.media?.key, c.media?.mimetype, c.media?.asVoice] : []))).toEqual([
      [keys[0], 'image/png', undefined],
      [keys[1], 'audio/mpeg', true],
    ]);
  });

  it('refuses a key never uploaded, another tenant\u2019s key and an object over 10 MB, and writes nothing', async () => {
    const ticket = await openTicket(a, connectionA);
    const ticketOfB = await openTicket(b, connectionB);
    const keyOfB = await upload(b, ticketOfB, 'b.png', 'image/png', Buffer.from('b'));
    // An object over the limit under a granted key: the bucket refuses such a PUT on a presigned URL
    // (signed length), so it is written with the stack's own credentials; the send checks size anyway.
    const grant = await askUpload(a, ticket, { fileName: 'big.pdf', contentType: 'application/pdf', size: 1 });
    await putMedia(grant.body.key, Buffer.alloc(10 * 1024 * 1024 + 1), 'application/pdf');
    const good = await upload(a, ticket, 'ok.png', 'image/png', Buffer.from('ok'));
    const cases: Array<[unknown, number, string]> = [
      [{ mediaUrls: [`${a.companyId}/tickets/${ticket.id}/never-uploaded/x.png`] }, 400, 'Media not found'],
      [{ mediaUrls: [good, keyOfB] }, 400, 'Media not found'],
      [{ mediaUrls: [good, grant.body.key] }, 413, 'ERR_PAYLOAD_TOO_LARGE'],
      [{ mediaUrls: Array.from({ length: 11 }, () => good) }, 400, ''],
      [{ mediaUrls: 'not-a-list' }, 400, ''],
    ];
    for (const [json, status, says] of cases) {
      const res = await send(a, ticket, json);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(JSON.stringify(res.body)).toContain(says);
    }
    expect(await stored(ticket)).toEqual([]);
    expect(await env.commands.drain()).toEqual([]);
  });

  it('refuses a file of another ticket of the company, and one of a quick message the sender may not see', async () => {
    // Prepare: a ticket A's plain user works on, another ticket of A's (whose file they name), and a
    // colleague's own quick message with a file.
    const attendant = await a.addUser('user');
    const colleague = await a.addUser('user');
    const ticket = await seedTicket(a, connectionA, { status: 'open', userId: attendant.id });
    const elsewhere = await openTicket(a, connectionA);
    const keyOfOtherTicket = await upload(a, elsewhere, 'contrato.pdf', 'application/pdf', Buffer.from('secret contract'));
    const quick = await invoke('POST /quick-messages', {
      token: colleague.token,
      json: { shortcode: uniq('mine'), message: 'minha tabela', geral: false },
    });
    const file = await invoke('POST /quick-messages/{id}/media-upload', {
      token: colleague.token,
      params: { id: quick.body.id },
      raw: multipart([{ name: 'file', value: Buffer.from('price table'), filename: 'tabela.pdf', contentType: 'application/pdf' }]),
    });
    expect(file.status, JSON.stringify(file.body)).toBe(200);
    // Act
    const attempts = [{ mediaUrls: [keyOfOtherTicket] }, { mediaUrl: file.body.mediaPath }, { mediaUrls: [`/public/${keyOfOtherTicket}`] }];
    for (const json of attempts) {
      const res = await invoke('POST /messages/{id}', { token: attendant.token, params: { id: ticket.id }, json: { body: 'x', ...json } });
      // Assess
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'Media not found' });
    }
    expect(await stored(ticket)).toEqual([]);
    expect(await env.commands.drain()).toEqual([]);
  });

  it("sends a geral quick message's file as a copy under the ticket, which stays when the quick message loses it", async () => {
    // Prepare
    const attendant = await a.addUser('user');
    const ticket = await seedTicket(a, connectionA, { status: 'open', userId: attendant.id });
    const quick = await invoke('POST /quick-messages', {
      token: a.admin.token,
      json: { shortcode: uniq('geral'), message: 'catálogo', geral: true },
    });
    const file = await invoke('POST /quick-messages/{id}/media-upload', {
      token: a.admin.token,
      params: { id: quick.body.id },
      raw: multipart([{ name: 'file', value: Buffer.from('catalog pdf'), filename: 'catalogo.pdf', contentType: 'application/pdf' }]),
    });
    // Act
    const res = await invoke('POST /messages/{id}', {
      token: attendant.token,
      params: { id: ticket.id },
      json: { body: 'segue', mediaUrl: file.body.mediaPath },
    });
    await invoke('DELETE /quick-messages/{id}/media-upload', { token: a.admin.token, params: { id: quick.body.id } });
    // Assess
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const key = (await getMessage(a.companyId, ticket.id, res.body.messages[0].id))?.mediaPath ?? '';
    expect(key).toMatch(new RegExp(`^${a.companyId}/tickets/${ticket.id}/[0-9a-f-]{36}/catalogo\\.pdf$`));
    expect((await readObject(key))?.toString()).toBe('catalog pdf');
  });
});
