/**
 * Two tenants built through the public REST API, for the cross-tenant, access and fuzz tests.
 * Everything here goes over HTTP to the local stack, as a client would.
 */
import { randomUUID } from 'node:crypto';

export interface CallResult {
  status: number;
  body: unknown;
  text: string;
}

export function client(apiUrl: string) {
  return async function call(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; rawBody?: string; query?: Record<string, string> } = {},
  ): Promise<CallResult> {
    const url = new URL(apiUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (method === 'GET' || method === 'HEAD') {
      // fetch refuses a body on these; the API ignores one anyway.
    } else if (opts.rawBody !== undefined) {
      body = opts.rawBody;
      headers['content-type'] = 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, text };
  };
}

export type Call = ReturnType<typeof client>;

export interface Tenant {
  marker: string;
  companyId: number;
  companyName: string;
  admin: { id: number; email: string; password: string; token: string };
  user: { id: number; email: string; password: string; token: string };
}

export const PASSWORD = 'Segura123';

async function login(call: Call, email: string, password: string): Promise<{ token: string; userId: number }> {
  const res = await call('POST', '/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.text}`);
  const body = res.body as { token: string; user: { id: number } };
  return { token: body.token, userId: body.user.id };
}

/** Creates a company with its admin (as the super user) and a plain user (as that admin). */
/**
 * `skipUserIds` throwaway users are created first: user ids are per tenant, so the other tenant's ids
 * must not collide with this one's for a cross-tenant probe to point at a resource only B has.
 */
export async function createTenant(call: Call, superToken: string, planId: number, label: string, skipUserIds = 0): Promise<Tenant> {
  const marker = `${label}-${randomUUID().slice(0, 8)}`.toLowerCase();
  const adminEmail = `admin@${marker}.test`;
  const companyName = `Company ${marker}`;
  const created = await call('POST', '/companies', {
    token: superToken,
    body: { name: companyName, email: adminEmail, planId, password: PASSWORD, dueDate: '2099-12-31' },
  });
  if (created.status !== 201 && created.status !== 200) throw new Error(`create company: ${created.status} ${created.text}`);
  const companyId = (created.body as { id: number }).id;
  const admin = await login(call, adminEmail, PASSWORD);
  for (let i = 0; i < skipUserIds; i++) {
    const filler = await call('POST', '/users', {
      token: admin.token,
      body: { name: `Filler ${i}`, email: `filler${i}@${marker}.test`, password: PASSWORD, profile: 'user' },
    });
    if (filler.status >= 300) throw new Error(`create filler user: ${filler.status} ${filler.text}`);
  }
  const userEmail = `user@${marker}.test`;
  const user = await call('POST', '/users', {
    token: admin.token,
    body: { name: `User ${marker}`, email: userEmail, password: PASSWORD, profile: 'user' },
  });
  if (user.status !== 201 && user.status !== 200) throw new Error(`create user: ${user.status} ${user.text}`);
  const plain = await login(call, userEmail, PASSWORD);
  return {
    marker,
    companyId,
    companyName,
    admin: { id: admin.userId, email: adminEmail, password: PASSWORD, token: admin.token },
    user: { id: plain.userId, email: userEmail, password: PASSWORD, token: plain.token },
  };
}

export async function superLogin(call: Call, admin: { email: string; password: string }): Promise<string> {
  return (await login(call, admin.email, admin.password)).token;
}

const paidPlans = new Map<Call, Promise<number>>();

/**
 * A plan worth paying for (R$ 49,90, the seeded plan's limits), made once per client: a company that
 * must pay at its due date is put on it. The seeded plan is worth 0, and a free plan's period renews
 * itself when its invoice is issued (domain/billing/invoices.ts settleFree), so it never stays expired.
 */
export function paidPlanId(call: Call, superToken: string): Promise<number> {
  const known = paidPlans.get(call);
  if (known) return known;
  const made = (async () => {
    const res = await call('POST', '/plans', {
      token: superToken,
      body: { name: `Plano pago ${Date.now()}`, value: 49.9, users: 50, connections: 10, queues: 50 },
    });
    if (res.status >= 300) throw new Error(`paid plan not created: ${res.status} ${res.text}`);
    return (res.body as { id: number }).id;
  })();
  paidPlans.set(call, made);
  return made;
}

export async function firstPlanId(call: Call): Promise<number> {
  const res = await call('GET', '/plans/list');
  const plans = res.body as { id: number }[];
  if (!plans.length) throw new Error('no plan seeded');
  return plans[0]!.id;
}
