/**
 * A deleted message leaves nothing of its text in the ticket lists (issue 25 minor): when it was the
 * ticket's last message, the ticket's preview (lastMessage) is emptied and flagged lastMessageDeleted,
 * which the web translates ("This message was deleted"). Both ways a message is deleted: the contact's
 * revoke from WhatsApp and our DELETE /messages/{id}. Over DynamoDB Local, through the handlers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '#contracts/tickets';
import { handleRevoke } from '#domain/inbound/updates';
import type { Effects } from '#domain/messages/effects';
import type { TicketRecord } from '#storage/tickets/record';
import { createConnection, type Env, invoke, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let a: Tenant;
let connectionId: number;

beforeAll(async () => {
  env = await startEnv();
  a = await seedTenant(env.stack);
  connectionId = (await createConnection(a)).id;
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

/** Effects that keep what was published. */
function recording() {
  const published: { event: string; data: { message?: unknown; ticket?: Ticket } }[] = [];
  const effects: Effects = {
    sendCommand: async () => undefined,
    publish: async (_companyId, event, data) => {
      published.push({ event, data: data as { ticket?: Ticket } });
    },
    now: () => new Date(),
  };
  return { effects, published };
}

async function shown(ticketId: number): Promise<Ticket> {
  const res = await invoke('GET /tickets/{id}', { token: a.admin.token, params: { id: ticketId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Ticket;
}

const revoke = (ticket: TicketRecord, waMessageId: string) => ({
  kind: 'revoke' as const,
  companyId: a.companyId,
  connectionId: ticket.whatsappId,
  waMessageId,
  number: ticket.contact.number,
});

describe('a deleted message in the ticket preview', () => {
  it("the contact's revoke of the last message empties the preview and flags it, in the API and the realtime update", async () => {
    // Prepare
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    await storeInbound(ticket, 'Primeira mensagem', Date.now() - 1000);
    const last = await storeInbound(ticket, 'Meu segredo sapucaia');
    expect((await shown(ticket.id)).lastMessage).toBe('Meu segredo sapucaia');
    const { effects, published } = recording();

    // Act
    await handleRevoke(revoke(ticket, last.waId as string), effects);

    // Assess
    const after = await shown(ticket.id);
    expect(after.lastMessage).toBe('');
    expect(after.lastMessageDeleted).toBe(true);
    const update = published.find((p) => p.data.ticket);
    expect(update?.data.ticket?.lastMessage).toBe('');
    expect(update?.data.ticket?.lastMessageDeleted).toBe(true);
  });

  it('DELETE /messages/{id} of our last message does the same; an older deleted message leaves the newer preview', async () => {
    // Prepare
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    const sent = await invoke('POST /messages/{id}', {
      token: a.admin.token,
      params: { id: ticket.id },
      json: { body: 'Texto jabuticaba' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    // Act
    const deleted = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: sent.body.messages[0].id } });

    // Assess
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const after = await shown(ticket.id);
    expect(after.lastMessage).toBe('');
    expect(after.lastMessageDeleted).toBe(true);

    // Act: a new message comes, then an older one is deleted.
    const older = await storeInbound(ticket, 'Mensagem antiga', Date.now() - 60_000);
    await storeInbound(ticket, 'Mensagem nova');
    expect(await shown(ticket.id)).toMatchObject({ lastMessage: 'Mensagem nova', lastMessageDeleted: false });
    await handleRevoke(revoke(ticket, older.waId as string), recording().effects);

    // Assess: the newest message's preview stays.
    expect(await shown(ticket.id)).toMatchObject({ lastMessage: 'Mensagem nova', lastMessageDeleted: false });
    await env.commands.drain();
  });
});
