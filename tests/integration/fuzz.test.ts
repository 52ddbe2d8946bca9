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
