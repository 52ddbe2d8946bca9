/**
 * A small typed client for tests: everything goes over HTTP to the local stack, as a client would.
 */
import { randomUUID } from 'node:crypto';
import type { LoginResponse } from '@conversa/functions/contracts/auth';
import type { Company, CompanyInput } from '@conversa/functions/contracts/companies';
import type { CreateUserInput } from '@conversa/functions/contracts/users';
import { inject } from 'vitest';
import { type Call, client, superLogin } from '../integration/tenants.ts';
import { ok as okCall, waitUntil } from '../integration/whatsapp-kit.ts';

export interface ApiResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

/** Meets the pool's password policy (min 8, upper, lower, digit). */
export const TEST_PASSWORD = 'Segura123';

export function createApi(apiUrl: string = inject('apiUrl')) {
  const base = apiUrl.replace(/\/$/, '');

  async function call<T = unknown>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResult<T>> {
    const url = new URL(base + path);
    for (const [key, value] of Object.entries(opts.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the test sees the text.
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** Throws with the status and body when the call did not succeed: setup steps must not fail silently. */
  async function ok<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
    const res = await call<T>(method, path, opts);
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function login(email: string, password: string): Promise<LoginResponse> {
    return ok<LoginResponse>('POST', '/auth/login', { body: { email, password } });
  }

  /** As the super admin: a company (on the first listed plan unless given) with its first admin, signed in. */
  async function createCompanyWithAdmin(superToken: string, input: Partial<CompanyInput> & { label?: string } = {}) {
    const marker = `${input.label ?? 'co'}-${randomUUID().slice(0, 8)}`.toLowerCase();
    const planId = input.planId ?? (await ok<{ id: number }[]>('GET', '/plans/list'))[0]?.id;
    if (!planId) throw new Error('no plan to create a company on');
    const email = input.email ?? `admin@${marker}.test`;
    const password = input.password ?? TEST_PASSWORD;
    const { label: _label, ...fields } = input;
    const company = await ok<Company>('POST', '/companies', {
      token: superToken,
      body: { name: `Company ${marker}`, dueDate: '2099-12-31', ...fields, email, password, planId },
    });
    const session = await login(email, password);
    return { company, admin: { email, password, token: session.token, user: session.user } };
  }

  /** As a company admin: a user of that admin's company, signed in. */
  async function createUser(adminToken: string, input: Partial<CreateUserInput> = {}) {
    const email = input.email ?? `user-${randomUUID().slice(0, 8)}@conversa.test`;
    const password = input.password ?? TEST_PASSWORD;
    const created = await ok<{ id: number }>('POST', '/users', {
      token: adminToken,
      body: { name: `User ${email.split('@')[0]}`, profile: 'user', ...input, email, password },
    });
    const session = await login(email, password);
    return { id: created.id, email, password, token: session.token, user: session.user };
  }

  return { call, ok, login, createCompanyWithAdmin, createUser };
}

export type Api = ReturnType<typeof createApi>;

/** As the super admin: a plan people can pick on the sign-up page; its id. */
export async function createPlan(call: Call, superToken: string, name: string, value: number): Promise<number> {
  const plan = await okCall<{ id: number }>(call, 'POST', '/plans', {
    token: superToken,
    body: { name, value, users: 3, connections: 1, queues: 2 },
  });
  return plan.id;
}

/** A plan on the sign-up page, created by the stack's super admin; its id. */
export async function offerPlan(name: string, value: number): Promise<number> {
  const call = client(inject('apiUrl'));
  return createPlan(call, await superLogin(call, inject('admin')), name, value);
}

/**
 * Waits until the contact `number` (who wrote from the simulated phone) has a pending ticket, and,
 * when `withMessage` is given, until that ticket holds a message with that text; its id.
 */
export async function pendingTicketOf(call: Call, token: string, number: string, withMessage?: string): Promise<number> {
  return waitUntil(`the pending ticket of ${number}`, async () => {
    const { tickets } = await okCall<{ tickets: { id: number; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
      token,
      query: { showAll: 'true', status: 'pending' },
    });
    const ticket = tickets.find((t) => t.contact.number === number);
    if (!ticket || withMessage === undefined) return ticket?.id;
    const { messages } = await okCall<{ messages: { body: string }[] }>(call, 'GET', `/messages/${ticket.id}`, { token });
    return messages.some((m) => m.body === withMessage) ? ticket.id : undefined;
  });
}

/** An open ticket of a new contact on a new (not connected) connection, made through the API. */
export async function openTicketOfNewContact<T extends { id: number } = { id: number; uuid: string }>(
  call: Call,
  token: string,
  contact: { name: string; number: string },
): Promise<T> {
  const created = await okCall<{ id: number }>(call, 'POST', '/contacts', { token, body: contact });
  const connection = await okCall<{ id: number }>(call, 'POST', '/whatsapp', {
    token,
    body: { name: 'Loja', token: `ticket-${randomUUID()}` },
  });
  return okCall<T>(call, 'POST', '/tickets', { token, body: { contactId: created.id, whatsappId: connection.id, status: 'open' } });
}
