/**
 * The ticket actions through POST/PUT/DELETE /tickets over DynamoDB Local + cognito-local: create and
 * ERR_OTHER_OPEN_TICKET, accept (greeting per sendGreetingAccepted), return, transfer (notice per
 * sendMsgTransfTicket), resolve (completion, or the rating flow that the inbound pipeline finishes),
 * reopen, the revision check (409, never a lost update), delete, history, realtime deletes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setSessionCommandSender } from '#domain/messages/session-commands';
import type { SessionCommand } from '../src/contracts/session-events.ts';
import { applyTicketUpdate } from '../src/domain/tickets/actions.ts';
import { matches } from '../src/realtime/audience.ts';
import { listMessagesPage } from '../src/storage/messages/messages.ts';
import { listTicketHistory } from '../src/storage/tickets/history.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { getSlot, getTicket, getTicketByUuid } from '../src/storage/tickets/tickets.ts';
import { getUser } from '../src/storage/users/users.ts';
import type { ConnectionRecord as Socket } from '../src/storage/ws-connections.ts';
import { deliver, recorder, waMessage } from './inbound-harness.ts';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;
const commands: SessionCommand[] = [];
const sentBodies = () => commands.flatMap((c) => (c.kind === 'send' ? [c.body] : []));

beforeAll(async () => {
  stack = await startStack();
  setSessionCommandSender(async (command) => void commands.push(command));
  inbox = await seedInbox(stack);
}, 120_000);
afterEach(() => {
  commands.length = 0;
});
afterAll(async () => {
  setSessionCommandSender(undefined);
  await stack?.stop();
});

const put = (token: string, ticket: { id: number }, body: unknown) => call('PUT /tickets/{id}', { token, params: { id: ticket.id }, body });
const kinds = async (ticket: { id: number }) => (await listTicketHistory(inbox.companyId, ticket.id)).map((e) => e.kind);

describe('POST /tickets', () => {
  it('opens a ticket for the caller on the default connection; a second one for the contact is ERR_OTHER_OPEN_TICKET naming user and queue', async () => {
    // Prepare: a contact whose ticket is closed (the slot is free)
    const closed = await inbox.seedTicket({ status: 'closed', queueId: inbox.q1.id });

    // Act
    const first = await call('POST /tickets', {
      token: inbox.inQueue.token,
      body: { contactId: closed.contactId, queueId: inbox.q1.id, userId: inbox.inQueue.id, status: 'open' },
    });
    const second = await call('POST /tickets', { token: inbox.admin.token, body: { contactId: closed.contactId, queueId: inbox.q2.id } });

    // Assess
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: 'open',
      userId: inbox.inQueue.id,
      queue: { name: 'Vendas' },
      whatsapp: { id: inbox.connection.id },
      contactId: closed.contactId,
    });
    const inQueueName = (await getUser(inbox.companyId, inbox.inQueue.id))!.name;
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticketId: first.body.id,
      uuid: first.body.uuid,
      status: 'open',
      userId: inbox.inQueue.id,
      user: { name: inQueueName },
      queue: { name: 'Vendas' },
    });
    expect(await kinds(first.body)).toEqual(['created', 'started']);
  });

  it('needs a queue unless admin, a queue of the user, an existing contact and connection', async () => {
    const { contactId } = await inbox.seedTicket({ status: 'closed' });
    const noQueue = await call('POST /tickets', { token: inbox.inQueue.token, body: { contactId } });
    expect(noQueue).toMatchObject({ status: 400, body: { field: 'queueId', message: 'Selecione uma fila' } });
    const notTheirs = await call('POST /tickets', { token: inbox.inQueue.token, body: { contactId, queueId: inbox.q2.id } });
    expect(notTheirs).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const noContact = await call('POST /tickets', { token: inbox.admin.token, body: { contactId: 999_999 } });
    expect(noContact).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_FOUND' } });
    const noConnection = await call('POST /tickets', { token: inbox.admin.token, body: { contactId, whatsappId: 999 } });
    expect(noConnection).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    const admin = await call('POST /tickets', { token: inbox.admin.token, body: { contactId } });
    expect(admin).toMatchObject({ status: 201, body: { queueId: null, userId: inbox.admin.id } });
  });
});

describe('PUT /tickets/{id}', () => {
  it('accept: pending -> open for the caller, with the Portuguese greeting in their name when sendGreetingAccepted is enabled', async () => {
    await inbox.setting('sendGreetingAccepted', 'enabled');
    const ticket = await inbox.seedTicket({ queueId: inbox.q1.id, contactName: 'Maria' });

    const res = await put(inbox.inQueue.token, ticket, { status: 'open', userId: inbox.inQueue.id });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', userId: inbox.inQueue.id });
    const name = (await getUser(inbox.companyId, inbox.inQueue.id))!.name;
    expect(sentBodies()).toEqual([`Olá *Maria*, meu nome é *${name}* e agora vou prosseguir com seu atendimento!`]);
    const stored = (await listMessagesPage(inbox.companyId, ticket.id, { limit: 5 })).messages[0];
    expect(stored).toMatchObject({ fromMe: true, userId: inbox.inQueue.id, bot: false, pending: true });
    expect(await getTicket(inbox.companyId, ticket.id)).toMatchObject({ lastMessage: stored!.body, revision: 1 });
    expect(await kinds(ticket)).toEqual(['started']);

    await inbox.setting('sendGreetingAccepted', 'disabled');
    commands.length = 0;
    const quiet = await inbox.seedTicket({ queueId: inbox.q1.id });
    expect((await put(inbox.inQueue.token, quiet, { status: 'open' })).status).toBe(200);
    expect(sentBodies()).toEqual([]);
  });

  it('accept with the greeting: unread back to 0; the greeting appMessage create, then ONE ticket update', async () => {
    // Prepare: a pending ticket with unread messages, the greeting on
    await inbox.setting('sendGreetingAccepted', 'enabled');
    const ticket = await inbox.seedTicket({ queueId: inbox.q1.id, unreadMessages: 3 });
    const effects = recorder();
    const viewer = {
      userId: inbox.inQueue.id,
      companyId: inbox.companyId,
      profile: 'user',
      super: false,
      user: { queueIds: [inbox.q1.id], allTicket: 'desabled', name: 'In Queue' },
    };

    // Act
    const presented = await applyTicketUpdate(viewer, ticket, { status: 'open', userId: inbox.inQueue.id }, effects);

    // Assess
    expect(presented).toMatchObject({ status: 'open', userId: inbox.inQueue.id, unreadMessages: 0 });
    expect(await getTicket(inbox.companyId, ticket.id)).toMatchObject({ unreadMessages: 0 });
    expect(effects.events.map((e) => `${e.event.replace(/^company-\d+-/, '')}:${e.data.action}`)).toEqual([
      'appMessage:create',
      'ticket:update',
    ]);
    expect(effects.events[1]!.data.ticket).toMatchObject({ unreadMessages: 0, lastMessage: effects.sent()[0] });
    await inbox.setting('sendGreetingAccepted', 'disabled');
  });

  it('two attendants accepting at once: one wins, the other gets 409 ERR_TICKET_CHANGED; a stale read never overwrites', async () => {
    const ticket = await inbox.seedTicket({ queueId: inbox.q1.id });
    const results = await Promise.all([
      put(inbox.inQueue.token, ticket, { status: 'open', userId: inbox.inQueue.id }),
      put(inbox.admin.token, ticket, { status: 'open', userId: inbox.admin.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual({ error: 'ERR_TICKET_CHANGED' });
    const winner = results.find((r) => r.status === 200)!.body.userId;
    expect((await getTicket(inbox.companyId, ticket.id))!.userId).toBe(winner);

    // The revision check itself: a write decided on an old read is refused.
    const stale: TicketRecord = { ...ticket };
    const viewer = {
      userId: inbox.admin.id,
      companyId: inbox.companyId,
      profile: 'admin',
      super: false,
      user: { queueIds: [], allTicket: 'desabled', name: 'Admin' },
    };
    await expect(applyTicketUpdate(viewer, stale, { status: 'closed' })).rejects.toMatchObject({ code: 'ERR_TICKET_CHANGED', status: 409 });
    expect((await getTicket(inbox.companyId, ticket.id))!.status).toBe('open');
  });

  it('return: open -> pending with the attendant cleared', async () => {
    const ticket = await inbox.seedTicket({ status: 'open', queueId: inbox.q1.id, userId: inbox.inQueue.id });
    const res = await put(inbox.inQueue.token, ticket, { status: 'pending', userId: null });
    expect(res.body).toMatchObject({ status: 'pending', userId: null, queueId: inbox.q1.id });
    expect(await kinds(ticket)).toEqual(['queued', 'returned']);
  });

  it('transfer to a queue: pending, user cleared, notice per sendMsgTransfTicket; leavers get delete, the new queue the update', async () => {
    await inbox.setting('sendMsgTransfTicket', 'enabled');
    const ticket = await inbox.seedTicket({ status: 'open', queueId: inbox.q1.id, userId: inbox.inQueue.id });
    const effects = recorder();
    const viewer = {
      userId: inbox.inQueue.id,
      companyId: inbox.companyId,
      profile: 'user',
      super: false,
      user: { queueIds: [inbox.q1.id], allTicket: 'desabled', name: 'In Queue' },
    };

    const presented = await applyTicketUpdate(viewer, ticket, { queueId: inbox.q2.id, userId: null }, effects);

    expect(presented).toMatchObject({ status: 'pending', queueId: inbox.q2.id, userId: null });
    expect(effects.sent()).toEqual([
      '*Mensagem Automática*:\nVocê foi transferido para o departamento *Suporte*\naguarde, já vamos te atender!',
    ]);
    const socket = (userId: number, queueIds: number[]): Socket =>
      ({
        connectionId: `c${userId}`,
        companyId: inbox.companyId,
        userId,
        profile: 'user',
        super: false,
        queueIds,
        allTicket: 'desabled',
      }) as unknown as Socket;
    await inbox.setting('sendMsgTransfTicket', 'disabled');

    // And back to q1, recording each event's audience: q2's member loses the ticket (delete), q1's gains it (update).
    const targets: { data: { action: string }; target: unknown }[] = [];
    const spy = {
      ...recorder(),
      publish: async (_companyId: number, _event: string, data: unknown, target: unknown) =>
        void targets.push({ data: data as { action: string }, target }),
    };
    const back = (await getTicket(inbox.companyId, ticket.id))!;
    await applyTicketUpdate({ ...viewer, profile: 'admin' }, back, { queueId: inbox.q1.id, userId: null }, spy);
    const del = targets.find((t) => t.data.action === 'delete')!;
    const upd = targets.find((t) => t.data.action === 'update')!;
    expect(matches(del.target as never, socket(inbox.otherQueue.id, [inbox.q2.id]))).toBe(true);
    expect(matches(upd.target as never, socket(inbox.otherQueue.id, [inbox.q2.id]))).toBe(false);
    expect(matches(upd.target as never, socket(inbox.inQueue.id, [inbox.q1.id]))).toBe(true);
    expect(matches(del.target as never, socket(inbox.inQueue.id, [inbox.q1.id]))).toBe(false);
  });

  it('transfer to a user: assigned and open; an unknown user is 404', async () => {
    const ticket = await inbox.seedTicket({ queueId: inbox.q1.id });
    const res = await put(inbox.admin.token, ticket, { queueId: inbox.q2.id, userId: inbox.otherQueue.id });
    expect(res.body).toMatchObject({ status: 'open', userId: inbox.otherQueue.id, queueId: inbox.q2.id });
    expect(await kinds(ticket)).toEqual(['started', 'transferred']);
    const unknown = await put(inbox.admin.token, ticket, { queueId: inbox.q1.id, userId: 99_999 });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
  });

  it('resolve without rating: closed, completion message, integration off, slot free; reopen: open for the caller', async () => {
    const ticket = await inbox.seedTicket({
      status: 'open',
      queueId: inbox.q1.id,
      userId: inbox.inQueue.id,
      useIntegration: true,
      promptId: 3,
    });

    const res = await put(inbox.inQueue.token, ticket, {
      status: 'closed',
      userId: inbox.inQueue.id,
      useIntegration: false,
      promptId: null,
    });

    expect(res.body).toMatchObject({ status: 'closed', useIntegration: false, promptId: null, userId: inbox.inQueue.id });
    expect(sentBodies()).toEqual(['Obrigado pelo contato!']);
    expect(await getSlot(inbox.companyId, ticket.contactId, ticket.whatsappId)).toMatchObject({ active: false });

    const reopened = await put(inbox.otherQueue.token, ticket, { status: 'open', userId: inbox.otherQueue.id, queueId: inbox.q2.id });
    expect(reopened.status).toBe(403); // closed q1 ticket of someone else: not theirs to see
    const again = await put(inbox.admin.token, ticket, { status: 'open', userId: inbox.admin.id, queueId: inbox.q1.id });
    expect(again.body).toMatchObject({ status: 'open', userId: inbox.admin.id, queueId: inbox.q1.id });
    expect(await getSlot(inbox.companyId, ticket.contactId, ticket.whatsappId)).toMatchObject({ active: true, ticketId: ticket.id });
    expect(await kinds(ticket)).toEqual(['finished', 'reopened', 'started']);
  });

  it('resolve with userRating: asks for the 1-3 rating and waits; the reply "3" through the inbound pipeline rates and closes', async () => {
    await inbox.setting('userRating', 'enabled');
    const ticket = await inbox.seedTicket({ status: 'open', queueId: inbox.q1.id, userId: inbox.inQueue.id, number: '5511966660001' });

    const res = await put(inbox.inQueue.token, ticket, { status: 'closed' });

    expect(res.body).toMatchObject({ status: 'open', awaitingRating: true });
    expect(sentBodies()).toHaveLength(1);
    expect(sentBodies()[0]).toMatch(
      /^Avalie nosso atendimento\n\n.*1 a 3.*\n\*1\* - _Insatisfeito_\n\*2\* - _Satisfeito_\n\*3\* - _Muito Satisfeito_$/s,
    );
    expect(await kinds(ticket)).toEqual(['ratingRequested']);

    const effects = recorder();
    await deliver(effects, {
      kind: 'message',
      companyId: inbox.companyId,
      connectionId: inbox.connection.id,
      message: waMessage({ number: '5511966660001', body: '3' }),
    });
    expect(await getTicket(inbox.companyId, ticket.id)).toMatchObject({ status: 'closed', rating: 3, awaitingRating: false });
    expect(effects.sent()).toEqual(['Obrigado pelo contato!']);
    await inbox.setting('userRating', 'disabled');
  });

  it('rejects bad bodies with a 400 and never writes', async () => {
    const ticket = await inbox.seedTicket({ queueId: inbox.q1.id });
    expect((await put(inbox.admin.token, ticket, { status: 'done' })).status).toBe(400);
    expect((await put(inbox.admin.token, ticket, { queueId: 'x' })).status).toBe(400);
    expect((await put(inbox.admin.token, ticket, { queueId: 98_765 })).status).toBe(400);
    expect((await put(inbox.admin.token, ticket, { whatsappId: 98_765 })).status).toBe(400);
    expect((await getTicket(inbox.companyId, ticket.id))!.revision).toBe(0);
  });
});

describe('DELETE /tickets/{id}', () => {
  it('admin only; removes the ticket, its messages, lookups and slot', async () => {
    const ticket = await inbox.seedTicket({ status: 'open', queueId: inbox.q1.id, userId: inbox.inQueue.id });
    await put(inbox.inQueue.token, ticket, { status: 'closed' }); // completion message stored
    const denied = await call('DELETE /tickets/{id}', { token: inbox.inQueue.token, params: { id: ticket.id } });
    expect(denied.status).toBe(403);

    const res = await call('DELETE /tickets/{id}', { token: inbox.admin.token, params: { id: ticket.id } });

    expect(res.status).toBe(204);
    expect(await getTicket(inbox.companyId, ticket.id)).toBeUndefined();
    expect(await getTicketByUuid(inbox.companyId, ticket.uuid)).toBeUndefined();
    expect((await listMessagesPage(inbox.companyId, ticket.id, { limit: 10 })).messages).toEqual([]);
    expect(await listTicketHistory(inbox.companyId, ticket.id)).toEqual([]);
    expect(await getSlot(inbox.companyId, ticket.contactId, ticket.whatsappId)).toBeUndefined();
    expect((await call('DELETE /tickets/{id}', { token: inbox.admin.token, params: { id: ticket.id } })).status).toBe(404);
  });
});
