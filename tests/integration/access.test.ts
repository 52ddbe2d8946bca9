/**
 * Roles and company state, enforced by the API for every route of the route table:
 * no token -> 401, a plain user -> 403 on admin routes, an admin -> 403 on super-only routes,
 * an expired company cannot log in (SPEC 5 "Login") nor call the API.
 */
import { type HttpRoute, httpRoutes, routeKey } from '@conversa/functions/routes';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, PASSWORD, paidPlanId, superLogin, type Tenant } from './tenants.ts';

let call: Call;
let superToken: string;
let tenant: Tenant;
let planId: number;

const concrete = (route: HttpRoute) => route.path.replace(/\{(\w+)\}/g, '999999');

beforeAll(async () => {
  call = client(inject('apiUrl'));
  superToken = await superLogin(call, inject('admin'));
  // A plan worth paying for: the seeded one is free, and a free period renews itself.
  planId = await paidPlanId(call, superToken);
  tenant = await createTenant(call, superToken, planId, 'access');
});

describe('route access levels', () => {
  it('every non-public route refuses a missing or forged token with 401', async () => {
    const wrong: string[] = [];
    for (const route of httpRoutes.filter((r) => r.access !== 'public')) {
      for (const token of [undefined, 'not.a.jwt', `${tenant.admin.token.slice(0, -4)}AAAA`]) {
        const res = await call(route.method, concrete(route), { token, body: {} });
        if (res.status !== 401) wrong.push(`${routeKey(route)} token=${token?.slice(0, 8)} -> ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a plain user gets 403 ERR_NO_PERMISSION on every admin and super route', async () => {
    const wrong: string[] = [];
    for (const route of httpRoutes.filter((r) => r.access === 'admin' || r.access === 'super')) {
      const res = await call(route.method, concrete(route), { token: tenant.user.token, body: {} });
      if (res.status !== 403 || (res.body as { error?: string }).error !== 'ERR_NO_PERMISSION') {
        wrong.push(`${routeKey(route)} -> ${res.status} ${res.text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('an admin gets 403 ERR_NO_PERMISSION on every super-only route', async () => {
    const wrong: string[] = [];
    for (const route of httpRoutes.filter((r) => r.access === 'super')) {
      const res = await call(route.method, concrete(route), { token: tenant.admin.token, body: {} });
      if (res.status !== 403) wrong.push(`${routeKey(route)} -> ${res.status} ${res.text}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the super user passes the super-only gate (validation or not-found answers, never 403)', async () => {
    for (const route of httpRoutes.filter((r) => r.access === 'super' && r.method === 'GET')) {
      const res = await call(route.method, concrete(route), { token: superToken });
      expect(res.status, `${routeKey(route)} ${res.text}`).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe('company due date', () => {
  it('refuses login after the due date with the Spanish message, and the API with 402', async () => {
    const expired = await createTenant(call, superToken, planId, 'expired');
    const res = await call('PUT', `/companies/${expired.companyId}`, {
      token: superToken,
      body: { name: expired.companyName, email: expired.admin.email, planId, dueDate: '2020-01-15' },
    });
    expect(res.status, res.text).toBe(200);

    const login = await call('POST', '/auth/login', { body: { email: expired.admin.email, password: PASSWORD } });
    expect(login.status).toBe(402);
    expect(login.body).toMatchObject({ error: 'ERR_COMPANY_EXPIRED' });
    expect((login.body as { message: string }).message).toContain('15/01/2020');

    const users = await call('GET', '/users', { token: expired.admin.token });
    expect(users.status).toBe(402);
  });

  it('warns at login when fewer than 5 days remain', async () => {
    const soon = await createTenant(call, superToken, planId, 'soon');
    const due = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await call('PUT', `/companies/${soon.companyId}`, {
      token: superToken,
      body: { name: soon.companyName, email: soon.admin.email, planId, dueDate: due },
    });
    expect(res.status, res.text).toBe(200);
    const login = await call('POST', '/auth/login', { body: { email: soon.admin.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect((login.body as { dueDateWarning?: { days: number } }).dueDateWarning?.days).toBeGreaterThanOrEqual(1);
    expect((login.body as { dueDateWarning?: { days: number } }).dueDateWarning?.days).toBeLessThan(5);
  });
});

describe('single session', () => {
  it('a login elsewhere ends the older session', async () => {
    const solo = await createTenant(call, superToken, planId, 'solo');
    const before = await call('GET', '/auth/me', { token: solo.user.token });
    expect(before.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await call('POST', '/auth/login', { body: { email: solo.user.email, password: PASSWORD } });
    expect(again.status).toBe(200);
    const old = await call('GET', '/auth/me', { token: solo.user.token });
    const fresh = await call('GET', '/auth/me', { token: (again.body as { token: string }).token });
    expect(fresh.status).toBe(200);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
  });
});
