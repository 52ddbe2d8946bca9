/**
 * Private media (GET /public/{path+}) over s3rver: the owner gets a 302 to a short-lived presigned
 * GET that serves the bytes; another tenant's key, a missing key or a path trick is a 404; no token
 * is a 401. Messages point their mediaUrl at this route, never at the bucket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, type Env, invoke, multipart, seedTicket, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let keyOfA: string;
let mediaUrlOfA: string;
const bytes = Buffer.from('\u00ff\u00d8\u00ff fake jpeg bytes', 'latin1');

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  const connection = await createConnection(a);
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

  it('lets any user of the tenant fetch it (the conversation shows it to them)', async () => {
    const user = await a.addUser('user');
    expect((await getMedia(keyOfA, user.token)).status).toBe(302);
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
