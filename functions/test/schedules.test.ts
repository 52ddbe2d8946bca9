/**
 * Scheduled messages' API over DynamoDB Local + cognito-local + s3rver: the spec's validation
 * messages, the useSchedules gate and the plan's limit, tenant isolation, the company calendar
 * (search, order, edit, delete, media), and the sender's rules as pure functions. The sender itself
 * runs in schedules-sender.test.ts.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduleSchema, type ListSchedulesQuery } from '#contracts/schedule-requests';
import { selectSchedules } from '#domain/schedules/schedules';
import { CONNECTION_WAIT_MS, decideConnection, LEASE_MS, leaseEnd } from '#domain/schedules/send';
import type { ConnectionRecord } from '#storage/connections';
import { db, table } from '#storage/db';
import { getSchedule, type ScheduleRecord } from '#storage/schedules';
import { tenantPk } from '#storage/table';
import { createConnection, type Env, invoke, multipart, readObject, seedTicket, skipTicketIds, startEnv } from './messages-harness.ts';
import { createSchedule, inAnHour, newContact } from './schedules-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let t: Tenant;

beforeAll(async () => {
  env = await startEnv();
  t = await seedTenant(env.stack);
}, 120_000);
afterAll(async () => env?.stop());

async function skipIds(companyId: number, counter: string, to = 1_000_000): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: tenantPk(companyId), sk: `COUNTER#${counter}` },
      UpdateExpression: 'SET #v = :to',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':to': to },
    }),
  );
}

describe('rules', () => {
  it("refuses a short body with 'mensaje muy corto' and a missing contact or send time with 'Obligatorio'", () => {
    const issues = (value: unknown) => createScheduleSchema.safeParse(value).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ body: 'oi  ', contactId: 1, sendAt: inAnHour() })).toEqual([['body', 'mensaje muy corto']]);
    expect(issues({ body: 'Hello there' })).toEqual([
      ['contactId', 'Obligatorio'],
      ['sendAt', 'Obligatorio'],
    ]);
    expect(createScheduleSchema.parse({ body: 'Hello', contactId: '3', sendAt: '2030-01-02T10:00:00-03:00' })).toMatchObject({
      contactId: 3,
      sendAt: '2030-01-02T13:00:00.000Z',
    });
  });

  it('picks the connection: none is ERRO at once; one coming up is waited for, then ERRO', () => {
    const now = new Date('2030-01-01T10:00:00Z');
    const connected = { id: 1, status: 'CONNECTED' } as ConnectionRecord;
    const opening = { id: 1, status: 'OPENING' } as ConnectionRecord;
    expect(decideConnection(undefined, {}, now)).toEqual({ kind: 'fail', error: 'ERR_NO_DEF_WAPP_FOUND' });
    expect(decideConnection(connected, {}, now)).toEqual({ kind: 'send', connection: connected });
    expect(decideConnection(opening, {}, now)).toEqual({
      kind: 'wait',
      waitingSince: now.toISOString(),
      retryAt: '2030-01-01T10:01:00.000Z',
    });
    const since = new Date(now.getTime() - CONNECTION_WAIT_MS).toISOString();
    expect(decideConnection(opening, { waitingSince: since }, now)).toEqual({ kind: 'fail', error: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('leases a claim past the send time, or past now for a late one', () => {
    const now = new Date('2030-01-01T10:00:00Z');
    expect(leaseEnd('2030-01-01T10:00:30.000Z', now)).toBe(new Date(Date.parse('2030-01-01T10:00:30Z') + LEASE_MS).toISOString());
    expect(leaseEnd('2029-12-31T00:00:00.000Z', now)).toBe(new Date(now.getTime() + LEASE_MS).toISOString());
  });

  it('orders the calendar by send time and searches body, contact name and number without accents', () => {
    const at = (sendAt: string, id: number, body: string, name: string) =>
      ({ id, sendAt, body, contactId: id, contact: { id, name, number: `5511${id}`, profilePicUrl: '' } }) as ScheduleRecord;
    const records = [at('2030-01-03', 1, 'Boleto', 'João'), at('2030-01-01', 2, 'Promoção', 'Maria'), at('2030-01-02', 3, 'Oi', 'Zé')];
    const query = (searchParam: string, contactId?: number): ListSchedulesQuery => ({ searchParam, pageNumber: 1, contactId });
    expect(selectSchedules(records, query('')).map((r) => r.id)).toEqual([2, 3, 1]);
    expect(selectSchedules(records, query('joao')).map((r) => r.id)).toEqual([1]);
    expect(selectSchedules(records, query('promocao')).map((r) => r.id)).toEqual([2]);
    expect(selectSchedules(records, query('55113')).map((r) => r.id)).toEqual([3]);
    expect(selectSchedules(records, query('', 1)).map((r) => r.id)).toEqual([1]);
  });
});

describe('the API', () => {
  it('validates with the spec messages and refuses a plan without useSchedules with 403', async () => {
    const short = await createSchedule(t.admin.token, { body: 'oi', contactId: 1, sendAt: inAnHour() });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'body', message: 'mensaje muy corto' });
    const noTime = await createSchedule(t.admin.token, { body: 'Hello there', contactId: 1 });
    expect(noTime.body).toMatchObject({ field: 'sendAt', message: 'Obligatorio' });

    const without = await seedTenant(env.stack, { plan: { useSchedules: false } });
    for (const key of ['GET /schedules', 'POST /schedules']) {
      const res = await invoke(key, { token: without.admin.token, json: { body: 'Hello there', contactId: 1, sendAt: inAnHour() } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useSchedules' });
    }
  });

  it("keeps tenants apart: another company's contact, ticket and schedule are 404", async () => {
    const other = await seedTenant(env.stack);
    // Ids are per company: B's start far past any of A's, so "B's id" names B's record only.
    await Promise.all(['CONTACT', 'SCHEDULE'].map((counter) => skipIds(other.companyId, counter)));
    await skipTicketIds(other.companyId);
    const theirContact = await newContact(other, 'Other tenant');
    const mine = await newContact(t);
    const refused = await createSchedule(t.admin.token, { body: 'Hello there', contactId: theirContact, sendAt: inAnHour() });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('ERR_NO_CONTACT_FOUND');
    const theirConnection = await createConnection(other);
    const theirTicket = await seedTicket(other, theirConnection.id);
    const withTheirTicket = await createSchedule(t.admin.token, {
      body: 'Hello there',
      contactId: mine,
      sendAt: inAnHour(),
      ticketId: theirTicket.id,
    });
    expect(withTheirTicket.status).toBe(404);
    const theirs = await createSchedule(other.admin.token, { body: 'Their schedule', contactId: theirContact, sendAt: inAnHour() });
    expect(theirs.status).toBe(201);
    for (const key of ['GET /schedules/{id}', 'PUT /schedules/{id}', 'DELETE /schedules/{id}', 'DELETE /schedules/{id}/media-upload']) {
      const res = await invoke(key, { token: t.admin.token, params: { id: theirs.body.id }, json: { body: 'Hijacked!' } });
      expect(res.status, key).toBe(404);
    }
    const list = await invoke('GET /schedules', { token: t.admin.token });
    expect(list.body.schedules.map((s: { id: number; companyId: number }) => s.companyId)).not.toContain(other.companyId);
    expect((await getSchedule(other.companyId, theirs.body.id))?.body).toBe('Their schedule');
  });

  it('creates PENDENTE, lists the company calendar with current contact names, edits, uploads and deletes', async () => {
    const tenant = await seedTenant(env.stack);
    const colleague = await tenant.addUser('user');
    const contactId = await newContact(tenant, 'Bruno Calendário');
    const made = await createSchedule(colleague.token, { body: 'Seu boleto vence amanhã', contactId, sendAt: '2030-05-01T12:00:00.000Z' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      status: 'PENDENTE',
      sentAt: null,
      contact: { id: contactId, name: 'Bruno Calendário' },
      userId: colleague.id,
      mediaPath: null,
    });
    await createSchedule(tenant.admin.token, { body: 'Earlier message', contactId, sendAt: '2030-04-01T12:00:00.000Z' });
    await invoke('PUT /contacts/{id}', { token: tenant.admin.token, params: { id: contactId }, json: { name: 'Bruno Renomeado' } });

    const list = await invoke('GET /schedules', { token: tenant.admin.token });
    expect(list.body.hasMore).toBe(false);
    expect(list.body.schedules.map((s: { body: string }) => s.body)).toEqual(['Earlier message', 'Seu boleto vence amanhã']);
    expect(list.body.schedules[0].contact.name).toBe('Bruno Renomeado');
    const search = await invoke('GET /schedules', { token: tenant.admin.token, query: { searchParam: 'BOLETO' } });
    expect(search.body.schedules.map((s: { id: number }) => s.id)).toEqual([made.body.id]);

    const edited = await invoke('PUT /schedules/{id}', {
      token: tenant.admin.token,
      params: { id: made.body.id },
      json: { body: 'Seu boleto vence hoje', sendAt: '2030-05-02T09:30:00.000Z' },
    });
    expect(edited.body).toMatchObject({ body: 'Seu boleto vence hoje', sendAt: '2030-05-02T09:30:00.000Z', status: 'PENDENTE' });

    const upload = await invoke('POST /schedules/{id}/media-upload', {
      token: tenant.admin.token,
      params: { id: made.body.id },
      raw: multipart([{ name: 'file', value: Buffer.from('pdf bytes'), filename: 'meu boleto.pdf', contentType: 'application/pdf' }]),
    });
    expect(upload.status).toBe(200);
    expect(upload.body.mediaName).toBe('meu_boleto.pdf');
    const key = decodeURIComponent(upload.body.mediaPath.replace(/^\/public\//, ''));
    expect(key.startsWith(`${tenant.companyId}/schedules/${made.body.id}/`)).toBe(true);
    expect((await readObject(key))?.toString()).toBe('pdf bytes');
    // The web uploads to the bucket itself: a grant, a PUT, then the key replaces the file.
    const grant = await invoke('POST /schedules/{id}/uploads', {
      token: colleague.token,
      params: { id: made.body.id },
      json: { fileName: 'boleto novo.pdf', contentType: 'application/pdf', size: 9 },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect((await fetch(grant.body.uploadUrl, { method: 'PUT', headers: grant.body.headers, body: 'new bytes' })).ok).toBe(true);
    const direct = await invoke('POST /schedules/{id}/media-upload', {
      token: colleague.token,
      params: { id: made.body.id },
      json: { key: grant.body.key },
    });
    expect(direct.body).toMatchObject({
      mediaName: 'boleto_novo.pdf',
      mediaPath: `/public/${grant.body.key.split('/').map(encodeURIComponent).join('/')}`,
    });
    expect(await readObject(key)).toBeUndefined();
    const removed = await invoke('DELETE /schedules/{id}/media-upload', { token: tenant.admin.token, params: { id: made.body.id } });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: '' });
    expect(await readObject(grant.body.key)).toBeUndefined();

    expect((await invoke('DELETE /schedules/{id}', { token: colleague.token, params: { id: made.body.id } })).status).toBe(204);
    expect((await invoke('GET /schedules/{id}', { token: tenant.admin.token, params: { id: made.body.id } })).status).toBe(404);
  });

  it("counts the plan's schedules limit over those waiting to be sent", async () => {
    const tenant = await seedTenant(env.stack, { plan: { schedules: 2 } });
    const contactId = await newContact(tenant);
    for (let i = 0; i < 2; i++)
      expect((await createSchedule(tenant.admin.token, { body: `Message ${i}`, contactId, sendAt: inAnHour() })).status).toBe(201);
    const over = await createSchedule(tenant.admin.token, { body: 'One too many', contactId, sendAt: inAnHour() });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_SCHEDULES', limit: 2 });
  });

  it("holds the plan's schedules limit when creates race", async () => {
    const tenant = await seedTenant(env.stack, { plan: { schedules: 2 } });
    const contactId = await newContact(tenant);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createSchedule(tenant.admin.token, { body: `Race ${i}`, contactId, sendAt: inAnHour() })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(new Set(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.error}`))).toEqual(
      new Set(['403 ERR_PLAN_LIMIT_SCHEDULES']),
    );
  });
});
