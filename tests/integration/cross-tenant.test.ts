/**
 * A user of company A can never read, list, change or delete anything of company B, over every route
 * of the route table. Each route must have a fixture here: a new route without one fails the test, so
 * the guarantee grows with the API.
 */
import { type HttpRoute, httpRoutes, routeKey } from '@conversa/functions/routes';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { bOwn, fixtures } from './cross-tenant-fixtures.ts';
import { seedTenantB } from './cross-tenant-seed.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';

let call: Call;
let a: Tenant;
let b: Tenant;

function pathFor(route: HttpRoute, params: Record<string, string>): string {
  // `{name+}` (greedy) takes a path with its slashes: each segment is encoded, not the slashes.
  return route.path.replace(/\{(\w+)(\+?)\}/g, (_, name: string, greedy: string) =>
    greedy ? (params[name] ?? '1').split('/').map(encodeURIComponent).join('/') : encodeURIComponent(params[name] ?? '1'),
  );
}

/** B's messages as B sees them, less what the session-host settles on its own (acks, send results). */
const stableMessages = (body: unknown) =>
  (body as { messages: Record<string, unknown>[] }).messages.map(({ id, body: text, fromMe, isDeleted, mediaPath, mediaUrl }) => ({
    id,
    text,
    fromMe,
    isDeleted,
    mediaPath,
    mediaUrl,
  }));

/** What B's own admin sees of B: must be identical before and after A's attempts. */
async function snapshotOfB(): Promise<string> {
  const parts = await Promise.all([
    call('GET', '/users', { token: b.admin.token }),
    call('GET', '/settings', { token: b.admin.token }),
    call('GET', `/companies/${b.companyId}`, { token: b.admin.token }),
    call('GET', `/users/${b.user.id}`, { token: b.admin.token }),
    call('GET', '/whatsapp', { token: b.admin.token }),
    call('GET', '/queue', { token: b.admin.token }),
    call('GET', '/queue-options', { token: b.admin.token, query: { queueId: String(bOwn.queueId), parentId: '-1' } }),
    call('GET', '/tickets', { token: b.admin.token, query: { showAll: 'true' } }),
    call('GET', `/tickets/${bOwn.ticketId}`, { token: b.admin.token }),
    call('GET', '/contacts', { token: b.admin.token }),
    call('GET', '/tags', { token: b.admin.token }),
    call('GET', '/quick-messages', { token: b.admin.token }),
    call('GET', '/schedules', { token: b.admin.token }),
    call('GET', '/contact-lists', { token: b.admin.token }),
    call('GET', '/contact-list-items', { token: b.admin.token, query: { contactListId: String(bOwn.contactListId) } }),
    call('GET', '/campaigns', { token: b.admin.token }),
    call('GET', '/files', { token: b.admin.token }),
    call('GET', '/campaign-settings', { token: b.admin.token }),
    call('GET', '/chats', { token: b.admin.token }),
    call('GET', `/chats/${bOwn.chatId}/messages`, { token: b.user.token }),
    call('GET', '/queueIntegration', { token: b.admin.token }),
    call('GET', '/prompt', { token: b.admin.token }),
    // B's endpoints as configured (their failure counters move with B's own test delivery, not with A).
    call('GET', '/webhooks', { token: b.admin.token }).then((res) => ({
      ...res,
      body: (res.body as { webhooks: { id: number; url: string; description: string; enabled: boolean; events: string[] }[] }).webhooks.map(
        ({ id, url, description, enabled, events }) => ({ id, url, description, enabled, events }),
      ),
    })),
    call('GET', '/ticket-notes/list', { token: b.admin.token, query: { ticketId: String(bOwn.ticketId) } }),
    call('GET', `/messages/${bOwn.ticketId}`, { token: b.admin.token }).then((res) => ({ ...res, body: stableMessages(res.body) })),
  ]);
  for (const p of parts) expect(p.status, p.text).toBe(200);
  // A connection's session state is the session-host's to change at any time: compare what A could touch.
  const stable = (body: unknown) =>
    Array.isArray(body)
      ? body.map((item) =>
          item && typeof item === 'object' && 'status' in item && 'qrcode' in item
            ? { ...item, status: '', qrcode: '', retries: 0, number: '', updatedAt: '' }
            : item,
        )
      : body;
  // A list item's WhatsApp verdict is B's own session answering a check B's writes started, at any
  // moment (no route lets anyone write it): its value is left out, the item's every other field is not.
  return JSON.stringify(parts.map((p) => stable(p.body))).replace(
    /"isWhatsappValid":(true|false|null)/g,
    '"isWhatsappValid":"checked by B\'s session"',
  );
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  a = await createTenant(call, superToken, planId, 'tenant-a');
  b = await createTenant(call, superToken, planId, 'tenant-b', 6);
  await seedTenantB(call, b);
});

describe('cross-tenant isolation over the whole route table', () => {
  it('has a fixture for every route', () => {
    const missing = httpRoutes.map(routeKey).filter((key) => !(key in fixtures));
    expect(missing).toEqual([]);
  });

  for (const actor of ['admin', 'user'] as const) {
    it(`A's ${actor} cannot read, list, change or delete B's data through any route`, async () => {
      const before = await snapshotOfB();
      const leaks: string[] = [];
      for (const route of httpRoutes) {
        const fixture = fixtures[routeKey(route)];
        if (!fixture || fixture.own) continue;
        const res = await call(route.method, pathFor(route, fixture.params?.(b) ?? {}), {
          token: a[actor].token,
          body: fixture.body?.(b),
          query: fixture.query?.(b),
        });
        expect(res.status, `${routeKey(route)} -> ${res.status} ${res.text}`).toBeLessThan(500);
        const targetsB = !fixture.platform && !fixture.ownNamespace && route.path.includes('{');
        if (targetsB && res.status < 400) leaks.push(`${routeKey(route)} answered ${res.status} for B's resource`);
        // B's marker (its company name and emails) never appears in what A receives.
        if (res.text.toLowerCase().includes(b.marker)) leaks.push(`${routeKey(route)} returned B's data`);
      }
      expect(leaks).toEqual([]);
      expect(await snapshotOfB()).toBe(before);
    });
  }

  it("A's own session routes only ever show A", async () => {
    const me = await call('GET', '/auth/me', { token: a.user.token });
    expect(me.status).toBe(200);
    expect(me.text.toLowerCase()).toContain(a.marker);
    expect(me.text.toLowerCase()).not.toContain(b.marker);
    const settings = await call('GET', '/settings', { token: a.admin.token });
    expect(settings.body).toContainEqual({ key: 'userRating', value: 'disabled' });
  });
});
