/**
 * Issue 25 item 3: every message we send to a contact is in that contact's conversation, marked by
 * where it came from. A campaign's confirmation request and offer, a schedule and an external API
 * send each appear in the ticket's messages (GET /messages/{ticketId}) with their `origin`, and a
 * contact's answer to a campaign lands in the same ticket right after what it answers, so the thread
 * reads "question, SIM, offer". A campaign ticket nobody asked for is created closed (it fills no
 * one's Pending list) and the contact's answer brings it back as pending.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Campaign } from '@conversa/functions/contracts/campaigns';
import type { Message } from '@conversa/functions/contracts/messages';
import type { Schedule } from '@conversa/functions/contracts/schedule-requests';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, sleep, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
const apiToken = `origins-${randomUUID()}`;
const phone = () => `55219${randomInt(10_000_000, 99_999_999)}`;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'origins');
  setup = await connectedConnection(call, sim, {
    token: tenant.admin.token,
    companyId: tenant.companyId,
    queues: ['Origens'],
    connection: { token: apiToken },
  });
  await ok(call, 'POST', '/campaign-settings', {
    token: tenant.admin.token,
    body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 } },
  });
}, 60_000);

type Row = { id: number; status: string; contact: { number: string } };

/** The contact's ticket in `status` (the admin sees every queue). */
async function ticketOf(number: string, status: string): Promise<Row | undefined> {
  const { tickets } = await ok<{ tickets: Row[] }>(call, 'GET', '/tickets', {
    token: tenant.admin.token,
    query: { showAll: 'true', status },
  });
  return tickets.find((t) => t.contact.number === number);
}

async function thread(ticketId: number): Promise<Message[]> {
  return (await ok<{ messages: Message[] }>(call, 'GET', `/messages/${ticketId}`, { token: tenant.admin.token, query: { limit: '100' } }))
    .messages;
}

const ours = async (number: string) => (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us');

describe('what we send is in the conversation, marked by its origin', () => {
  it('a campaign answered "SIM": the ticket reads question, SIM, offer, the campaign ones marked campaign', async () => {
    const number = phone();
    const list = await ok<{ id: number }>(call, 'POST', '/contact-lists', {
      token: tenant.admin.token,
      body: { name: `Lista ${randomInt(1e6)}` },
    });
    await ok(call, 'POST', '/contact-list-items', {
      token: tenant.admin.token,
      body: { name: 'Joana', number, email: 'joana@origins.test', contactListId: list.id },
    });
    const started = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: tenant.admin.token,
      body: {
        name: 'Oferta',
        confirmation: true,
        contactListId: list.id,
        whatsappId: setup.connectionId,
        message1: 'Aqui está a oferta, {nome}',
        confirmationMessage1: 'Podemos enviar a oferta, {nome}? Responda SIM',
        status: 'EM_ANDAMENTO',
      },
    });
    const question = 'Podemos enviar a oferta, Joana? Responda SIM';
    const offer = 'Aqui está a oferta, Joana';
    await waitUntil('the question reaches the phone', async () => (await ours(number)).some((m) => m.body === question));

    // Asked and not answered: the conversation exists, closed (a campaign fills no Pending list), with the question.
    const closed = await waitUntil('a closed ticket holds the question', async () => {
      const ticket = await ticketOf(number, 'closed');
      return ticket && (await thread(ticket.id)).some((m) => m.body === question) ? ticket : undefined;
    });
    expect(await ticketOf(number, 'pending')).toBeUndefined();

    await sim.send(setup.simId, number, 'SIM', 'Joana');
    await waitUntil('the offer reaches the phone', async () => (await ours(number)).some((m) => m.body === offer));
    // The answer brings the same conversation back: pending, question then SIM then offer.
    const messages = await waitUntil('the ticket holds question, SIM and offer', async () => {
      const ticket = await ticketOf(number, 'pending');
      if (!ticket) return undefined;
      const got = await thread(ticket.id);
      return got.some((m) => m.body === offer) ? { ticket, got } : undefined;
    });
    expect(messages.ticket.id).toBe(closed.id);
    const ordered = messages.got.filter((m) => [question, 'SIM', offer].includes(m.body));
    expect(ordered.map((m) => [m.body, m.fromMe, m.origin ?? null])).toEqual([
      [question, true, 'campaign'],
      ['SIM', false, null],
      [offer, true, 'campaign'],
    ]);
    // The answer reopened the closed conversation: a line says so (nobody did it by hand).
    const page = await ok<{ events: { kind: string; actor: unknown }[] }>(call, 'GET', `/messages/${closed.id}`, {
      token: tenant.admin.token,
    });
    expect(page.events).toContainEqual(expect.objectContaining({ kind: 'reopened', actor: null, status: 'pending' }));
    // Sent, not pending: the phone has them.
    for (const m of ordered.filter((x) => x.fromMe)) expect(m).toMatchObject({ pending: false, error: null });

    // Once each, however often results were delivered.
    await sleep(2000);
    const again = (await thread(closed.id)).filter((m) => m.body === question || m.body === offer);
    expect(again).toHaveLength(2);
    await ok(call, 'POST', `/campaigns/${started.id}/cancel`, { token: tenant.admin.token }).catch(() => undefined);
  }, 90_000);

  it('a schedule and an external API send are in the ticket, marked schedule and api', async () => {
    const number = phone();
    const contact = await ok<{ id: number }>(call, 'POST', '/contacts', { token: tenant.admin.token, body: { name: 'Carlos', number } });
    Object.assign(process.env, inject('env'));
    const job = await import('@conversa/functions/handlers/jobs/schedule-sends');
    const scheduled = `Lembrete ${randomInt(1e6)}`;
    const schedule = await ok<Schedule>(call, 'POST', '/schedules', {
      token: tenant.admin.token,
      body: { body: scheduled, contactId: contact.id, sendAt: new Date(Date.now() - 1000).toISOString() },
    });
    await job.handler();
    await waitUntil(`schedule ${schedule.id} ENVIADA`, async () => {
      const now = await ok<Schedule>(call, 'GET', `/schedules/${schedule.id}`, { token: tenant.admin.token });
      return now.status === 'ENVIADA';
    });
    const viaApi = `Pela API ${randomInt(1e6)}`;
    const res = await call('POST', '/api/messages/send', { token: apiToken, body: { number, body: viaApi } });
    expect(res.status, res.text).toBe(200);
    const got = await waitUntil('both in the ticket', async () => {
      const ticket = await ticketOf(number, 'pending');
      const messages = ticket ? await thread(ticket.id) : [];
      return messages.some((m) => m.body === viaApi) ? messages : undefined;
    });
    expect(got.filter((m) => m.body === scheduled || m.body === viaApi).map((m) => [m.body, m.origin ?? null])).toEqual([
      [scheduled, 'schedule'],
      [viaApi, 'api'],
    ]);
  }, 60_000);
});
