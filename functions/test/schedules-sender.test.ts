/**
 * The scheduled-messages sender over DynamoDB Local + cognito-local + s3rver: the connection rule,
 * exactly one send when runs overlap, a late send still sent, a reopened ticket's former attendant
 * told, ERRO with the reason (also when the phone reports the send failed), the plan's limit on a
 * failed one scheduled again, the wait for a connection that is coming up, a dead run followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleSendFailed } from '#domain/inbound/updates';
import type { Effects } from '#domain/messages/effects';
import { messageIdAt } from '#domain/messages/message-id';
import { queueOutgoingMessage } from '#domain/messages/send';
import { CONNECTION_WAIT_MS, LEASE_MS, LOOKAHEAD_MS, leaseEnd, runScheduleSends } from '#domain/schedules/send';
import { updateConnectionSession } from '#storage/connections';
import { listMessagesPage } from '#storage/messages/messages';
import { claimSchedule, dueSchedulesPage, dueShard, getSchedule } from '#storage/schedules';
import { getTicket, updateTicketState } from '#storage/tickets/tickets';
import { createConnection, deleteReaches, type Env, invoke, type Published, seedTicket, startEnv } from './messages-harness.ts';
import { createSchedule, inAnHour, newContact, recorder } from './schedules-harness.ts';
import { seedTenant } from './users-harness.ts';

let env: Env;

beforeAll(async () => {
  env = await startEnv();
}, 120_000);
afterAll(async () => env?.stop());

describe('the sender', () => {
  it('sends a due schedule once on the contact ticket connection, even when two runs overlap; then ENVIADA with sentAt', async () => {
    const tenant = await seedTenant(env.stack);
    await createConnection(tenant);
    const second = await createConnection(tenant);
    await updateConnectionSession(tenant.companyId, second.id, { status: 'CONNECTED' });
    // The conversation is on the second (not default) connection: that one sends.
    const ticket = await seedTicket(tenant, second.id);
    const made = await createSchedule(tenant.admin.token, {
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
    const made = await createSchedule(tenant.admin.token, { body: 'Mensagem de ontem', contactId, sendAt: '2020-01-01T12:00:00.000Z' });
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
    await createSchedule(tenant.admin.token, {
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
    const made = await createSchedule(tenant.admin.token, {
      body: 'Nunca chega',
      contactId,
      sendAt: new Date(Date.now() - 1000).toISOString(),
    });
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
        ticketId: Number(send.ticketId),
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
    const failed = await createSchedule(tenant.admin.token, {
      body: 'Falha',
      contactId,
      sendAt: new Date(Date.now() - 1000).toISOString(),
    });
    await runScheduleSends(recorder().deps);
    expect((await getSchedule(tenant.companyId, failed.body.id))?.status).toBe('ERRO');
    const waiting = await createSchedule(tenant.admin.token, { body: 'Esperando', contactId, sendAt: inAnHour() });
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
    const soon = await createSchedule(tenant.admin.token, {
      body: 'In twenty seconds',
      contactId,
      sendAt: new Date(start.getTime() + 20_000).toISOString(),
    });
    const later = await createSchedule(tenant.admin.token, {
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
    const made = await createSchedule(tenant.admin.token, {
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
    const made = await createSchedule(bare.admin.token, {
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
    const pending = await createSchedule(waiting.admin.token, {
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
