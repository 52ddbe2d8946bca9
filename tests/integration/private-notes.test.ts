/**
 * Issue 22 §6: a private note (POST /messages/{ticketId} with `isPrivate: true`) stays in the
 * conversation for the attendants and never reaches the contact's phone. Sends of a connection go
 * out in order (one FIFO group), so once a normal reply sent right after the note is on the phone,
 * the note would have been there before it had it been sent.
 */
import { randomInt } from 'node:crypto';
import type { Message } from '@conversa/functions/contracts/messages';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, sleep, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'notes');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Suporte'] });
}, 60_000);

describe('private notes in the conversation', () => {
  it('the phone never receives the note, while the reply sent right after it arrives', async () => {
    // Prepare: the contact writes, the admin takes the ticket.
    const number = `55419${randomInt(10_000_000, 99_999_999)}`;
    await sim.send(setup.simId, number, 'Meu pedido não chegou', 'Rui');
    const ticketId = await waitUntil('the ticket', async () => {
      const { tickets } = await ok<{ tickets: { id: number; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
        token: tenant.admin.token,
        query: { showAll: 'true', status: 'pending' },
      });
      return tickets.find((t) => t.contact.number === number)?.id;
    });
    await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.admin.id } });
    const toPhone = async () => (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us').map((m) => m.body);

    // Act: a note, then a normal reply.
    const noteText = `Nota interna: cliente VIP ${randomInt(1e6)}`;
    const replyText = `Vamos verificar seu pedido ${randomInt(1e6)}`;
    const noted = await ok<{ messages: Message[] }>(call, 'POST', `/messages/${ticketId}`, {
      token: tenant.admin.token,
      body: { body: noteText, isPrivate: true },
    });
    await ok(call, 'POST', `/messages/${ticketId}`, { token: tenant.admin.token, body: { body: replyText } });

    // Assess: the reply reaches the phone, the note never does.
    await waitUntil('the reply reaches the phone', async () => (await toPhone()).includes(replyText));
    await sleep(1500);
    expect(await toPhone()).not.toContain(noteText);

    const page = await ok<{ messages: Message[] }>(call, 'GET', `/messages/${ticketId}`, { token: tenant.admin.token });
    const note = page.messages.find((m) => m.id === noted.messages[0]?.id);
    expect(note).toMatchObject({ body: noteText, fromMe: true, isPrivate: true, pending: false, ack: 0, waId: null, error: null });
    const reply = await waitUntil('the reply is acked', async () => {
      const got = await ok<{ messages: Message[] }>(call, 'GET', `/messages/${ticketId}`, { token: tenant.admin.token });
      const found = got.messages.find((m) => m.body === replyText);
      return found && found.ack >= 1 ? found : undefined;
    });
    expect(reply.isPrivate).toBeUndefined();
    // The list's preview is the reply (a note never is the conversation's last message).
    const { tickets } = await ok<{ tickets: { id: number; lastMessage: string }[] }>(call, 'GET', '/tickets', {
      token: tenant.admin.token,
      query: { showAll: 'true', status: 'open' },
    });
    expect(tickets.find((t) => t.id === ticketId)?.lastMessage).toBe(replyText);
  });
});
