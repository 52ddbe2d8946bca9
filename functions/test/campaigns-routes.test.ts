/**
 * Campaigns and campaign settings over DynamoDB Local + cognito-local: SPEC 4's statuses (a new
 * campaign INATIVA, a scheduledAt makes it PROGRAMADA), the editability rule (INATIVA, or PROGRAMADA
 * more than 1 h ahead, else 409), what a scheduled campaign needs to run, the plan's `campaigns`
 * limit and useCampaigns gate, references checked in the caller's tenant, the settings' allowed
 * values, the realtime events, and the attacks: another tenant's ids (404), a plain user on the
 * admin-only settings write (403), no or a forged token (401), garbage anywhere (400 naming the field).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CAMPAIGN_EDIT_LEAD_MS, isCampaignEditable } from '#contracts/campaigns';
import { db, table } from '#storage/db';
import { pad, tenantPk } from '#storage/table';
import { CAMPAIGN_COUNTERS, hoursAhead, invoke, newCampaign, newItem, newList, skipIds } from './campaigns-harness.ts';
import { type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

const published: { event: string; data: unknown }[] = [];
vi.mock(import('../src/realtime/publisher.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  publishToCompany: async (_companyId: number, event: string, data: unknown) => {
    published.push({ event, data });
    return { sent: 1, gone: 0, failed: 0 };
  },
}));

let stack: Stack;
let t: Tenant;
let other: Tenant;
let connectionId: number;
let listId: number;

beforeAll(async () => {
  stack = await startStack();
  [t, other] = await Promise.all([seedTenant(stack), seedTenant(stack)]);
  await skipIds(other.companyId, CAMPAIGN_COUNTERS);
  const connection = await invoke('POST /whatsapp', { token: t.admin.token, json: { name: 'Loja', token: 'campaign-test-token-0001' } });
  connectionId = connection.body.id;
  listId = (await newList(t, 'Audiência')).id;
  await newItem(t, listId);
}, 120_000);
afterAll(async () => stack?.stop());

/** What the engine will do: move a campaign's status behind the API's back (and its revision, as every write). */
async function setStatus(companyId: number, id: number, status: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: tenantPk(companyId), sk: `CAMPAIGN#${pad(id)}` },
      UpdateExpression: 'SET #s = :s ADD revision :one',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': status, ':one': 1 },
    }),
  );
}

const ready = () => ({ whatsappId: connectionId, contactListId: listId, message1: 'Olá {nome}, oferta para {numero}' });

describe('campaigns', () => {
  it('starts INATIVA; a scheduledAt makes it PROGRAMADA; empty strings become null; names the list and connection', async () => {
    published.length = 0;
    const draft = await newCampaign(t, { name: 'Rascunho', message1: '', message2: '  ', scheduledAt: '', tagListId: '' });
    expect(draft).toMatchObject({
      status: 'INATIVA',
      message1: null,
      message2: null,
      scheduledAt: null,
      tagListId: 'Nenhuma',
      confirmation: false,
      editable: true,
      contactList: null,
    });
    const at = hoursAhead(3);
    const scheduled = await newCampaign(t, { name: 'Agendada', scheduledAt: at, ...ready() });
    expect(scheduled).toMatchObject({
      status: 'PROGRAMADA',
      scheduledAt: at,
      contactList: { id: listId, name: 'Audiência', contactsCount: 1 },
      whatsapp: { id: connectionId, name: 'Loja' },
      editable: true,
    });
    const unscheduled = await invoke('PUT /campaigns/{id}', {
      token: t.admin.token,
      params: { id: scheduled.id },
      json: { scheduledAt: null },
    });
    expect(unscheduled.body.status).toBe('INATIVA');
    const page = await invoke('GET /campaigns', { token: t.admin.token, query: { searchParam: 'agend' } });
    expect(page.body).toMatchObject({ records: [{ id: scheduled.id }], hasMore: false });
    expect((await invoke('GET /campaigns/{id}', { token: t.admin.token, params: { id: draft.id } })).body.name).toBe('Rascunho');
    expect(published.map((p) => [p.event, (p.data as { action: string }).action])).toEqual([
      [`company-${t.companyId}-campaign`, 'create'],
      [`company-${t.companyId}-campaign`, 'create'],
      [`company-${t.companyId}-campaign`, 'update'],
    ]);
    expect(published[0]?.data).toMatchObject({ action: 'create', record: { id: draft.id } });
  });

  it('schedules only what can run, and only ahead', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ready(), scheduledAt: new Date(Date.now() - 60_000).toISOString() }, 'scheduledAt'],
      [{ ...ready(), whatsappId: null, scheduledAt: hoursAhead(2) }, 'whatsappId'],
      [{ ...ready(), contactListId: null, scheduledAt: hoursAhead(2) }, 'contactListId'],
      [{ ...ready(), message1: null, scheduledAt: hoursAhead(2) }, 'message1'],
      [{ ...ready(), confirmation: true, scheduledAt: hoursAhead(2) }, 'confirmationMessage1'],
      [{ ...ready(), scheduledAt: '2030-01-02 10:00:00' }, 'scheduledAt'],
    ];
    for (const [fields, field] of cases) {
      const res = await invoke('POST /campaigns', { token: t.admin.token, json: { name: 'Falha', ...fields } });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const zoned = await newCampaign(t, { ...ready(), scheduledAt: '2099-01-02T10:00:00-03:00' });
    expect(zoned.scheduledAt).toBe('2099-01-02T13:00:00.000Z');
  });

  it('edits only INATIVA, or PROGRAMADA more than an hour ahead; deletes unless shipping', async () => {
    expect(
      isCampaignEditable({ status: 'PROGRAMADA', scheduledAt: new Date(Date.now() + CAMPAIGN_EDIT_LEAD_MS - 1000).toISOString() }),
    ).toBe(false);
    const soon = await newCampaign(t, { ...ready(), name: 'Em breve', scheduledAt: new Date(Date.now() + 30 * 60_000).toISOString() });
    expect(soon.editable).toBe(false);
    const refused = await invoke('PUT /campaigns/{id}', { token: t.admin.token, params: { id: soon.id }, json: { name: 'Mudada' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'ERR_CAMPAIGN_NOT_EDITABLE', status: 'PROGRAMADA' });

    for (const status of ['EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA']) {
      const campaign = await newCampaign(t, { ...ready(), name: status });
      await setStatus(t.companyId, campaign.id, status);
      const put = await invoke('PUT /campaigns/{id}', { token: t.admin.token, params: { id: campaign.id }, json: { message1: 'Outra' } });
      expect(put.status, status).toBe(409);
      expect((await invoke('GET /campaigns/{id}', { token: t.admin.token, params: { id: campaign.id } })).body).toMatchObject({
        status,
        editable: false,
      });
      const del = await invoke('DELETE /campaigns/{id}', { token: t.admin.token, params: { id: campaign.id } });
      expect(del.status, status).toBe(status === 'EM_ANDAMENTO' ? 409 : 204);
    }
    // The engine moved it between the read and the write: the edit loses, nothing is overwritten.
    const raced = await newCampaign(t, { ...ready(), name: 'Corrida' });
    await setStatus(t.companyId, raced.id, 'INATIVA');
    const { updateCampaign } = await import('#storage/campaigns/campaigns');
    await expect(updateCampaign(t.companyId, raced.id, 0, { name: 'Velha' })).rejects.toMatchObject({ code: 'ERR_CAMPAIGN_NOT_EDITABLE' });
  });

  it("enforces the plan's campaigns limit and the useCampaigns flag", async () => {
    const limited = await seedTenant(stack, { plan: { campaigns: 2 } });
    await Promise.all([newCampaign(limited), newCampaign(limited)]);
    const third = await invoke('POST /campaigns', { token: limited.admin.token, json: { name: 'Terceira' } });
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_CAMPAIGNS', limit: 2 });
    // Racing creates still stop at the limit.
    const racing = await seedTenant(stack, { plan: { campaigns: 3 } });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => invoke('POST /campaigns', { token: racing.admin.token, json: { name: `Corrida ${i}` } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect((await invoke('GET /campaigns', { token: racing.admin.token })).body.records).toHaveLength(3);

    const without = await seedTenant(stack, { plan: { useCampaigns: false } });
    for (const key of ['GET /campaigns', 'POST /campaigns', 'GET /campaign-settings', 'POST /campaign-settings']) {
      const res = await invoke(key, { token: without.admin.token, json: { name: 'Sem plano', settings: {} } });
      expect(res.status, key).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useCampaigns' });
    }
  });
});

describe('campaign settings', () => {
  it('answers the defaults as key and JSON value, saves the allowed values and keeps the first of a repeated variable', async () => {
    const fresh = await seedTenant(stack);
    const defaults = await invoke('GET /campaign-settings', { token: fresh.admin.token });
    expect(defaults.body).toEqual([
      { key: 'messageInterval', value: '20' },
      { key: 'longerIntervalAfter', value: '20' },
      { key: 'greaterInterval', value: '60' },
      { key: 'variables', value: '[]' },
    ]);
    const saved = await invoke('POST /campaign-settings', {
      token: fresh.admin.token,
      json: {
        settings: {
          messageInterval: 5,
          greaterInterval: '120',
          variables: [
            { key: 'loja', value: 'Centro' },
            { key: 'loja', value: 'ignorada' },
            { key: 'cupom', value: 'BF10' },
          ],
        },
      },
    });
    expect(saved.status).toBe(200);
    const read = Object.fromEntries(
      (await invoke('GET /campaign-settings', { token: (await fresh.addUser('user')).token })).body.map(
        (r: { key: string; value: string }) => [r.key, JSON.parse(r.value)],
      ),
    );
    expect(read).toEqual({
      messageInterval: 5,
      longerIntervalAfter: 20,
      greaterInterval: 120,
      variables: [
        { key: 'loja', value: 'Centro' },
        { key: 'cupom', value: 'BF10' },
      ],
    });
  });

  it('refuses values the spec does not offer, reserved placeholders, a plain user and bad tokens', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ messageInterval: 7 }, 'settings.messageInterval'],
      [{ messageInterval: 'abc' }, 'settings.messageInterval'],
      [{ longerIntervalAfter: 2 }, 'settings.longerIntervalAfter'],
      [{ greaterInterval: -1 }, 'settings.greaterInterval'],
      [{ variables: [{ key: 'nome', value: 'x' }] }, 'settings.variables.0.key'],
      [{ variables: [{ key: 'a b', value: 'x' }] }, 'settings.variables.0.key'],
      [{ variables: 'all' }, 'settings.variables'],
    ];
    for (const [settings, field] of cases) {
      const res = await invoke('POST /campaign-settings', { token: t.admin.token, json: { settings } });
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect((await invoke('POST /campaign-settings', { token: t.admin.token, json: {} })).body.field).toBe('settings');
    const user = await t.addUser('user');
    const asUser = await invoke('POST /campaign-settings', { token: user.token, json: { settings: { messageInterval: 0 } } });
    expect(asUser.status).toBe(403);
    expect(asUser.body.error).toBe('ERR_NO_PERMISSION');
    for (const token of [undefined, 'not.a.jwt', `${t.admin.token.slice(0, -4)}AAAA`]) {
      expect((await invoke('GET /campaign-settings', { token })).status).toBe(401);
      expect((await invoke('POST /campaigns', { token, json: { name: 'x' } })).status).toBe(401);
    }
  });
});

describe('attacks', () => {
  it("answers 404 for another tenant's campaign and for their list, connection or tag named in a campaign", async () => {
    const theirList = await newList(other, 'Deles');
    const theirCampaign = await newCampaign(other, { name: 'Deles', contactListId: theirList.id });
    const theirConnection = await invoke('POST /whatsapp', {
      token: other.admin.token,
      json: { name: 'Deles', token: 'campaign-test-token-0002' },
    });
    const theirTag = await invoke('POST /tags', { token: other.admin.token, json: { name: 'Tag deles' } });
    for (const [key, json] of [
      ['GET /campaigns/{id}', undefined],
      ['PUT /campaigns/{id}', { name: 'Roubada' }],
      ['DELETE /campaigns/{id}', undefined],
    ] as const) {
      expect((await invoke(key, { token: t.admin.token, params: { id: theirCampaign.id }, json })).status, key).toBe(404);
    }
    for (const [fields, field] of [
      [{ contactListId: theirList.id }, 'contactListId'],
      [{ whatsappId: theirConnection.body.id }, 'whatsappId'],
      [{ tagListId: theirTag.body.id }, 'tagListId'],
      [{ fileListId: 1 }, 'fileListId'],
    ] as const) {
      const created = await invoke('POST /campaigns', { token: t.admin.token, json: { name: 'Intrusa', ...fields } });
      expect(created.status, field).toBe(404);
      expect(created.body.field).toBe(field);
      const mine = await newCampaign(t, { name: 'Minha' });
      const updated = await invoke('PUT /campaigns/{id}', { token: t.admin.token, params: { id: mine.id }, json: fields });
      expect(updated.status, field).toBe(404);
    }
    const still = await invoke('GET /campaigns/{id}', { token: other.admin.token, params: { id: theirCampaign.id } });
    expect(still.body).toMatchObject({ name: 'Deles', contactList: { id: theirList.id } });
  });

  it('answers garbage in every field and query parameter with a 400 naming it, never a 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: 'A' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ name: 'Ok', confirmation: 'sim' }, 'confirmation'],
      [{ name: 'Ok', scheduledAt: 'amanhã' }, 'scheduledAt'],
      [{ name: 'Ok', scheduledAt: '+275760-09-13T00:00:00Z' }, 'scheduledAt'],
      [{ name: 'Ok', whatsappId: -1 }, 'whatsappId'],
      [{ name: 'Ok', contactListId: 'abc' }, 'contactListId'],
      [{ name: 'Ok', tagListId: 'Todas' }, 'tagListId'],
      [{ name: 'Ok', fileListId: [1] }, 'fileListId'],
      [{ name: 'Ok', message3: 'x'.repeat(5000) }, 'message3'],
      [{ name: 'Ok', confirmationMessage5: { $ne: 1 } }, 'confirmationMessage5'],
    ];
    for (const [json, field] of cases) {
      const res = await invoke('POST /campaigns', { token: t.admin.token, json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    for (const query of [{ pageNumber: '-1' }, { pageNumber: 'abc' }, { pageNumber: '1e309' }, { searchParam: 'x'.repeat(500) }] as Record<
      string,
      string
    >[]) {
      const res = await invoke('GET /campaigns', { token: t.admin.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.field).toBe(Object.keys(query)[0]);
    }
    for (const id of ['abc', '-1', '0', '99999999999999999999']) {
      const res = await invoke('GET /campaigns/{id}', { token: t.admin.token, params: { id } as unknown as Record<string, number> });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('id');
    }
  });
});
