/**
 * Private media (GET /public/{path+}) over s3rver: the owner gets a 302 to a short-lived presigned
 * GET that serves the bytes; another tenant's key, a missing key or a path trick is a 404; no token
 * is a 401. Within the tenant, a file is served to whoever may see its record (the ticket, inbound
 * media's ticket, the quick message), a 404 to everyone else. Messages point their mediaUrl at this
 * route, never at the bucket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '#adapters/wiring';
import { putMedia } from '#domain/media/bucket';
import { updateUser } from '#storage/users/users';
import { createConnection, type Env, invoke, multipart, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { seedTenant, type Tenant, uniq } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let keyOfA: string;
let mediaUrlOfA: string;
let connectionOfA: number;
const bytes = Buffer.from('\u00ff\u00d8\u00ff fake jpeg bytes', 'latin1');

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  const connection = await createConnection(a);
  connectionOfA = connection.id;
  const ticket = await seedTicket(a, connection.id, { status: 'open', userId: a.admin.id });
  const form = multipart([{ name: 'medias', value: bytes, filename: 'foto da loja.jpg', contentType: 'image/jpeg' }]);
  const sent = await invoke('POST /messages/{id}', { token: a.admin.token, params: { id: ticket.id }, raw: form });
  if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
  mediaUrlOfA = sent.body.messages[0].mediaUrl;
  keyOfA = mediaUrlOfA.replace(/^\/public\//, '');
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

const getMedia = (path: string, token?: string) => invoke('GET /public/{path+}', { token, params: { path } });

describe('GET /public/{path+}', () => {
  it("redirects the owner's tenant to a presigned GET of the object, not cacheable", async () => {
    expect(keyOfA).toMatch(new RegExp(`^${a.companyId}/tickets/\\d+/[0-9a-f-]{36}/foto_da_loja\\.jpg$`));
    const res = await getMedia(keyOfA, a.admin.token);
    expect(res.status).toBe(302);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const location = new URL(res.headers.location ?? '');
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.pathname.endsWith(`/${keyOfA}`.replace(/ /g, '%20'))).toBe(true);
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(bytes);
  });

  it("serves a ticket's file to whoever may see the ticket, and to no other user of the tenant", async () => {
    // Prepare: A's file is on an open ticket assigned to A's admin, in no queue.
    const colleague = await a.addUser('admin');
    const user = await a.addUser('user');
    // Act / Assess: another admin sees every ticket; a plain user without the ticket does not.
    expect((await getMedia(keyOfA, colleague.token)).status).toBe(302);
    const refused = await getMedia(keyOfA, user.token);
    expect(refused.status).toBe(404);
    expect(refused.headers.location).toBeUndefined();
    // A file key the tenant's shape does not know, even if the object exists, is nobody's.
    const loose = `${a.companyId}/elsewhere/file.jpg`;
    await putMedia(loose, bytes, 'image/jpeg');
    expect((await getMedia(loose, a.admin.token)).status).toBe(404);
  });

  it("serves inbound media to whoever may see its message's ticket", async () => {
    // Prepare: an inbound photo, stored where the session-host puts one, on a ticket of a queue.
    const queue = await invoke('POST /queue', { token: a.admin.token, json: { name: uniq('Fila '), color: '#123456' } });
    const ticket = await seedTicket(a, connectionOfA, { status: 'pending', queueId: queue.body.id });
    const waId = uniq('3EB0');
    const key = `${a.companyId}/whatsapp/${connectionOfA}/${waId}.jpg`;
    await putMedia(key, bytes, 'image/jpeg');
    await storeInbound(ticket, 'foto', Date.now(), { waId, mediaPath: key, mediaUrl: key, mediaType: 'image' });
    const member = await a.addUser('user');
    await updateUser(a.companyId, member.id, { queueIds: [queue.body.id] });
    const outsider = await a.addUser('user');
    // Act / Assess
    expect((await getMedia(key, member.token)).status).toBe(302);
    expect((await getMedia(key, outsider.token)).status).toBe(404);
    // The same name under another WhatsApp id (no such message) is nobody's.
    const stray = `${a.companyId}/whatsapp/${connectionOfA}/NOSUCHID.jpg`;
    await putMedia(stray, bytes, 'image/jpeg');
    expect((await getMedia(stray, a.admin.token)).status).toBe(404);
  });

  it("serves a quick message's file to whoever may see the quick message", async () => {
    // Prepare: a user's own (not geral) quick message with a file.
    const author = await a.addUser('user');
    const other = await a.addUser('user');
    const made = await invoke('POST /quick-messages', {
      token: author.token,
      json: { shortcode: uniq('qm'), message: 'catálogo', geral: false },
    });
    const uploaded = await invoke('POST /quick-messages/{id}/media-upload', {
      token: author.token,
      params: { id: made.body.id },
      raw: multipart([{ name: 'file', value: bytes, filename: 'catalogo.jpg', contentType: 'image/jpeg' }]),
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const key = decodeURIComponent(uploaded.body.mediaPath.replace(/^\/public\//, ''));
    // Act / Assess: the author and admins see it; another user does not.
    expect((await getMedia(key, author.token)).status).toBe(302);
    expect((await getMedia(key, a.admin.token)).status).toBe(302);
    expect((await getMedia(key, other.token)).status).toBe(404);
  });

  it('serves only raster images, audio and video inline; anything else (an SVG or a page a contact sent) as a download', async () => {
    // Prepare: what a contact may send over WhatsApp lands as it came, so the serving side decides.
    const ticket = await seedTicket(a, connectionOfA, { status: 'open', userId: a.admin.id });
    let at = Date.now();
    const inbound = async (ext: string, type: string, body: string) => {
      at += 1;
      const waId = uniq('3EB0');
      const key = `${a.companyId}/whatsapp/${connectionOfA}/${waId}.${ext}`;
      await putMedia(key, Buffer.from(body), type);
      await storeInbound(ticket, ext, at, { waId, mediaPath: key, mediaUrl: key, mediaType: 'application' });
      return key;
    };
    const svg = await inbound('svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"/>');
    const html = await inbound('html', 'text/html', '<script>alert(document.domain)</script>');
    const pdf = await inbound('pdf', 'application/pdf', '%PDF-1.4');
    const voice = await inbound('ogg', 'audio/ogg; codecs=opus', 'OggS');
    const follow = async (key: string) => {
      const res = await getMedia(key, a.admin.token);
      expect(res.status, key).toBe(302);
      expect(res.headers['x-content-type-options'], key).toBe('nosniff');
      return fetch(res.headers.location ?? '');
    };
    // Act / Assess: a download, under its own name, typed as bytes the browser will not render.
    for (const key of [svg, html, pdf]) {
      const served = await follow(key);
      expect(served.status, key).toBe(200);
      expect(served.headers.get('content-disposition'), key).toMatch(new RegExp(`^attachment; filename="${key.split('/').at(-1)}"`));
      expect(served.headers.get('content-type'), key).toBe('application/octet-stream');
    }
    // What the app previews stays inline, with its own type.
    const photo = await follow(keyOfA);
    expect(photo.headers.get('content-disposition')).toMatch(/^inline; filename="foto_da_loja\.jpg"/);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    const audio = await follow(voice);
    expect(audio.headers.get('content-disposition')).toMatch(/^inline/);
    expect(audio.headers.get('content-type')).toBe('audio/ogg');
  });

  it("answers 404 for another tenant's key, a missing key and path tricks, and 401 without a token", async () => {
    const probes = [
      keyOfA, // B asking for A's object
      `${b.companyId}/../${keyOfA}`,
      `${b.companyId}/./x`,
      `${b.companyId}//x`,
      `${b.companyId}/tickets/1/missing.jpg`,
      '',
      '..',
    ];
    for (const path of probes) {
      const res = await getMedia(path, b.admin.token);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: 'ERR_NOT_FOUND' });
      expect(res.headers.location).toBeUndefined();
    }
    expect((await getMedia(keyOfA)).status).toBe(401);
  });

  it('is where the messages API points mediaUrl', async () => {
    expect(mediaUrlOfA).toBe(`/public/${keyOfA}`);
  });
});
