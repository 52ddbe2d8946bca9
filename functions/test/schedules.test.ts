/**
 * Scheduled messages over DynamoDB Local + cognito-local + s3rver: the spec's validation messages,
 * the useSchedules gate and the plan's limit, tenant isolation, the company calendar (search, order,
 * edit, delete, media), and the sender: the connection rule, exactly one send when runs overlap, a
 * late send still sent, ERRO with the reason, the wait for a connection that is coming up.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduleSchema, type ListSchedulesQuery } from '#contracts/schedule-requests';
import type { SessionCommand } from '#contracts/session-events';
import { handleSendFailed } from '#domain/inbound/updates';
import type { Effects } from '#domain/messages/effects';
import { messageIdAt } from '#domain/messages/message-id';
import { queueOutgoingMessage } from '#domain/messages/send';
import { selectSchedules } from '#domain/schedules/schedules';
import { CONNECTION_WAIT_MS, decideConnection, LEASE_MS, LOOKAHEAD_MS, leaseEnd, runScheduleSends } from '#domain/schedules/send';
import { db, table } from '#storage/db';
import { listMessagesPage } from '#storage/messages';
import { claimSchedule, dueSchedulesPage, dueShard, getSchedule, type ScheduleRecord } from '#storage/schedules';
import { tenantPk } from '#storage/table';
import { getTicket, updateTicketState } from '#storage/tickets';
import { type ConnectionRecord, updateConnectionSession } from '#storage/whatsapps';
import {
  createConnection,
  deleteReaches,
  type Env,
  invoke,
  multipart,
  type Published,
  readObject,
  seedTicket,
  skipTicketIds,
  startEnv,
} from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let t: Tenant;

beforeAll(async () => {
  env = await startEnv();
  t = await seedTenant(env.stack);
}, 120_000);
afterAll(async () => env?.stop());

const create = (token: string, json: Record<string, unknown>) => invoke('POST /schedules', { token, json });
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** A contact of the tenant through the API. */
async function newContact(tenant: Tenant, name = 'Ana Agenda'): Promise<number> {
  const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const res = await invoke('POST /contacts', { token: tenant.admin.token, json: { name, number } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`contact: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

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

/** The sender's collaborators, recorded: commands and events in memory, a clock the test moves. */
function recorder(start = new Date()) {
  const commands: SessionCommand[] = [];
  const events: { event: string; data: unknown }[] = [];
  const sleeps: number[] = [];
  let now = start;
  const effects: Effects = {
    sendCommand: async (command) => {
      commands.push(command);
    },
    publish: async (_companyId, event, data) => {
      events.push({ event, data });
    },
    now: () => now,
  };
  return {
    commands,
    events,
    sleeps,
    deps: {
      effects,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now = new Date(now.getTime() + ms);
      },
    },
    setNow: (at: Date) => {
      now = at;
    },
  };
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
    const short = await create(t.admin.token, { body: 'oi', contactId: 1, sendAt: inAnHour() });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'body', message: 'mensaje muy corto' });
    const noTime = await create(t.admin.token, { body: 'Hello there', contactId: 1 });
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
    const refused = await create(t.admin.token, { body: 'Hello there', contactId: theirContact, sendAt: inAnHour() });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('ERR_NO_CONTACT_FOUND');
    const theirConnection = await createConnection(other);
    const theirTicket = await seedTicket(other, theirConnection.id);
    const withTheirTicket = await create(t.admin.token, {
      body: 'Hello there',
      contactId: mine,
      sendAt: inAnHour(),
      ticketId: theirTicket.id,
    });
    expect(withTheirTicket.status).toBe(404);
    const theirs = await create(other.admin.token, { body: 'Their schedule', contactId: theirContact, sendAt: inAnHour() });
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
    const made = await create(colleague.token, { body: 'Seu boleto vence amanhã', contactId, sendAt: '2030-05-01T12:00:00.000Z' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      status: 'PENDENTE',
      sentAt: null,
      contact: { id: contactId, name: 'Bruno Calendário' },
      userId: colleague.id,
      mediaPath: null,
    });
    await create(tenant.admin.token, { body: 'Earlier message', contactId, sendAt: '2030-04-01T12:00:00.000Z' });
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
      expect((await create(tenant.admin.token, { body: `Message ${i}`, contactId, sendAt: inAnHour() })).status).toBe(201);
    const over = await create(tenant.admin.token, { body: 'One too many', contactId, sendAt: inAnHour() });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_SCHEDULES', limit: 2 });
  });

  it("holds the plan's schedules limit when creates race", async () => {
    const tenant = await seedTenant(env.stack, { plan: { schedules: 2 } });
    const contactId = await newContact(tenant);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(tenant.admin.token, { body: `Race ${i}`, contactId, sendAt: inAnHour() })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(new Set(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.error}`))).toEqual(
      new Set(['403 ERR_PLAN_LIMIT_SCHEDULES']),
    );
  });
});

describe('the sender', () => {
  it('sends a due schedule once on the contact ticket connection, even when two runs overlap; then ENVIADA with sentAt', async () => {
    const tenant = await seedTenant(env.stack);
    await createConnection(tenant);
    const second = await createConnection(tenant);
    await updateConnectionSession(tenant.companyId, second.id, { status: 'CONNECTED' });
    // The conversation is on the second (not default) connection: that one sends.
    const ticket = await seedTicket(tenant, second.id);
    const made = await create(tenant.admin.token, {
      body: 'Lembrete: consulta amanhã',
      contactId: ticket.contactId,
      sendAt: new Date(Date.now() - 5_000).toISOString(),
      ticketId: ticket.id,
    });
    const sender = recorder();
    const reports = await Promise.all([runScheduleSends(sender.deps), runScheduleSends(sender.deps), runScheduleSends(sender.deps)]);

    const sends = sender.commands.filter((c) => c.kind === 'send' && c.companyId === tenant.companyId);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ connectionId: second.id, ticketId: ticket.id, body: 'Lembrete: consulta amanhã' });
    expect(reports.reduce((n, r) => n + r.sent, 0)).toBeGreaterThanOrEqual(1);
    const stored = await getSchedule(tenant.companyId, made.body.id);
    expect(stored).toMatchObject({ status: 'ENVIADA', ticketId: ticket.id, whatsappId: second.id, error: null });
    expect(stored?.sentAt).toEqual(expect.any(String));
    const page = await listMessagesPage(tenant.companyId, ticket.id, { limit: 20 });
    expect(page.messages.filter((m) => m.body === 'Lembrete: consulta amanhã')).toHaveLength(1);
    expect(sender.events).toContainEqual({ event: `company-${tenant.companyId}-schedule`, data: { action: 'update', id: made.body.id } });

    // A later run finds nothing due; a sent schedule is no longer edited.
    await runScheduleSends(sender.deps);
    expect(sender.commands.filter((c) => c.kind === 'send' && c.companyId === tenant.companyId)).toHaveLength(1);
    const edit = await invoke('PUT /schedules/{id}', {
      token: tenant.admin.token,
      params: { id: made.body.id },
      json: { body: 'Too late now' },
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe('ERR_SCHEDULE_NOT_EDITABLE');
    const grant = await invoke('POST /schedules/{id}/uploads', {
      token: tenant.admin.token,
      params: { id: made.body.id },
      json: { fileName: 'late.pdf', contentType: 'application/pdf', size: 4 },
    });
    expect(grant.body.error).toBe('ERR_SCHEDULE_NOT_EDITABLE');
  });

  it('sends one whose time passed long ago (the system was down) through the default connection, opening a ticket', async () => {
    const tenant = await seedTenant(env.stack);
    const connection = await createConnection(tenant);
    await updateConnectionSession(tenant.companyId, connection.id, { status: 'CONNECTED' });
    const contactId = await newContact(tenant, 'Carla Atrasada');
    const made = await create(tenant.admin.token, { body: 'Mensagem de ontem', contactId, sendAt: '2020-01-01T12:00:00.000Z' });
    const sender = recorder();
    await runScheduleSends(sender.deps);
    const stored = await getSchedule(tenant.companyId, made.body.id);
    expect(stored?.status).toBe('ENVIADA');
    const ticket = await getTicket(tenant.companyId, stored?.ticketId as number);
    expect(ticket).toMatchObject({ contactId, whatsappId: connection.id });
    expect(sender.commands.filter((c) => c.companyId === tenant.companyId)).toEqual([
      expect.objectContaining({ kind: 'send', body: 'Mensagem de ontem', connectionId: connection.id }),
    ]);
  });

  it('a send that reopens a closed ticket tells its former attendant, who no longer sees it, to drop it', async () => {
    // Prepare: the contact's ticket closed by a plain user (no queue of theirs) who had it.
    const tenant = await seedTenant(env.stack);
    const connection = await createConnection(tenant);
    await updateConnectionSession(tenant.companyId, connection.id, { status: 'CONNECTED' });
    const attendant = await tenant.addUser('user');
    const ticket = await seedTicket(tenant, connection.id, { status: 'open', userId: attendant.id });
    await updateTicketState(ticket, { status: 'closed' });
    await create(tenant.admin.token, {
      body: 'Voltamos a falar',
      contactId: ticket.contactId,
      sendAt: new Date(Date.now() - 5_000).toISOString(),
    });
    const sender = recorder();
    const targets: Published[] = [];
    const publish = sender.deps.effects.publish;
    const deps = {
      ...sender.deps,
      effects: {
        ...sender.deps.effects,
        publish: (async (companyId, event, data, target) => {
          targets.push({ data, target });
          return publish(companyId, event, data, target);
        }) satisfies Effects['publish'],
      },
    };
    // Act
    await runScheduleSends(deps);
    // Assess: sent on the same ticket, now pending without attendant; one delete, for the former attendant only.
    expect(await getTicket(tenant.companyId, ticket.id)).toMatchObject({ status: 'pending', userId: null });
    const reaches = deleteReaches(targets, ticket.id, tenant.companyId);
    expect(reaches({ userId: attendant.id })).toBe(true);
    expect(reaches({ userId: tenant.admin.id, profile: 'admin' })).toBe(false);
  });

  it('a send the phone reports failed turns the schedule ERRO with the reason, and an edit schedules it again', async () => {
    const tenant = await seedTenant(env.stack);
    const connection = await createConnection(tenant);
    await updateConnectionSession(tenant.companyId, connection.id, { status: 'CONNECTED' });
    const contactId = await newContact(tenant, 'Número Inválido');
    const made = await create(tenant.admin.token, { body: 'Nunca chega', contactId, sendAt: new Date(Date.now() - 1000).toISOString() });
    const sender = recorder();
    await runScheduleSends(sender.deps);
    const send = sender.commands.find((c) => c.kind === 'send' && c.companyId === tenant.companyId);
    if (send?.kind !== 'send') throw new Error('no send command');
    expect((await getSchedule(tenant.companyId, made.body.id))?.status).toBe('ENVIADA');

    // The session-host reports the send failed (the number is not on WhatsApp).
    await handleSendFailed(
      {
        kind: 'sendFailed',
        companyId: tenant.companyId,
        connectionId: connection.id,
        messageId: send.messageId,
        ticketId: send.ticketId,
        number: send.number,
        error: 'ERR_WAPP_INVALID_CONTACT',
      },
      sender.deps.effects,
    );
    const listed = await invoke('GET /schedules/{id}', { token: tenant.admin.token, params: { id: made.body.id } });
    expect(listed.body).toMatchObject({ status: 'ERRO', error: 'ERR_WAPP_INVALID_CONTACT', sentAt: null });
    expect(sender.events.filter((e) => e.event === `company-${tenant.companyId}-schedule`).at(-1)).toEqual({
      event: `company-${tenant.companyId}-schedule`,
      data: { action: 'update', id: made.body.id },
    });
    const again = await invoke('PUT /schedules/{id}', {
      token: tenant.admin.token,
      params: { id: made.body.id },
      json: { sendAt: inAnHour() },
    });
    expect(again.body).toMatchObject({ status: 'PENDENTE', error: null, sentAt: null });
  });

  it("an edit that schedules a failed one again counts against the plan's limit", async () => {
    const tenant = await seedTenant(env.stack, { plan: { schedules: 1 } });
    const contactId = await newContact(tenant);
    // No connection at all: the due one fails at once and makes room.
    const failed = await create(tenant.admin.token, { body: 'Falha', contactId, sendAt: new Date(Date.now() - 1000).toISOString() });
    await runScheduleSends(recorder().deps);
    expect((await getSchedule(tenant.companyId, failed.body.id))?.status).toBe('ERRO');
    const waiting = await create(tenant.admin.token, { body: 'Esperando', contactId, sendAt: inAnHour() });
    expect(waiting.status).toBe(201);

    const edit = () =>
      invoke('PUT /schedules/{id}', { token: tenant.admin.token, params: { id: failed.body.id }, json: { sendAt: inAnHour() } });
    const refused = await edit();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_SCHEDULES', limit: 1 });
    expect(await getSchedule(tenant.companyId, failed.body.id)).toMatchObject({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND' });

    expect((await invoke('DELETE /schedules/{id}', { token: tenant.admin.token, params: { id: waiting.body.id } })).status).toBeLessThan(
      300,
    );
    const accepted = await edit();
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'PENDENTE', error: null });
    // Editing one that already waits is not one more.
    const rename = await invoke('PUT /schedules/{id}', {
      token: tenant.admin.token,
      params: { id: failed.body.id },
      json: { body: 'Renomeada' },
    });
    expect(rename.status).toBe(200);
  });

  it('waits within the run for a send time a few seconds ahead, and leaves later ones for later runs', async () => {
    const tenant = await seedTenant(env.stack);
    const connection = await createConnection(tenant);
    await updateConnectionSession(tenant.companyId, connection.id, { status: 'CONNECTED' });
    const contactId = await newContact(tenant);
    const start = new Date();
    const soon = await create(tenant.admin.token, {
      body: 'In twenty seconds',
      contactId,
      sendAt: new Date(start.getTime() + 20_000).toISOString(),
    });
    const later = await create(tenant.admin.token, {
      body: 'In two minutes',
      contactId,
      sendAt: new Date(start.getTime() + LOOKAHEAD_MS + 60_000).toISOString(),
    });
    const sender = recorder(start);
    await runScheduleSends(sender.deps);
    expect(sender.sleeps.some((ms) => ms > 15_000 && ms <= 20_000)).toBe(true);
    expect((await getSchedule(tenant.companyId, soon.body.id))?.status).toBe('ENVIADA');
    expect((await getSchedule(tenant.companyId, later.body.id))?.status).toBe('PENDENTE');
  });

  it('a run that died holding the claim is followed once its lease ends, without a second message', async () => {
    const tenant = await seedTenant(env.stack);
    const connection = await createConnection(tenant);
    await updateConnectionSession(tenant.companyId, connection.id, { status: 'CONNECTED' });
    const ticket = await seedTicket(tenant, connection.id);
    const made = await create(tenant.admin.token, {
      body: 'Sent by the second run',
      contactId: ticket.contactId,
      sendAt: new Date(Date.now() - 1000).toISOString(),
      ticketId: ticket.id,
    });
    // The first run claimed it, stored the message and died before marking it ENVIADA.
    const [due] = (await dueSchedulesPage(dueShard(tenant.companyId, made.body.id), new Date().toISOString(), { limit: 100 })).due.filter(
      (d) => d.record.companyId === tenant.companyId,
    );
    const claimed = await claimSchedule(due!, leaseEnd(made.body.sendAt, new Date()), messageIdAt(Date.now()));
    const dead = recorder();
    await queueOutgoingMessage(
      { companyId: tenant.companyId, ticket, id: claimed!.messageId!, body: claimed!.body, userId: null },
      dead.deps.effects,
    );
    const next = recorder();
    await runScheduleSends(next.deps);
    expect((await getSchedule(tenant.companyId, made.body.id))?.status).toBe('AGENDADA');
    next.setNow(new Date(Date.now() + LEASE_MS + 1000));
    await runScheduleSends(next.deps);
    expect((await getSchedule(tenant.companyId, made.body.id))?.status).toBe('ENVIADA');
    const page = await listMessagesPage(tenant.companyId, ticket.id, { limit: 20 });
    expect(page.messages.filter((m) => m.body === 'Sent by the second run')).toHaveLength(1);
  });

  it('ERRO with the reason without any connection; a connection coming up is retried, then ERRO', async () => {
    const bare = await seedTenant(env.stack);
    const contactId = await newContact(bare);
    const made = await create(bare.admin.token, {
      body: 'Nobody sends this',
      contactId,
      sendAt: new Date(Date.now() - 1000).toISOString(),
    });
    const sender = recorder();
    await runScheduleSends(sender.deps);
    expect(await getSchedule(bare.companyId, made.body.id)).toMatchObject({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND', sentAt: null });

    const waiting = await seedTenant(env.stack);
    await createConnection(waiting);
    const contact2 = await newContact(waiting);
    const pending = await create(waiting.admin.token, {
      body: 'Waits for the phone',
      contactId: contact2,
      sendAt: new Date(Date.now() - 1000).toISOString(),
    });
    const clock = recorder();
    await runScheduleSends(clock.deps);
    expect(await getSchedule(waiting.companyId, pending.body.id)).toMatchObject({ status: 'PENDENTE', error: null });
    clock.setNow(new Date(Date.now() + CONNECTION_WAIT_MS + 120_000));
    await runScheduleSends(clock.deps);
    expect(await getSchedule(waiting.companyId, pending.body.id)).toMatchObject({ status: 'ERRO', error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(clock.commands.filter((c) => c.companyId === waiting.companyId)).toEqual([]);

    // Editing a failed schedule schedules it again.
    const again = await invoke('PUT /schedules/{id}', {
      token: bare.admin.token,
      params: { id: made.body.id },
      json: { sendAt: inAnHour() },
    });
    expect(again.body).toMatchObject({ status: 'PENDENTE', error: null });
  });
});
