/**
 * The audit trail over the local stack, as a browser or an API client reaches it (issue 21 §3):
 * an act through the HTTP gateway leaves one entry with the address the gateway saw and the
 * client's user agent; the CSV arrives as a text/csv attachment; and no method writes, edits or
 * deletes an entry (the gateway has no such route).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';

let call: Call;
let tenant: Tenant;
const AGENT = 'AuditIntegration/1.0 (compliance check)';

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'audit');
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${inject('apiUrl').replace(/\/$/, '')}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${tenant.admin.token}`, 'user-agent': AGENT, ...(init.headers ?? {}) },
  });

describe('the audit trail over the gateway', () => {
  it('records an act with the address and agent of its request, and exports it as CSV', async () => {
    const changed = await api('/settings/sendGreetingAccepted', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: 'enabled' }),
    });
    expect(changed.status).toBe(200);
    const page = await api('/audit?targetType=setting');
    expect(page.status).toBe(200);
    const { entries } = (await page.json()) as { entries: Array<Record<string, unknown>> };
    expect(entries.filter((e) => e.targetId === 'sendGreetingAccepted')).toEqual([
      expect.objectContaining({
        companyId: tenant.companyId,
        userId: tenant.admin.id,
        action: 'setting.update',
        ip: '127.0.0.1',
        userAgent: AGENT,
        changes: { sendGreetingAccepted: { from: 'disabled', to: 'enabled' } },
      }),
    ]);

    const csv = await api('/audit/export.csv?targetType=setting');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="audit.csv"');
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('createdAt;companyId;userId;userName;action;targetType;targetId;changes;ip;userAgent');
    expect(text).toContain(';setting.update;setting;sendGreetingAccepted;');
    expect(text).toContain(AGENT);
  });

  it('records a wrong password sent the way the web app signs in, with the email tried and the address, in GET /audit', async () => {
    // Prepare: a user of the tenant; the login page posts the typed password to POST /auth/login (issue 21)
    const email = `wrong-${Date.now()}@audit.test`;
    const created = await api('/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Wanda Wrong', email, password: 'Segura123', profile: 'user' }),
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { id: number };
    // Act: the browser's request, a wrong password
    const refused = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': AGENT },
      body: JSON.stringify({ email: email.toUpperCase(), password: 'Wrong-Password-1', web: true }),
    });
    expect(refused.status).toBe(401);
    // Assess: the admin reads it in the trail: who, the email tried, from where
    const page = await api(`/audit?action=auth.loginFailed&userId=${user.id}`);
    expect(page.status).toBe(200);
    const { entries } = (await page.json()) as { entries: Array<Record<string, unknown>> };
    expect(entries).toEqual([
      expect.objectContaining({
        companyId: tenant.companyId,
        userId: user.id,
        userName: 'Wanda Wrong',
        action: 'auth.loginFailed',
        ip: '127.0.0.1',
        userAgent: AGENT,
        changes: { reason: { from: null, to: 'ERR_INVALID_CREDENTIALS' }, email: { from: null, to: email } },
      }),
    ]);
  });

  it('has no route that writes, edits or deletes an entry', async () => {
    const page = (await (await api('/audit')).json()) as { entries: Array<{ id: string }> };
    const id = page.entries[0]?.id ?? 'x';
    for (const [method, path] of [
      ['POST', '/audit'],
      ['DELETE', '/audit'],
      ['PUT', `/audit/${id}`],
      ['DELETE', `/audit/${id}`],
      ['PATCH', `/audit/${id}`],
      ['DELETE', '/audit/export.csv'],
    ] as const) {
      const res = await api(path, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect([404, 405], `${method} ${path} -> ${res.status}`).toContain(res.status);
    }
    const after = (await (await api('/audit')).json()) as { entries: Array<{ id: string }> };
    expect(after.entries.map((e) => e.id)).toEqual(page.entries.map((e) => e.id));
  });
});
