/**
 * Bad input is never a 500: every route of the route table, called with hostile bodies, path
 * parameters and query strings, answers 4xx (or a 2xx when the input happens to be valid).
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

describe('fuzzed input never gives a 5xx', () => {
  it('every route, every actor, hostile bodies, ids and queries', async () => {
    const random = prng(20261121);
    const failures: string[] = [];
    const deep = nested(60);
    // Logging out ends the session and its tokens: that route goes last, so every other route sees live tokens.
    const ordered = [...httpRoutes].sort(
      (x, y) => Number(routeKey(x) === 'DELETE /auth/logout') - Number(routeKey(y) === 'DELETE /auth/logout'),
    );
    for (const route of ordered) {
      const tokens = route.access === 'public' ? [undefined, tenant.admin.token] : [superToken, tenant.admin.token, tenant.user.token];
      for (const [actor, token] of tokens.entries()) {
        // The first actor gets every id; the others (who mostly stop at the access gate) one.
        for (const path of actor === 0 ? paths(route) : paths(route).slice(0, 1)) {
          const bodies: ({ body: unknown } | { rawBody: string })[] = [
            ...nasty.map((body) => ({ body })),
            { body: deep },
            ...rawBodies.map((rawBody) => ({ rawBody })),
          ];
          // Every body on the first path; a random sample on the rest keeps the run short.
          const sample = path === paths(route)[0] && actor === 0 ? bodies : bodies.filter(() => random() < 0.25);
          for (const b of sample) {
            const query = badQueries[Math.floor(random() * badQueries.length)]!;
            const res = await call(route.method, path, { token, query, ...b });
            if (res.status >= 500)
              failures.push(`${routeKey(route)} ${path} ${JSON.stringify(b).slice(0, 80)} -> ${res.status} ${res.text.slice(0, 120)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
