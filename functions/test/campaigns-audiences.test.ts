/**
 * A campaign's audience (domain/campaigns/audience.ts) over DynamoDB Local, the engine's clock and
 * sends recorded: a tag's audience is the contacts of the tickets carrying it, each once (a contact
 * with two tagged tickets gets one message, untagged and group contacts none), placeholders filled
 * from the contact; a list and a tag together are their union without a number twice; a campaign
 * with neither is refused before it starts (400 ERR_CAMPAIGN_NO_AUDIENCE) rather than finishing
 * having sent nothing.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { setClockSender } from '#domain/campaigns/clock';
import { startCampaign } from '#domain/campaigns/engine';
import { settleCampaignSend } from '#domain/campaigns/results';
import { resolveContact } from '#domain/contacts/resolve';
import { defaultEffects } from '#domain/messages/effects';
import { findOrCreateTicket } from '#domain/tickets/find-or-create';
import { getCampaign } from '#storage/campaigns/campaigns';
import { getRun } from '#storage/campaigns/runs';
import { updateContact } from '#storage/contacts/contacts';
import { harness, result } from './campaigns-engine-harness.ts';
import { invoke, newCampaign, newItem, newList, phone } from './campaigns-harness.ts';
import { createConnection, type Env, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;

beforeAll(async () => {
  env = await startEnv();
}, 120_000);
afterAll(async () => env?.stop());

async function settings(t: Tenant, messageInterval: number) {
  await invoke('POST /campaign-settings', {
    token: t.admin.token,
    json: { settings: { messageInterval, longerIntervalAfter: 0, greaterInterval: 0, variables: [] } },
  });
}

async function newTag(t: Tenant, name: string): Promise<number> {
  const res = await invoke('POST /tags', { token: t.admin.token, json: { name } });
  expect(res.status).toBeLessThan(300);
  return res.body.id;
}

/** A contact with a ticket on the connection (as an inbound message makes them), its ticket tagged when `tagId` is given. */
async function person(
  t: Tenant,
  connectionId: number,
  fields: { name: string; email?: string; number?: string; isGroup?: boolean },
  tagId?: number,
) {
  const number = fields.number ?? phone();
  const contact = await resolveContact(
    { companyId: t.companyId, connectionId, number, isGroup: fields.isGroup ?? false, fromMe: false, pushName: fields.name },
    defaultEffects,
  );
  await updateContact(t.companyId, contact.id, { name: fields.name, email: fields.email ?? '' });
  const { ticket } = await findOrCreateTicket({ companyId: t.companyId, connectionId, contact, reopenWithinHours: 0, now: new Date() });
  if (tagId) await tagTicket(t, ticket.id, tagId);
  return { contact: { ...contact, name: fields.name }, ticket };
}

async function tagTicket(t: Tenant, ticketId: number, tagId: number) {
  const res = await invoke('PUT /ticket-tags/{ticketId}/{tagId}', { token: t.admin.token, params: { ticketId, tagId } });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

/** Runs the chain to its end, each tick twice, every send's result reported as the host would. */
async function ship(t: Tenant, connectionId: number, campaignId: number, h: ReturnType<typeof harness>) {
  await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
  await h.drain(2);
  for (const send of h.sends) await settleCampaignSend(result(t.companyId, connectionId, send), h.effects);
}

describe('campaign audiences', () => {
  it("ships a tag's contacts once each, placeholders from the contact; untagged and group contacts get nothing", async () => {
    const t = await seedTenant(env.stack);
    await settings(t, 5);
    const connection = await createConnection(t);
    const second = await createConnection(t);
    const tagId = await newTag(t, 'Clientes ouro');
    const otherTag = await newTag(t, 'Outros');
    const ana = await person(t, connection.id, { name: 'Ana', email: 'ana@example.com' }, tagId);
    const bruno = await person(t, connection.id, { name: 'Bruno' }, tagId);
    // Ana's second ticket (on another connection) carries the tag too: still one message for Ana.
    const { ticket: anaAgain } = await findOrCreateTicket({
      companyId: t.companyId,
      connectionId: second.id,
      contact: ana.contact,
      reopenWithinHours: 0,
      now: new Date(),
    });
    expect(anaAgain.id).not.toBe(ana.ticket.id);
    await tagTicket(t, anaAgain.id, tagId);
    const carla = await person(t, connection.id, { name: 'Carla' }, otherTag);
    const group = await person(t, connection.id, { name: 'Grupo', number: `1203630${Date.now()}`, isGroup: true }, tagId);

    const campaign = await newCampaign(t, { tagListId: tagId, whatsappId: connection.id, message1: 'Oi {nome} ({numero}) {email}' });
    const h = harness();
    await ship(t, connection.id, campaign.id, h);

    expect(h.sends.map((s) => s.body).sort()).toEqual([
      `Oi Ana (${ana.contact.number}) ana@example.com`,
      `Oi Bruno (${bruno.contact.number}) `,
    ]);
    expect(new Set(h.sends.map((s) => s.messageId)).size).toBe(2);
    for (const nobody of [carla.contact.number, group.contact.number]) expect(h.sends.find((s) => s.number === nobody)).toBeUndefined();
    expect(await getRun(t.companyId, campaign.id)).toMatchObject({ valid: 2, invalid: 0, queued: 2, delivered: 2, done: true });
    expect((await getCampaign(t.companyId, campaign.id))?.status).toBe('FINALIZADA');
  });

  it('a list and a tag: their union, a number in both gets one message (the list item)', async () => {
    const t = await seedTenant(env.stack);
    await settings(t, 0);
    const connection = await createConnection(t);
    const tagId = await newTag(t, 'Vip');
    const list = await newList(t);
    const both = phone();
    await newItem(t, list.id, { name: 'Dora Lista', number: both });
    const listOnly = await newItem(t, list.id, { name: 'Edu Lista' });
    await person(t, connection.id, { name: 'Dora Contato', number: both }, tagId);
    const tagOnly = await person(t, connection.id, { name: 'Fabi' }, tagId);

    const campaign = await newCampaign(t, { contactListId: list.id, tagListId: tagId, whatsappId: connection.id, message1: 'Oi {nome}' });
    const h = harness();
    await ship(t, connection.id, campaign.id, h);

    expect(h.sends.map((s) => [s.number, s.body]).sort()).toEqual(
      [
        [both, 'Oi Dora Lista'],
        [listOnly.number, 'Oi Edu Lista'],
        [tagOnly.contact.number, 'Oi Fabi'],
      ].sort(),
    );
    expect(await getRun(t.companyId, campaign.id)).toMatchObject({ valid: 3, queued: 3, delivered: 3, done: true });
    expect((await getCampaign(t.companyId, campaign.id))?.status).toBe('FINALIZADA');
  });

  it('refuses to start or schedule a campaign with neither a list nor a tag (400 ERR_CAMPAIGN_NO_AUDIENCE)', async () => {
    const t = await seedTenant(env.stack);
    const connection = await createConnection(t);
    const base = { name: 'Sem público', whatsappId: connection.id, message1: 'Oi' };
    for (const json of [
      { ...base, status: 'EM_ANDAMENTO' },
      { ...base, tagListId: 'Nenhuma', status: 'EM_ANDAMENTO' },
      { ...base, scheduledAt: new Date(Date.now() + 7_200_000).toISOString() },
    ]) {
      const res = await invoke('POST /campaigns', { token: t.admin.token, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_CAMPAIGN_NO_AUDIENCE', field: 'contactListId' });
    }
    const draft = await newCampaign(t, base);
    const started = await invoke('PUT /campaigns/{id}', {
      token: t.admin.token,
      params: { id: draft.id },
      json: { status: 'EM_ANDAMENTO' },
    });
    expect(started.status).toBe(400);
    expect(started.body.error).toBe('ERR_CAMPAIGN_NO_AUDIENCE');
    expect((await getCampaign(t.companyId, draft.id))?.status).toBe('INATIVA');
    // A tag of the company's own is an audience: the same campaign starts (its first tick queued).
    const tagId = await newTag(t, 'Leads');
    const queued: unknown[] = [];
    const previous = setClockSender(async (message) => void queued.push(message));
    onTestFinished(() => void setClockSender(previous));
    const withTag = await invoke('PUT /campaigns/{id}', {
      token: t.admin.token,
      params: { id: draft.id },
      json: { tagListId: String(tagId), status: 'EM_ANDAMENTO' },
    });
    expect(withTag.status, JSON.stringify(withTag.body)).toBe(200);
    expect(withTag.body).toMatchObject({ tagListId: tagId, status: 'EM_ANDAMENTO' });
    expect(queued).toEqual([expect.objectContaining({ kind: 'tick', companyId: t.companyId, connectionId: connection.id })]);
  });
});
