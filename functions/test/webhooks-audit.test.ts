/**
 * Webhook changes in the company's audit trail (issue 23 §2 with issue 21 §3), read back through
 * GET /audit: an endpoint created, updated (before and after), its secret rotated, a delivery
 * resent, the endpoint deleted, each by the admin who did it from where they did it; the automatic
 * switch-off after a failing window by the system (no user). The secret never in clear: not the
 * one shown once, not the sealed one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED } from '#contracts/audit';
import { call, seedTenant, type Tenant } from './users-harness.ts';
import { type Body, deliverQueued, startWebhookEnv, type WebhookEnv } from './webhooks-harness.ts';

let env: WebhookEnv;
let a: Tenant;
let b: Tenant;

const AGENT = 'Mozilla/5.0 WebhooksAudit/1.0';
const IP = '192.0.2.77';
const as = (t: Tenant) => ({ token: t.admin.token, sourceIp: IP, headers: { 'user-agent': AGENT } });
const PUBLIC_URL = 'https://93.184.215.14/hooks/audit';

beforeAll(async () => {
  env = await startWebhookEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

/** The tenant's webhook entries about one endpoint, newest first. */
async function trailOf(t: Tenant, id: number): Promise<Body[]> {
  const res = await call('GET /audit', { token: t.admin.token, query: { targetType: 'webhook' } });
  expect(res.status).toBe(200);
  return (res.body.entries as Body[]).filter((e) => e.targetId === String(id));
}
const byAdmin = (t: Tenant) => ({ companyId: t.companyId, userId: t.admin.id, ip: IP, userAgent: AGENT, targetType: 'webhook' });

describe('webhook changes in the audit trail', () => {
  it('create, update, rotate, resend and delete: one entry each, by the admin, the secret masked', async () => {
    // Act
    const made = await call('POST /webhooks', {
      ...as(a),
      body: { url: env.receiverUrl, events: ['message.received'], description: 'Loja' },
    });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    const params = { id };
    const put = await call('PUT /webhooks/{id}', {
      ...as(a),
      params,
      body: { url: PUBLIC_URL, events: ['ticket.closed'], enabled: false },
    });
    expect(put.status).toBe(200);
    const rotated = await call('POST /webhooks/{id}/rotate-secret', { ...as(a), params });
    expect(rotated.status).toBe(200);
    // A delivery to resend: a test event (sent even while the endpoint is off), delivered
    const test = await call('POST /webhooks/{id}/test', { ...as(a), params });
    await deliverQueued(env);
    const resent = await call('POST /webhooks/{id}/deliveries/{deliveryId}/resend', { ...as(a), params: { id, deliveryId: test.body.id } });
    expect(resent.status).toBe(200);
    expect((await call('DELETE /webhooks/{id}', { ...as(a), params })).status).toBe(204);

    // Assess
    const trail = await trailOf(a, id);
    expect(trail.map((e) => e.action)).toEqual([
      'webhook.delete',
      'webhook.resend',
      'webhook.rotateSecret',
      'webhook.update',
      'webhook.create',
    ]);
    for (const entry of trail) expect(entry).toMatchObject(byAdmin(a));
    const [deleted, resend, rotate, update, create] = trail;
    expect(create?.changes).toEqual({
      url: { from: null, to: env.receiverUrl },
      events: { from: null, to: ['message.received'] },
      description: { from: null, to: 'Loja' },
      enabled: { from: null, to: true },
      secret: { from: null, to: MASKED },
    });
    expect(update?.changes).toEqual({
      url: { from: env.receiverUrl, to: PUBLIC_URL },
      events: { from: ['message.received'], to: ['ticket.closed'] },
      enabled: { from: true, to: false },
    });
    expect(rotate?.changes).toEqual({ secret: { from: MASKED, to: MASKED } });
    expect(resend?.changes).toEqual({ delivery: { from: null, to: test.body.id }, event: { from: null, to: 'ping' } });
    expect(deleted?.changes).toEqual({
      url: { from: PUBLIC_URL, to: null },
      events: { from: ['ticket.closed'], to: null },
      description: { from: 'Loja', to: null },
    });
    const csv = await call('GET /audit/export.csv', { token: a.admin.token, query: { targetType: 'webhook' } });
    expect(String(csv.body)).toContain('webhook.rotateSecret');
    for (const secret of [made.body.secret, rotated.body.secret]) {
      expect(JSON.stringify(trail)).not.toContain(secret);
      expect(String(csv.body)).not.toContain(secret);
    }
    expect(JSON.stringify(trail)).not.toMatch(/whsec_|v1\./);
  });

  it('a refused change writes no entry; another company reads none of these entries', async () => {
    const made = await call('POST /webhooks', { ...as(a), body: { url: PUBLIC_URL, events: ['message.received'] } });
    const id = made.body.id as number;
    const refused = await call('PUT /webhooks/{id}', { ...as(a), params: { id }, body: { url: 'ftp://93.184.215.14/hook' } });
    expect(refused.status).toBe(400);
    expect((await call('DELETE /webhooks/{id}', { ...as(b), params: { id } })).status).toBe(404);
    expect((await trailOf(a, id)).map((e) => e.action)).toEqual(['webhook.create']);
    expect(await trailOf(b, id)).toEqual([]);
  });

  it('the switch-off after a failing window: one entry by the system', async () => {
    // Prepare: an endpoint whose receiver answers 500
    const made = await call('POST /webhooks', { ...as(a), body: { url: env.receiverUrl, events: ['message.received'] } });
    const id = made.body.id as number;
    env.answers.push(500, 500);

    // Act: two failing test events a window (1 s here) apart
    await call('POST /webhooks/{id}/test', { ...as(a), params: { id } });
    await deliverQueued(env, 10, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await call('POST /webhooks/{id}/test', { ...as(a), params: { id } });
    await deliverQueued(env, 10, 1);

    // Assess
    expect((await call('GET /webhooks/{id}', { token: a.admin.token, params: { id } })).body).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
    });
    const trail = await trailOf(a, id);
    expect(trail.map((e) => e.action)).toEqual(['webhook.disable', 'webhook.create']);
    expect(trail[0]).toMatchObject({
      companyId: a.companyId,
      userId: null,
      userName: null,
      ip: null,
      userAgent: null,
      changes: { enabled: { from: true, to: false }, disabledReason: { from: null, to: 'failing' } },
    });
  });
});
