/**
 * The campaign report follows the contact's phone (issue 25: "the campaign report lists each
 * recipient with their state (sent, delivered, read, invalid, failed)"): the ship record kept no
 * receipt, so `read` never appeared. A campaign runs to the simulated phones; one contact's phone
 * reports the message delivered and then read, another only delivered, and GET
 * /campaigns/{id}/recipients says `read` for the first and `delivered` for the second; the same
 * read receipt again, or a late delivery receipt, changes nothing.
 */
import { randomInt } from 'node:crypto';
import type { Campaign, CampaignRecipientsPage } from '@conversa/functions/contracts/campaigns';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let a: Tenant;
let setup: ConnectionSetup;

const phone = () => `55419${randomInt(10_000_000, 99_999_999)}`;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  a = await createTenant(call, superToken, await firstPlanId(call), 'read-receipts');
  setup = await connectedConnection(call, sim, { token: a.admin.token, companyId: a.companyId, queues: ['Campanhas'] });
}, 60_000);

const recipients = (id: number) =>
  ok<CampaignRecipientsPage>(call, 'GET', `/campaigns/${id}/recipients`, { token: a.user.token }).then((page) =>
    Object.fromEntries(page.records.map((r) => [r.number, r])),
  );

describe('campaign recipients follow the phone’s receipts', () => {
  it('a contact who read the message is read, one whose phone only received it is delivered', async () => {
    await ok(call, 'POST', '/campaign-settings', {
      token: a.admin.token,
      body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] } },
    });
    const list = await ok<{ id: number }>(call, 'POST', '/contact-lists', {
      token: a.user.token,
      body: { name: `Leitura ${randomInt(1e6)}` },
    });
    const reader = { name: 'Lia Leitora', number: phone(), email: '' };
    const receiver = { name: 'Rui Recebe', number: phone(), email: '' };
    for (const person of [reader, receiver])
      await ok(call, 'POST', '/contact-list-items', { token: a.user.token, body: { ...person, contactListId: list.id } });
    const started = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: { name: 'Recibos', contactListId: list.id, whatsappId: setup.connectionId, message1: 'Oi {nome}', status: 'EM_ANDAMENTO' },
    });
    await waitUntil(
      'campaign finished',
      async () => (await ok<Campaign>(call, 'GET', `/campaigns/${started.id}`, { token: a.user.token })).status === 'FINALIZADA',
      90_000,
    );
    const before = await recipients(started.id);
    expect(before[reader.number]?.state).toBe('delivered');
    expect(before[receiver.number]?.state).toBe('delivered');

    const sentTo = async (number: string) => {
      const ours = (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us');
      expect(ours).toHaveLength(1);
      return ours[0]?.waMessageId as string;
    };
    const readId = await sentTo(reader.number);
    const receivedId = await sentTo(receiver.number);
    // SPEC 4 "Message ack": 3 delivered to the phone, 4 read.
    await sim.ack(setup.simId, reader.number, readId, 3);
    await sim.ack(setup.simId, reader.number, readId, 4);
    await sim.ack(setup.simId, receiver.number, receivedId, 3);

    let after: Awaited<ReturnType<typeof recipients>> = {};
    await waitUntil(
      'the reader listed as read',
      async () => {
        after = await recipients(started.id);
        return after[reader.number]?.state === 'read';
      },
      30_000,
    );
    expect(after[reader.number]).toMatchObject({ name: reader.name, state: 'read', error: null });
    expect(Date.parse(after[reader.number]?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(before[reader.number]?.at ?? ''));
    expect(after[receiver.number]?.state).toBe('delivered');

    // Filtered by the new state, the reader alone.
    const readOnly = await ok<CampaignRecipientsPage>(call, 'GET', `/campaigns/${started.id}/recipients?state=read`, {
      token: a.user.token,
    });
    expect(readOnly.records.map((r) => r.number)).toEqual([reader.number]);
    expect(readOnly.count).toBe(1);

    // The receiver reads too: read; the reader's state and time do not move again.
    await sim.ack(setup.simId, receiver.number, receivedId, 4);
    await waitUntil('the receiver listed as read', async () => (await recipients(started.id))[receiver.number]?.state === 'read', 30_000);
    const last = await recipients(started.id);
    expect(last[reader.number]).toEqual(after[reader.number]);
    const campaign = await ok<Campaign>(call, 'GET', `/campaigns/${started.id}`, { token: a.user.token });
    expect(campaign.progress).toMatchObject({ valid: 2, queued: 2, delivered: 2, failed: 0 });
  });
});
