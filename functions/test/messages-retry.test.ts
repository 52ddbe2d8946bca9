/**
 * Failed sends stay visible and go again (issue 9 item 11), over DynamoDB Local and a real FIFO
 * queue (fauxqs): a send whose command cannot be queued is kept marked failed with its reason (503,
 * not a pending message forever); POST /messages/{id}/retry sends a failed message again as its next
 * attempt, once however often it is asked; a late failure of an earlier attempt changes nothing;
 * only our own failed messages on open tickets the caller sees are retried.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handleSendFailed } from '#domain/inbound/updates';
import { defaultEffects } from '#domain/messages/effects';
import { type SessionCommandSender, setSessionCommandSender } from '#domain/messages/session-commands';
import { getMessage } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { updateTicketState } from '#storage/tickets/tickets';
import { createConnection, type Env, invoke, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let connectionA: number;
let connectionB: number;

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  [connectionA, connectionB] = await Promise.all([createConnection(a).then((c) => c.id), createConnection(b).then((c) => c.id)]);
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  await env.commands.drain();
});

const openTicket = (t: Tenant, connectionId: number) => seedTicket(t, connectionId, { status: 'open', userId: t.admin.id });
const send = (t: Tenant, ticket: TicketRecord, body: string) =>
  invoke('POST /messages/{id}', { token: t.admin.token, params: { id: ticket.id }, json: { body } });
const retry = (t: Tenant, id: string) => invoke('POST /messages/{id}/retry', { token: t.admin.token, params: { id } });

/** The session-host's report that attempt `attempt` of a send failed, as the inbound pipeline applies it. */
const reportFailed = (ticket: TicketRecord, messageId: string, error: string, attempt?: number) =>
  handleSendFailed(
    {
      kind: 'sendFailed',
      companyId: ticket.companyId,
      connectionId: ticket.whatsappId,
      messageId,
      ticketId: ticket.id,
      number: ticket.contact.number,
      error,
      ...(attempt ? { attempt } : {}),
    },
    defaultEffects,
  );

async function withQueueDown<T>(act: () => Promise<T>): Promise<T> {
  const down: SessionCommandSender = async () => {
    throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'ECONNREFUSED' });
  };
  const previous = setSessionCommandSender(down);
  try {
    return await act();
  } finally {
    setSessionCommandSender(previous);
  }
}

describe('a send whose command cannot be queued', () => {
  it('answers 503 and keeps the message failed with the reason, not pending forever; a retry then sends it', async () => {
    const ticket = await openTicket(a, connectionA);
    const res = await withQueueDown(() => send(a, ticket, 'Olá 😀'));
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.error).toBe('ERR_SENDING_WAPP_MSG');
    const page = await invoke('GET /messages/{id}', { token: a.admin.token, params: { id: ticket.id } });
    const [kept] = page.body.messages.filter((m: { fromMe: boolean }) => m.fromMe);
    expect(kept).toMatchObject({ body: 'Olá 😀', pending: false, ack: 0, error: 'ERR_SENDING_WAPP_MSG' });
    expect(await env.commands.drain()).toEqual([]);

    const again = await retry(a, kept.id);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ id: kept.id, pending: true, error: null, ack: 0 });
    expect(again.body).not.toHaveProperty('sendAttempt');
    const [command] = await env.commands.drain();
    expect(command).toMatchObject({ kind: 'send', messageId: kept.id, commandId: `${kept.id}#1`, attempt: 1, body: 'Olá 😀' });
  });
});

describe('POST /messages/{id}/retry', () => {
  it('sends a failed message again once, however often it is asked; a late failure of an earlier attempt is ignored', async () => {
    const ticket = await openTicket(a, connectionA);
    const sent = (await send(a, ticket, 'Segunda tentativa')).body.messages[0];
    expect((await env.commands.drain()).map((c) => c.commandId)).toEqual([sent.id]);
    await reportFailed(ticket, sent.id, 'ERR_WAPP_NOT_INITIALIZED');
    expect(await getMessage(a.companyId, ticket.id, sent.id)).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED', pending: false });

    const answers = await Promise.all([retry(a, sent.id), retry(a, sent.id), retry(a, sent.id)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const commands = await env.commands.drain();
    expect(commands.map((c) => [c.commandId, 'attempt' in c ? c.attempt : undefined])).toEqual([[`${sent.id}#1`, 1]]);
    expect(await getMessage(a.companyId, ticket.id, sent.id)).toMatchObject({ error: null, pending: true, sendAttempt: 1 });

    // The first attempt's failure reported again (a redelivered command re-reports it): still pending.
    await reportFailed(ticket, sent.id, 'ERR_WAPP_NOT_INITIALIZED');
    expect(await getMessage(a.companyId, ticket.id, sent.id)).toMatchObject({ error: null, pending: true });
    // The retry's own failure counts, and the next retry is attempt 2.
    await reportFailed(ticket, sent.id, 'ERR_WAPP_INVALID_CONTACT', 1);
    expect(await getMessage(a.companyId, ticket.id, sent.id)).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT', pending: false });
    expect((await retry(a, sent.id)).status).toBe(200);
    expect((await env.commands.drain()).map((c) => c.commandId)).toEqual([`${sent.id}#2`]);
  });

  it("refuses the contact's messages (409), another tenant's (404), malformed ids (400) and closed tickets (409)", async () => {
    const ticket = await openTicket(a, connectionA);
    const inbound = await storeInbound(ticket, 'from the contact');
    const theirs = await retry(a, inbound.id);
    expect(theirs.status).toBe(409);
    expect(theirs.body.error).toBe('ERR_SENDING_WAPP_MSG');

    const ticketOfB = await openTicket(b, connectionB);
    const ofB = (await send(b, ticketOfB, 'B private')).body.messages[0];
    await reportFailed(ticketOfB, ofB.id, 'ERR_SENDING_WAPP_MSG');
    const foreign = await retry(a, ofB.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ERR_NO_MESSAGE_FOUND' });
    expect((await invoke('POST /messages/{id}/retry', { token: a.admin.token, params: { id: 'nope' } })).status).toBe(400);

    const failed = (await send(a, ticket, 'closing')).body.messages[0];
    await reportFailed(ticket, failed.id, 'ERR_SENDING_WAPP_MSG');
    await updateTicketState(ticket, { status: 'closed' });
    const closed = await retry(a, failed.id);
    expect(closed.status).toBe(409);
    expect(closed.body.error).toBe('ERR_TICKET_NOT_OPEN');
    await env.commands.drain();
    expect(await getMessage(b.companyId, ticketOfB.id, ofB.id)).toMatchObject({ error: 'ERR_SENDING_WAPP_MSG' });
    expect(await env.commands.drain()).toEqual([]);
  });
});
