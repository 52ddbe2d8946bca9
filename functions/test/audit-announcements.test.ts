/**
 * A super admin's announcement in the trail (issue 21 §3): edited, its image attached and removed,
 * deleted; each act one entry of the super admin's company with the fields it changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, invoke, multipart, startEnv } from './messages-harness.ts';
import { call, seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let root: Tenant;

beforeAll(async () => {
  env = await startEnv();
  root = await seedTenant(env.stack, { super: true });
}, 120_000);
afterAll(async () => env?.stop());

describe('announcements', () => {
  it('records the edit, the image attached and removed, and the delete', async () => {
    const token = root.admin.token;
    const made = await call('POST /announcements', { token, body: { title: 'Manutenção', text: 'Domingo' } });
    expect(made.status).toBe(201);
    const id = made.body.id;
    expect((await call('PUT /announcements/{id}', { token, params: { id }, body: { title: 'Manutenção às 2h' } })).status).toBe(200);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const attached = await invoke('POST /announcements/{id}/media-upload', {
      token,
      params: { id },
      raw: multipart([{ name: 'file', value: png, filename: 'aviso.png', contentType: 'image/png' }]),
    });
    expect(attached.status, JSON.stringify(attached.body)).toBeLessThan(300);
    expect((await invoke('DELETE /announcements/{id}/media-upload', { token, params: { id } })).status).toBeLessThan(300);
    expect((await call('DELETE /announcements/{id}', { token, params: { id } })).status).toBeLessThan(300);

    const res = await call('GET /audit', { token, query: { targetType: 'announcement' } });
    const trail = (res.body.entries as Array<{ action: string; targetId: string; changes: Record<string, unknown> }>).filter(
      (e) => e.targetId === String(id),
    );
    expect(trail.map((e) => e.action)).toEqual([
      'announcement.delete',
      'announcement.update',
      'announcement.update',
      'announcement.update',
      'announcement.create',
    ]);
    expect(trail[1]?.changes).toEqual({ mediaName: { from: 'aviso.png', to: '' } });
    expect(trail[2]?.changes).toEqual({ mediaName: { from: '', to: 'aviso.png' } });
    expect(trail[3]?.changes).toEqual({ title: { from: 'Manutenção', to: 'Manutenção às 2h' } });
  });
});
