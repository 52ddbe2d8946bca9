/**
 * One time zone on the server (issue 25): a schedule's sendAt given without an offset is the
 * company's wall clock (setting `timezone`), not the server's; one with an offset stays the instant
 * it names; the audit export writes its times on the company's clock with the offset. Over
 * DynamoDB Local + cognito-local, as the API answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantOfLocal, zonedIso } from '#contracts/zoned-time';
import { auditCsv } from '#domain/audit/read';
import { type Env, invoke, startEnv } from './messages-harness.ts';
import { createSchedule, newContact } from './schedules-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let t: Tenant;

beforeAll(async () => {
  env = await startEnv();
  t = await seedTenant(env.stack);
}, 120_000);
afterAll(async () => env?.stop());

const setZone = (zone: string) =>
  invoke('PUT /settings/{key}', { token: t.admin.token, params: { key: 'timezone' }, json: { key: 'timezone', value: zone } });

describe("the company's clock on the server", () => {
  it('reads a sendAt without an offset in the company zone, and keeps one with an offset', async () => {
    const contactId = await newContact(t);
    expect((await setZone('America/Sao_Paulo')).status).toBe(200);
    const local = await createSchedule(t.admin.token, { body: 'Lembrete às duas', contactId, sendAt: '2030-12-20T14:00' });
    expect(local.status, JSON.stringify(local.body)).toBe(201);
    expect(local.body.sendAt).toBe('2030-12-20T17:00:00.000Z');
    const explicit = await createSchedule(t.admin.token, { body: 'Lembrete em UTC', contactId, sendAt: '2030-12-20T14:00:00Z' });
    expect(explicit.body.sendAt).toBe('2030-12-20T14:00:00.000Z');
    // The settings read cache holds a company's settings up to 5 s.
    expect((await setZone('Asia/Tokyo')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const tokyo = await invoke('PUT /schedules/{id}', {
      token: t.admin.token,
      params: { id: local.body.id },
      json: { body: 'Lembrete às duas', contactId, sendAt: '2030-12-20T14:00' },
    });
    expect(tokyo.status, JSON.stringify(tokyo.body)).toBe(200);
    expect(tokyo.body.sendAt).toBe('2030-12-20T05:00:00.000Z');
    // Not a date-time: refused, nothing stored.
    const bad = await createSchedule(t.admin.token, { body: 'Lembrete impossível', contactId, sendAt: '2030-02-31T14:00' });
    expect(bad.status).toBe(400);
  }, 60_000);

  it('writes the audit export times on the company clock with the offset', () => {
    const entry = {
      id: '1',
      createdAt: '2026-12-01T17:00:00.000Z',
      companyId: t.companyId,
      userId: 1,
      userName: 'Ana',
      action: 'user.create',
      targetType: 'user',
      targetId: '2',
      changes: null,
      ip: '',
      userAgent: '',
    } as unknown as Parameters<typeof auditCsv>[0][number];
    const row = auditCsv([entry], undefined, 'America/Sao_Paulo').csv.split('\r\n')[1] ?? '';
    expect(row.startsWith('2026-12-01T14:00:00-03:00;')).toBe(true);
    expect(zonedIso('2026-12-01T17:00:00.000Z', 'Asia/Tokyo')).toBe('2026-12-02T02:00:00+09:00');
    expect(instantOfLocal('2026-12-01T14:00', 'America/Sao_Paulo')?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
  });
});
