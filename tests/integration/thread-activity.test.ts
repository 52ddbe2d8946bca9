/**
 * Issue 25 item 6: the conversation keeps an activity trail. Accepting, transferring and resolving a
 * ticket each leave a line in GET /messages/{ticketId} (`events`: what, who, when, where to), and
 * none of it reaches the contact's phone.
 */
import { randomInt } from 'node:crypto';
import type { ThreadEvent } from '@conversa/functions/contracts/ticket-history';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, sleep, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let otherQueueId: number;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'activity');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Suporte'] });
  otherQueueId = (
    await ok<{ id: number }>(call, 'POST', '/queue', { token: tenant.admin.token, body: { name: 'Financeiro', color: '#aa5500' } })
  ).id;
  await ok(call, 'PUT', `/users/${tenant.user.id}`, { token: tenant.admin.token, body: { queueIds: [setup.queueIds[0], otherQueueId] } });
}, 60_000);

type Page = { messages: { body: string }[]; events?: ThreadEvent[] };

describe('the activity trail of a conversation', () => {
  it('shows accept, transfer and resolve with who and when; the phone gets none of it', async () => {
    const number = `55319${randomInt(10_000_000, 99_999_999)}`;
    await sim.send(setup.simId, number, 'Preciso de ajuda com a fatura', 'Lia');
    const ticketId = await waitUntil('the ticket', async () => {
      const { tickets } = await ok<{ tickets: { id: number; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
        token: tenant.admin.token,
        query: { showAll: 'true', status: 'pending' },
      });
      return tickets.find((t) => t.contact.number === number)?.id;
    });
    const phone = async () => (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us').length;
    await sleep(1000);
    const before = await phone();

    const startedAt = new Date().toISOString();
    await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.admin.id } });
    await ok(call, 'PUT', `/tickets/${ticketId}`, {
      token: tenant.admin.token,
      body: { status: 'open', userId: tenant.user.id, queueId: otherQueueId },
    });
    await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'closed' } });

    const page = await ok<Page>(call, 'GET', `/messages/${ticketId}`, { token: tenant.admin.token });
    const events = (page.events ?? []).filter((e) => e.at >= startedAt);
    expect(events.map((e) => e.kind)).toEqual(['started', 'transferred', 'finished']);
    const [accepted, transferred, resolved] = events as [ThreadEvent, ThreadEvent, ThreadEvent];
    for (const event of events) {
      expect(event.actor?.id).toBe(tenant.admin.id);
      expect(event.actor?.name).toBeTruthy();
      expect(Date.parse(event.at)).toBeGreaterThanOrEqual(Date.parse(startedAt));
    }
    expect(accepted).toMatchObject({ status: 'open', user: { id: tenant.admin.id } });
    expect(transferred).toMatchObject({ status: 'open', user: { id: tenant.user.id }, queue: { id: otherQueueId, name: 'Financeiro' } });
    expect(resolved).toMatchObject({ status: 'closed' });
    // The contact's message is still there, and nothing went to the phone.
    expect(page.messages.map((m) => m.body)).toContain('Preciso de ajuda com a fatura');
    await sleep(2000);
    expect(await phone()).toBe(before);
  });
});
