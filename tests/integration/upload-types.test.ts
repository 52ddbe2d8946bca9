/**
 * Issue 21, finding 3, over the local stack as a browser and an attacker reach it:
 * - a file list takes no page, SVG or program, by form or by presigned grant (400
 *   ERR_FILE_TYPE_NOT_ALLOWED), and the bucket takes only the type and length a grant signed;
 * - what is served through /public/... is inline only when the app previews it (a PNG); a PDF, and
 *   an SVG a contact sent over WhatsApp, come back as downloads of plain bytes, never as
 *   image/svg+xml inline, and the API's redirect says nosniff;
 * - a contact's document name loses the bidi override that made "\u202Egnp.svg" read "svg.png".
 */
import type { FileList } from '@conversa/functions/contracts/file-lists';
import type { MediaUpload } from '@conversa/functions/contracts/messages';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { connectedConnection, ok, type Simulator, simulator, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let a: Tenant;
const api = () => inject('apiUrl').replace(/\/$/, '');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><rect width="9" height="9"/></svg>';

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  a = await createTenant(call, superToken, await firstPlanId(call), 'upload-types');
});

async function uploadFiles(listId: number, files: [Blob, string][]) {
  const form = new FormData();
  for (const [blob, name] of files) form.append('files', blob, name);
  const res = await fetch(`${api()}/files/uploadList/${listId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.admin.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as FileList & { error?: string; field?: string } };
}

/** GET /public/... as the browser does: the API's redirect, then the bucket's answer. */
async function served(path: string) {
  const redirect = await fetch(`${api()}${path}`, { headers: { authorization: `Bearer ${a.admin.token}` }, redirect: 'manual' });
  expect(redirect.status, path).toBe(302);
  expect(redirect.headers.get('x-content-type-options'), path).toBe('nosniff');
  const file = await fetch(redirect.headers.get('location') ?? '');
  expect(file.status, path).toBe(200);
  return { type: file.headers.get('content-type'), disposition: file.headers.get('content-disposition') ?? '', text: await file.text() };
}

describe('uploads and what the media route serves', () => {
  it('refuses SVG, HTML and programs in a file list, and the bucket takes only what the grant signed', async () => {
    const list = await ok<FileList>(call, 'POST', '/files', {
      token: a.admin.token,
      body: { name: 'Arquivos', message: 'Segue', options: [{ name: 'Boleto' }] },
    });
    for (const [blob, name] of [
      [new Blob([SVG], { type: 'image/svg+xml' }), 'logo.svg'],
      [new Blob(['<script>alert(1)</script>'], { type: 'text/html' }), 'page.html'],
      [new Blob(['MZ'], { type: 'application/x-msdownload' }), 'setup.exe'],
      [new Blob(['MZ'], { type: 'image/png' }), '\u202Egnp.exe'],
    ] as const) {
      const refused = await uploadFiles(list.id, [[blob, name]]);
      expect(refused.status, name).toBe(400);
      expect(refused.body, name).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'files.0' });
      const grant = await call('POST', `/files/uploadList/${list.id}/uploads`, {
        token: a.admin.token,
        body: { fileName: name, contentType: blob.type, size: blob.size },
      });
      expect(grant.status, name).toBe(400);
      expect(grant.body, name).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED' });
    }
    expect((await ok<FileList>(call, 'GET', `/files/${list.id}`, { token: a.admin.token })).options).toMatchObject([{ id: 1, path: null }]);

    // A PDF's grant: the SVG put in its place, or a longer body, is refused by the bucket itself.
    const pdf = new TextEncoder().encode('%PDF-1.4 boleto');
    const grant = await ok<MediaUpload>(call, 'POST', `/files/uploadList/${list.id}/uploads`, {
      token: a.admin.token,
      body: { fileName: 'boleto.pdf', contentType: 'application/pdf', size: pdf.length },
    });
    const swapped = await fetch(grant.uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/svg+xml' },
      body: SVG.slice(0, pdf.length),
    });
    expect(swapped.status).toBe(403);
    const longer = await fetch(grant.uploadUrl, { method: 'PUT', headers: grant.headers, body: `${SVG}${SVG}` });
    expect(longer.status).toBe(403);
    expect((await fetch(grant.uploadUrl, { method: 'PUT', headers: grant.headers, body: pdf })).status).toBe(200);

    // Served: the PDF downloads as plain bytes under its name; a PNG previews inline.
    await ok<FileList>(call, 'POST', `/files/uploadList/${list.id}`, {
      token: a.admin.token,
      body: { options: [{ id: 1, key: grant.key }] },
    });
    const png = await uploadFiles(list.id, [[new Blob(['\u0089PNG fake'], { type: 'image/png' }), 'foto.png']]);
    expect(png.status, JSON.stringify(png.body)).toBe(200);
    const byName = (name: string) => png.body.options.find((o) => o.mediaName === name)?.path ?? '';
    const download = await served(byName('boleto.pdf'));
    expect(download.disposition).toMatch(/^attachment; filename="boleto\.pdf"/);
    expect(download.type).toBe('application/octet-stream');
    const preview = await served(byName('foto.png'));
    expect(preview.disposition).toMatch(/^inline; filename="foto\.png"/);
    expect(preview.type).toBe('image/png');
  });

  it('serves an SVG a contact sent as a download of plain bytes, under a name without its bidi override', async () => {
    const setup = await connectedConnection(call, sim, { token: a.admin.token, companyId: a.companyId, queues: ['Arquivos'] });
    const number = `55119${Date.now() % 100_000_000}`.padEnd(13, '7');
    const sent = await fetch(`${inject('simulatorUrl').replace(/\/$/, '')}/api/connections/${setup.simId}/contacts/${number}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        body: '',
        media: { mimetype: 'image/svg+xml', filename: '\u202Egnp.svg', base64: Buffer.from(SVG).toString('base64') },
      }),
    });
    expect(sent.status).toBeLessThan(300);
    let message: { mediaUrl: string | null; mediaName: string | null } | undefined;
    await waitUntil('the contact\u2019s SVG is stored', async () => {
      const page = await ok<{ tickets: { id: number; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
        token: a.admin.token,
        query: { showAll: 'true', searchParam: number },
      });
      const ticket = page.tickets.find((t) => t.contact.number === number);
      if (!ticket) return false;
      const messages = await ok<{ messages: (typeof message & {})[] }>(call, 'GET', `/messages/${ticket.id}`, { token: a.admin.token });
      message = messages.messages.find((m) => m.mediaUrl);
      return Boolean(message);
    });
    const file = await served(message?.mediaUrl ?? '');
    expect(file.disposition).toMatch(/^attachment; /);
    expect(file.type).toBe('application/octet-stream');
    expect(file.text).toBe(SVG);
    expect(message?.mediaName).toBe('gnp.svg');
  });
});
