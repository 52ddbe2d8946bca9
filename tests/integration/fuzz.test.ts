/**
 * Bad input is never a 500: every route of the route table, called with hostile bodies, path
 * parameters and query strings, answers 4xx (or a 2xx when the input happens to be valid). Every
 * query parameter of every list route, cursors included (garbage, forged keys, a genuine cursor
 * altered or taken to another list or tenant), answers a clean `{"error":"ERR_..."}` 4xx or a 2xx.
 */
import { type HttpRoute, httpRoutes, routeKey } from '@conversa/functions/routes';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';

let call: Call;
let superToken: string;
let tenant: Tenant;

/** Small deterministic PRNG so a failure reproduces. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const nasty: unknown[] = [
  null,
  0,
  -1,
  1e308,
  true,
  'text',
  '',
  [],
  [{}],
  {},
  { name: null, email: 123, password: [], planId: 'x', value: {}, dueDate: 'yesterday', queueIds: 'all' },
  { name: 'x'.repeat(100_000) },
  { ['__proto__']: { admin: true }, constructor: { prototype: { x: 1 } } },
  { name: '\u0000\uffff\ud800', email: 'a@b', schedules: [{ weekdayEn: 'funday' }] },
];

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
}

const rawBodies = ['{"a":', 'not json', '[1,2', '{"name": "\\ud800"}', '\u0000'];
const badIds = ['abc', '-1', '0', '99999999999999999999', "' OR '1'='1", '..%2F..%2Fetc', '%00'];
const badQueries: Record<string, string>[] = [
  { pageNumber: '-1' },
  { pageNumber: 'abc', searchParam: 'x'.repeat(5000) },
  { pageNumber: '1e309' },
  { searchParam: '%' },
];

function paths(route: HttpRoute): string[] {
  if (!route.path.includes('{')) return [route.path];
  return badIds.map((id) => route.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(decodeURIComponent(id))));
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'fuzz');
});

interface Probe {
  route: HttpRoute;
  path: string;
  token: string | undefined;
  query: Record<string, string>;
  input: { body: unknown } | { rawBody: string };
}

/** Every probe, in a fixed order from a fixed seed (the same run every time). */
function probes(): Probe[] {
  const random = prng(20261121);
  const deep = nested(60);
  const out: Probe[] = [];
  for (const route of httpRoutes) {
    const tokens = route.access === 'public' ? [undefined, tenant.admin.token] : [superToken, tenant.admin.token, tenant.user.token];
    for (const [actor, token] of tokens.entries()) {
      // The first actor gets every id; the others (who mostly stop at the access gate) one.
      for (const path of actor === 0 ? paths(route) : paths(route).slice(0, 1)) {
        const bodies: Probe['input'][] = [...nasty.map((body) => ({ body })), { body: deep }, ...rawBodies.map((rawBody) => ({ rawBody }))];
        // Every body on the first path; a random sample on the rest keeps the run short.
        const sample = path === paths(route)[0] && actor === 0 ? bodies : bodies.filter(() => random() < 0.25);
        for (const input of sample) out.push({ route, path, token, query: badQueries[Math.floor(random() * badQueries.length)]!, input });
      }
    }
  }
  return out;
}

/** A few requests at a time: the gateway serves them side by side, as it would real clients. */
const CONCURRENCY = 4;

async function runAll(list: Probe[], failures: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const { route, path, token, query, input } = list[next++]!;
      const res = await call(route.method, path, { token, query, ...input });
      if (res.status >= 500)
        failures.push(`${routeKey(route)} ${path} ${JSON.stringify(input).slice(0, 80)} -> ${res.status} ${res.text.slice(0, 120)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

describe('fuzzed input never gives a 5xx', () => {
  it('every route, every actor, hostile bodies, ids and queries', async () => {
    const failures: string[] = [];
    const all = probes();
    // Logging out ends the session and its tokens: that route goes last, so every other route sees live tokens.
    const logout = (probe: Probe) => routeKey(probe.route) === 'DELETE /auth/logout';
    await runAll(
      all.filter((probe) => !logout(probe)),
      failures,
    );
    await runAll(all.filter(logout), failures);
    expect(all.length).toBeGreaterThan(httpRoutes.length * 14);
    expect(failures).toEqual([]);
  }, 300_000);
});

/**
 * The list routes and their query parameters (the handlers' query schemas in functions/src/contracts
 * and handlers/http). A GET route without path parameters is either here or named as taking no query.
 */
const listQueries: Record<string, string[]> = {
  'GET /contacts': ['searchParam', 'pageNumber', 'cursor', 'date', 'dateStart', 'dateEnd'],
  'GET /contacts/list': ['searchParam'],
  'GET /contacts/export': ['cursor'],
  'GET /tickets': [
    'searchParam',
    'pageNumber',
    'cursor',
    'tags',
    'users',
    'queueIds',
    'status',
    'date',
    'updatedAt',
    'showAll',
    'withUnreadMessages',
    'sla',
  ],
  'GET /ticket/kanban': ['queueIds', 'cursor'],
  'GET /dashboard': ['days', 'date_from', 'date_to'],
  'GET /dashboard/ticketsUsers': ['initialDate', 'finalDate', 'companyId'],
  'GET /dashboard/ticketsDay': ['initialDate', 'finalDate', 'companyId'],
  'GET /reports/summary': ['from', 'to', 'queueIds', 'userIds'],
  'GET /reports/export.csv': ['from', 'to', 'queueIds', 'userIds'],
  'GET /messages/{id}': ['pageNumber', 'cursor', 'limit'],
  'GET /users': ['searchParam', 'pageNumber'],
  'GET /companies': ['searchParam', 'pageNumber'],
  'GET /tags': ['searchParam', 'pageNumber'],
  'GET /quick-messages': ['searchParam', 'pageNumber', 'userId'],
  'GET /schedules': ['searchParam', 'pageNumber', 'contactId'],
  'GET /ticket-notes/list': ['ticketId', 'contactId'],
  'GET /queue-options': ['queueId', 'parentId'],
  'GET /campaigns': ['searchParam', 'pageNumber'],
  'GET /chats': ['searchParam', 'pageNumber'],
  'GET /queueIntegration': ['searchParam', 'pageNumber'],
  'GET /prompt': ['searchParam'],
  'GET /chats/{id}/messages': ['cursor'],
  'GET /contact-lists': ['searchParam', 'pageNumber'],
  'GET /contact-list-items': ['contactListId', 'searchParam', 'pageNumber', 'cursor'],
  'GET /files': ['searchParam', 'pageNumber', 'companyId'],
  'GET /announcements': ['searchParam', 'pageNumber'],
  'GET /invoices/all': ['searchParam', 'pageNumber'],
  'GET /audit': ['from', 'to', 'userId', 'action', 'targetType', 'pageNumber', 'companyId'],
  'GET /audit/export.csv': ['from', 'to', 'userId', 'action', 'targetType', 'companyId'],
  // Webhooks (issue 23 §2): a delivery log's pages ({id} is the ticket's id here: not an endpoint, so a clean 404 or 400).
  'GET /webhooks/{id}/deliveries': ['pageNumber'],
};
const withoutQuery = [
  'GET /auth/me',
  'GET /auth/mfa',
  'GET /version',
  'GET /api/openapi.json',
  'GET /settings',
  'GET /plans/list',
  'GET /plans/all',
  'GET /companies/list',
  'GET /users/list',
  'GET /whatsapp',
  'GET /queue',
  'GET /tags/list',
  'GET /tags/kanban',
  'GET /quick-messages/list',
  'GET /helps/list',
  'GET /helps',
  'GET /contact-lists/list',
  'GET /campaign-settings',
  'GET /onboarding',
  'GET /webhooks',
  // The caller's own mentions (issue 22 §6): the handler reads no query.
  'GET /mentions',
];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Values no parameter takes, or takes only at its edge. */
const garbage = (tenantOf: Tenant, other: Tenant): string[] => [
  '',
  ' ',
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  'x'.repeat(9000),
  '[',
  '[1,"a",-3]',
  `[${Array.from({ length: 300 }, (_, i) => i + 1).join(',')}]`,
  '{"a":1}',
  '\u0000',
  '%',
  '+275760-09-13',
  '2024-13-45',
  '0000-00-00',
  "' OR '1'='1",
  // Forged cursors: DynamoDB keys of the caller's and of another tenant, search keys, positions.
  b64({ pk: `C#${tenantOf.companyId}#CT#0000000001`, sk: 'CONTACT', gsi1pk: `C#${tenantOf.companyId}#CONTACTS`, gsi1sk: 'zzz' }),
  b64({ pk: `C#${other.companyId}#CT#0000000001`, sk: 'CONTACT', gsi1pk: `C#${other.companyId}#CONTACTS`, gsi1sk: 'a' }),
  b64({ sk: 'C#zzz#0000000001' }),
  b64(['9999-12-31T00:00:00.000Z#0000000001', null, 1]),
  b64({ p: 1, k: 'M#zzz#0000000001' }),
  `${b64(['x'])}.AAAAAAAAAAAAAAAAAAAAAA`,
  'a.b.c',
];

/** The error a client can act on: a 4xx with `{"error": "ERR_..."}`, never a 5xx or a bare text. */
function unclean(res: { status: number; body: unknown; text: string }): boolean {
  if (res.status >= 500) return true;
  if (res.status < 400) return false;
  return !(res.body && typeof res.body === 'object' && /^ERR_[A-Z_]+$/.test(String((res.body as { error?: unknown }).error)));
}

describe('list routes: every query parameter and cursor', () => {
  let other: Tenant;
  let ticketId: number;

  beforeAll(async () => {
    // The probes above end sessions (logout, password changes): sign in afresh.
    const root = await superLogin(call, inject('admin'));
    tenant = {
      ...tenant,
      admin: { ...tenant.admin, token: await superLogin(call, tenant.admin) },
      user: { ...tenant.user, token: await superLogin(call, tenant.user) },
    };
    other = await createTenant(call, root, await firstPlanId(call), 'fuzz-other');
    // Something to list: contacts and a ticket with messages, so genuine cursors exist.
    for (let i = 0; i < 25; i++) {
      const made = await call('POST', '/contacts', {
        token: tenant.admin.token,
        body: { name: `Fuzz ${String(i).padStart(2, '0')}`, number: `5531977${String(i).padStart(6, '0')}` },
      });
      expect(made.status, made.text).toBe(201);
    }
    const connection = await call('POST', '/whatsapp', {
      token: tenant.admin.token,
      body: { name: 'Fuzz', token: `fuzz-token-${Date.now()}` },
    });
    const contacts = (await call('GET', '/contacts/list', { token: tenant.admin.token })).body as { id: number }[];
    const ticket = await call('POST', '/tickets', {
      token: tenant.admin.token,
      body: { contactId: contacts[0]?.id, whatsappId: (connection.body as { id: number }).id, status: 'open' },
    });
    ticketId = (ticket.body as { id: number }).id;
  });

  it('names every list route with its query parameters', () => {
    const gets = httpRoutes.filter((r) => r.method === 'GET' && (!r.path.includes('{') || listQueries[routeKey(r)]));
    expect(gets.map(routeKey).filter((key) => !listQueries[key] && !withoutQuery.includes(key))).toEqual([]);
  });

  it('garbage in any parameter is a clean 4xx or a 2xx, for an admin and a plain user', async () => {
    const failures: string[] = [];
    const values = garbage(tenant, other);
    const probes: { path: string; token: string; query: Record<string, string> }[] = [];
    for (const [key, params] of Object.entries(listQueries)) {
      const path = key.slice(4).replace('{id}', String(ticketId));
      for (const token of [tenant.admin.token, tenant.user.token])
        for (const param of params) for (const value of values) probes.push({ path, token, query: { [param]: value } });
    }
    let next = 0;
    const worker = async () => {
      while (next < probes.length) {
        const { path, token, query } = probes[next++]!;
        const res = await call('GET', path, { token, query });
        if (unclean(res)) failures.push(`GET ${path} ${JSON.stringify(query).slice(0, 100)} -> ${res.status} ${res.text.slice(0, 120)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(probes.length).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 300_000);

  it('a genuine cursor altered, or taken to another list or tenant, is a 400 naming cursor', async () => {
    const page = async (path: string, token: string, query: Record<string, string> = {}) => call('GET', path, { token, query });
    const contacts = (await page('/contacts', tenant.admin.token)).body as { nextCursor?: string };
    const tickets = await page('/tickets', tenant.admin.token, { showAll: 'true' });
    expect(contacts.nextCursor, 'a second page of contacts').toEqual(expect.any(String));
    const cursor = contacts.nextCursor as string;
    const flipped = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    const cases: [string, string, Record<string, string>][] = [
      ['/contacts', tenant.admin.token, { cursor: flipped }],
      ['/contacts', other.admin.token, { cursor }],
      ['/contacts', tenant.admin.token, { cursor, searchParam: 'fuzz' }],
      ['/contacts/export', tenant.admin.token, { cursor }],
      ['/tickets', tenant.admin.token, { cursor }],
    ];
    for (const [path, token, query] of cases) {
      const res = await page(path, token, query);
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'cursor' });
    }
    expect(tickets.status).toBe(200);
    expect((await page('/contacts', tenant.admin.token, { cursor })).status).toBe(200);
  });
});
