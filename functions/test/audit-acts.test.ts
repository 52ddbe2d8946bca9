/**
 * Each administrative act leaves exactly one entry an admin reads in GET /audit (issue 21 §3):
 * settings, queues, connections (create, new QR, disconnect, delete), integrations, prompts, and a
 * super admin's plans and announcements; secrets (an OpenAI key, a payment token) never in clear.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED } from '#contracts/audit';
import { defaultCompanySchedules } from '#contracts/schedules';
import type { CommandQueue } from './connections-harness.ts';
import { type Env, startEnv } from './messages-harness.ts';
import { startTestMailSink, type TestMailSink } from './support/mail-sink.ts';
import { call, PASSWORD, type Stack, seedTenant, type Tenant, uniq } from './users-harness.ts';

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

let env: Env;
let mail: TestMailSink;
let stack: Stack;
let commands: CommandQueue;
let a: Tenant;
let root: Tenant;

const AGENT = 'Mozilla/5.0 AuditActs/2.0';
const IP = '192.0.2.44';
const as = (t: Tenant) => ({ token: t.admin.token, sourceIp: IP, headers: { 'user-agent': AGENT } });

beforeAll(async () => {
  // s3rver too: deleting a company empties its media.
  [env, mail] = await Promise.all([startEnv(), startTestMailSink()]);
  ({ stack, commands } = env);
  [a, root] = await Promise.all([seedTenant(stack), seedTenant(stack, { super: true })]);
}, 90_000);
afterAll(async () => {
  await Promise.all([env?.stop(), mail?.stop()]);
});

/** The tenant's entries about one target, newest first. */
async function trailOf(t: Tenant, targetType: string, targetId: string | number) {
  const res = await call('GET /audit', { token: t.admin.token, query: { targetType } });
  expect(res.status).toBe(200);
  return (res.body.entries as Array<Record<string, unknown>>).filter((e) => e.targetId === String(targetId));
}

const byCaller = (t: Tenant) => ({ companyId: t.companyId, userId: t.admin.id, ip: IP, userAgent: AGENT });

describe('acts recorded', () => {
  it('a setting change, with before and after; a secret setting masked', async () => {
    expect((await call('PUT /settings/{key}', { ...as(a), params: { key: 'userRating' }, body: { value: 'enabled' } })).status).toBe(200);
    // The Asaas key is the platform's: its super user sets it (issue 25).
    expect((await call('PUT /settings/{key}', { ...as(root), params: { key: 'asaas' }, body: { value: 'tok-live-123456' } })).status).toBe(
      200,
    );
    const rating = await trailOf(a, 'setting', 'userRating');
    const asaas = await trailOf(root, 'setting', 'asaas');
    expect(rating).toEqual([
      expect.objectContaining({ ...byCaller(a), action: 'setting.update', changes: { userRating: { from: 'disabled', to: 'enabled' } } }),
    ]);
    expect(asaas).toHaveLength(1);
    expect(asaas[0]?.changes).toEqual({ asaas: { from: '', to: MASKED } });
    const csv = await call('GET /audit/export.csv', { token: root.admin.token, query: { targetType: 'setting' } });
    expect(csv.body).not.toContain('tok-live-123456');
  });

  it('a queue created, edited and deleted', async () => {
    const made = await call('POST /queue', { ...as(a), body: { name: 'Vendas Audit', color: '#123456' } });
    expect(made.status).toBe(201);
    const id = made.body.id;
    expect((await call('PUT /queue/{id}', { ...as(a), params: { id }, body: { name: 'Vendas 2' } })).status).toBe(200);
    expect((await call('DELETE /queue/{id}', { ...as(a), params: { id } })).status).toBeLessThan(300);
    const trail = await trailOf(a, 'queue', id);
    expect(trail.map((e) => e.action)).toEqual(['queue.delete', 'queue.update', 'queue.create']);
    expect(trail[1]?.changes).toEqual({ name: { from: 'Vendas Audit', to: 'Vendas 2' } });
    expect(trail[2]).toMatchObject({
      ...byCaller(a),
      changes: { name: { from: null, to: 'Vendas Audit' }, color: { from: null, to: '#123456' } },
    });
  });

  it('a connection created, asked a new QR, disconnected and deleted', async () => {
    const made = await call('POST /whatsapp', { ...as(a), body: { name: uniq('Wa ') } });
    expect(made.status).toBe(201);
    const id = made.body.id;
    expect((await call('PUT /whatsappsession/{id}', { ...as(a), params: { id } })).status).toBeLessThan(300);
    expect((await call('DELETE /whatsappsession/{id}', { ...as(a), params: { id } })).status).toBeLessThan(300);
    expect((await call('DELETE /whatsapp/{id}', { ...as(a), params: { id } })).status).toBeLessThan(300);
    await commands.drain();
    const trail = await trailOf(a, 'connection', id);
    expect(trail.map((e) => e.action)).toEqual(['connection.delete', 'connection.disconnect', 'connection.newQr', 'connection.create']);
    expect(trail.every((e) => e.ip === IP && e.userAgent === AGENT && e.userId === a.admin.id)).toBe(true);
    expect(trail[3]?.changes).toMatchObject({ name: { from: null, to: made.body.name } });
  });

  it('a prompt whose OpenAI key never reaches the trail', async () => {
    const queue = await call('POST /queue', { token: a.admin.token, body: { name: 'Prompt Q', color: '#654321' } });
    const key = 'sk-proj-AUDITSECRET0123456789abcdefghijklmnop';
    const made = await call('POST /prompt', {
      ...as(a),
      body: { name: 'Assistente', prompt: 'Seja cordial.', queueId: queue.body.id, apiKey: key },
    });
    expect(made.status).toBe(201);
    const id = made.body.id;
    const edited = await call('PUT /prompt/{id}', { ...as(a), params: { id }, body: { apiKey: `${key}X`, temperature: 0.5 } });
    expect(edited.status).toBe(200);
    const trail = await trailOf(a, 'prompt', id);
    expect(trail.map((e) => e.action)).toEqual(['prompt.update', 'prompt.create']);
    expect(trail[1]?.changes).toMatchObject({ name: { from: null, to: 'Assistente' } });
    const csv = await call('GET /audit/export.csv', { token: a.admin.token, query: { targetType: 'prompt' } });
    for (const text of [JSON.stringify(trail), csv.body]) {
      expect(text).not.toContain('AUDITSECRET');
      expect(text).not.toContain('sk-proj');
    }
  });

  it('an integration created', async () => {
    const made = await call('POST /queueIntegration', {
      ...as(a),
      body: { type: 'webhook', name: 'Bot Audit', urlN8N: 'https://h.example/n' },
    });
    expect(made.status).toBe(201);
    const trail = await trailOf(a, 'integration', made.body.id);
    expect(trail).toEqual([
      expect.objectContaining({
        ...byCaller(a),
        action: 'integration.create',
        changes: expect.objectContaining({ name: { from: null, to: 'Bot Audit' } }),
      }),
    ]);
  });

  it("a super admin's plans and announcements, in the super admin's company", async () => {
    const plan = await call('POST /plans', { ...as(root), body: { name: uniq('Audit plan '), users: 3 } });
    expect(plan.status).toBe(201);
    expect((await call('PUT /plans/{id}', { ...as(root), params: { id: plan.body.id }, body: { ...plan.body, users: 5 } })).status).toBe(
      200,
    );
    expect((await call('DELETE /plans/{id}', { ...as(root), params: { id: plan.body.id } })).status).toBeLessThan(300);
    const news = await call('POST /announcements', { ...as(root), body: { title: 'Manutenção', text: 'Domingo às 2h' } });
    expect(news.status).toBe(201);
    const plans = await trailOf(root, 'plan', plan.body.id);
    expect(plans.map((e) => e.action)).toEqual(['plan.delete', 'plan.update', 'plan.create']);
    expect(plans[1]?.changes).toEqual({ users: { from: 3, to: 5 } });
    expect(await trailOf(root, 'announcement', news.body.id)).toEqual([
      expect.objectContaining({ ...byCaller(root), action: 'announcement.create' }),
    ]);
    // Not in an ordinary company's trail
    expect(await trailOf(a, 'plan', plan.body.id)).toEqual([]);
  });

  it('a sign-in refused, then one that passed, then the sign-out, from the address and agent that made them', async () => {
    const member = await a.addUser('user');
    const from = { sourceIp: '198.51.100.23', headers: { 'user-agent': AGENT } };
    const refused = await call('POST /auth/login', { ...from, body: { email: member.email, password: 'Wrong1234' } });
    expect(refused.status).toBe(401);
    const signedIn = await call('POST /auth/login', { ...from, body: { email: member.email, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    expect((await call('DELETE /auth/logout', { ...from, token: signedIn.body.token })).status).toBe(204);
    const trail = await trailOf(a, 'session', member.id);
    expect(trail.map((e) => e.action)).toEqual(['auth.logout', 'auth.login', 'auth.loginFailed']);
    for (const entry of trail)
      expect(entry).toMatchObject({ companyId: a.companyId, userId: member.id, ip: '198.51.100.23', userAgent: AGENT });
    expect(trail[2]?.changes).toEqual({ reason: { from: null, to: 'ERR_INVALID_CREDENTIALS' }, email: { from: null, to: member.email } });
    expect(JSON.stringify(trail)).not.toContain('Wrong1234');
    // An unknown e-mail has no company: nothing is written anywhere it could be read.
    expect((await call('POST /auth/login', { ...from, body: { email: 'nobody@nowhere.test', password: 'Wrong1234' } })).status).toBe(401);
  });

  it('a password reset asked for through the API', async () => {
    const member = await a.addUser('user');
    expect((await call('POST /forgetpassword/{email}', { sourceIp: IP, params: { email: member.email } })).status).toBe(200);
    const trail = await trailOf(a, 'user', member.id);
    expect(trail.map((e) => e.action)).toContain('auth.passwordResetRequested');
  });

  it("a super admin's company created, edited and deleted; a sign-up opens the new company's own trail", async () => {
    const made = await call('POST /companies', {
      ...as(root),
      body: { name: uniq('Audited '), email: `${uniq('co')}@acme.test`, planId: a.plan.id, password: 'Secret123', dueDate: '2031-05-31' },
    });
    expect(made.status).toBe(201);
    const id = made.body.id;
    expect((await call('PUT /companies/{id}', { ...as(root), params: { id }, body: { dueDate: '2032-01-31' } })).status).toBe(200);
    expect((await call('DELETE /companies/{id}', { ...as(root), params: { id } })).status).toBeLessThan(300);
    const trail = await trailOf(root, 'company', id);
    expect(trail.map((e) => e.action)).toEqual(['company.delete', 'company.update', 'company.create']);
    expect(trail[1]?.changes).toEqual({ dueDate: { from: '2031-05-31', to: '2032-01-31' } });
    expect(trail[2]?.changes).toMatchObject({ password: { from: null, to: MASKED } });
    expect(JSON.stringify(trail)).not.toContain('Secret123');

    const signup = await call('POST /companies/cadastro', {
      sourceIp: IP,
      headers: { 'user-agent': AGENT },
      body: {
        name: uniq('Signup '),
        ownerName: 'Maria Dona',
        email: `${uniq('own')}@acme.test`,
        phone: '(11) 98765-4321',
        password: 'Secret123',
        planId: a.plan.id,
      },
    });
    expect(signup.status).toBe(201);
    const own = await call('GET /audit', { token: root.admin.token, query: { companyId: String(signup.body.id) } });
    expect(own.body.entries).toEqual([
      expect.objectContaining({
        companyId: signup.body.id,
        userId: null,
        userName: 'Maria Dona',
        action: 'company.create',
        ip: IP,
        userAgent: AGENT,
      }),
    ]);
  });

  it("an admin's opening hours of their own company", async () => {
    const schedules = defaultCompanySchedules.map((day) => (day.weekdayEn === 'saturday' ? { ...day, endTime: '14:00' } : day));
    const res = await call('PUT /companies/{id}/schedules', { ...as(a), params: { id: a.companyId }, body: { schedules } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const trail = await trailOf(a, 'company', a.companyId);
    expect(trail).toEqual([
      expect.objectContaining({ ...byCaller(a), action: 'company.update', changes: { schedules: expect.any(Object) } }),
    ]);
  });

  it("a queue's chatbot option created, edited and deleted, each a change of its queue", async () => {
    const queue = await call('POST /queue', { token: a.admin.token, body: { name: uniq('Bot Q '), color: '#0a0b0c' } });
    const queueId = queue.body.id;
    const made = await call('POST /queue-options', { ...as(a), body: { queueId, parentId: null, title: 'Vendas', message: 'Digite 1' } });
    expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
    const id = made.body.id;
    expect((await call('PUT /queue-options/{id}', { ...as(a), params: { id }, body: { title: 'Compras' } })).status).toBe(200);
    expect((await call('DELETE /queue-options/{id}', { ...as(a), params: { id } })).status).toBeLessThan(300);
    const trail = (await trailOf(a, 'queue', queueId)).filter((e) => e.action === 'queue.update');
    const key = `option ${id}`;
    expect(trail.map((e) => Object.keys(e.changes as object))).toEqual([[key], [key], [key]]);
    const [deleted, edited, created] = trail.map((e) => (e.changes as Record<string, { from: unknown; to: unknown }>)[key]);
    expect(created).toEqual({ from: null, to: { option: '1', title: 'Vendas', message: 'Digite 1', parentId: null } });
    expect(edited?.to).toMatchObject({ title: 'Compras' });
    expect(deleted).toMatchObject({ from: { title: 'Compras' }, to: null });
    expect(trail.every((e) => e.ip === IP && e.userId === a.admin.id)).toBe(true);
  });

  it("a web sign-in (POST /auth/session) passed, and one refused for the company's expiry", async () => {
    const expired = await seedTenant(stack, { dueDate: '2020-01-31' });
    const member = await expired.addUser('user');
    const refused = await call('POST /auth/session', { token: member.token, sourceIp: IP, headers: { 'user-agent': AGENT }, body: {} });
    expect(refused.status).toBe(402);
    const passed = await call('POST /auth/session', { ...as(a), body: {} });
    expect(passed.status).toBe(200);
    const ofExpired = await call('GET /audit', {
      token: root.admin.token,
      query: { companyId: String(expired.companyId), targetType: 'session' },
    });
    expect(ofExpired.body.entries).toEqual([
      expect.objectContaining({
        userId: member.id,
        action: 'auth.loginFailed',
        ip: IP,
        userAgent: AGENT,
        changes: { reason: { from: null, to: refused.body.error }, email: { from: null, to: member.email } },
      }),
    ]);
    const ofA = await trailOf(a, 'session', a.admin.id);
    expect(ofA[0]).toMatchObject({ ...byCaller(a), action: 'auth.login', changes: { via: { from: null, to: 'web' } } });
  });
});
