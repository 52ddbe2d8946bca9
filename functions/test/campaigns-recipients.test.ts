/**
 * GET /campaigns/{id}/recipients over DynamoDB Local + cognito-local (issue 25: the campaign report
 * counted deliveries but could not say who got the message): every recipient of the campaign's list
 * with its state (delivered, failed with its reason, sent and waiting for a result, not shipped yet,
 * invalid), in the list's order, filtered by state and paged. Attacks: another tenant's campaign is
 * 404, garbage in the query 400 naming the field, no or a forged token 401.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_RECIPIENTS_PAGE_SIZE } from '#contracts/campaigns';
import { shipKey } from '#storage/campaigns/shipping';
import { setWhatsappValid } from '#storage/contact-lists/items';
import { db, table } from '#storage/db';
import { CAMPAIGN_COUNTERS, invoke, newCampaign, newItem, newList, skipIds } from './campaigns-harness.ts';
import { type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

let stack: Stack;
let t: Tenant;
let other: Tenant;
let campaignId: number;
let items: { id: number; name: string; number: string }[];

async function ship(itemId: number, fields: Record<string, unknown>): Promise<void> {
  const item = items.find((i) => i.id === itemId);
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...shipKey(t.companyId, campaignId, itemId),
        entity: 'campaignShip',
        campaignId,
        itemId,
        number: item?.number,
        name: item?.name,
        email: '',
        message: 'Oi',
        run: 1,
        queuedAt: '2026-11-29T10:00:00.000Z',
        ...fields,
      },
    }),
  );
}

beforeAll(async () => {
  stack = await startStack();
  [t, other] = await Promise.all([seedTenant(stack), seedTenant(stack)]);
  await skipIds(other.companyId, CAMPAIGN_COUNTERS);
  const list = await newList(t, 'Clientes');
  items = [];
  for (const name of ['Ana', 'Bruno', 'Carla', 'Davi', 'Elisa']) items.push(await newItem(t, list.id, { name }));
  campaignId = (await newCampaign(t, { name: 'Natal', contactListId: list.id, message1: 'Oi {nome}' })).id;
  const [ana, bruno, carla, , elisa] = items;
  await ship(ana?.id ?? 0, { deliveredAt: '2026-11-29T10:00:05.000Z' });
  await ship(bruno?.id ?? 0, { failedAt: '2026-11-29T10:00:06.000Z', error: 'number not on WhatsApp' });
  await ship(carla?.id ?? 0, {});
  // Davi is not shipped yet; Elisa's number is off WhatsApp.
  await setWhatsappValid(t.companyId, elisa?.id ?? 0, false);
}, 120_000);
afterAll(async () => stack?.stop());

const recipients = (token: string, id: number, query: Record<string, string> = {}) =>
  invoke('GET /campaigns/{id}/recipients', { token, params: { id }, query });

describe('the campaign report lists its recipients', () => {
  it('gives each recipient of the list its state, in the list order', async () => {
    // A plain user reads the report, as the campaign pages allow.
    const user = await t.addUser('user');
    const res = await recipients(user.token, campaignId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ count: 5, hasMore: false });
    expect(res.body.records.map((r: { name: string; state: string }) => [r.name, r.state])).toEqual([
      ['Ana', 'delivered'],
      ['Bruno', 'failed'],
      ['Carla', 'sent'],
      ['Davi', 'pending'],
      ['Elisa', 'invalid'],
    ]);
    expect(res.body.records[0]).toMatchObject({ number: items[0]?.number, at: '2026-11-29T10:00:05.000Z', error: null });
    expect(res.body.records[1]).toMatchObject({ at: '2026-11-29T10:00:06.000Z', error: 'number not on WhatsApp' });
    expect(res.body.records[3]).toMatchObject({ at: null });
  });

  it('filters by state and pages', async () => {
    const failed = await recipients(t.admin.token, campaignId, { state: 'failed' });
    expect(failed.body).toMatchObject({ count: 1, records: [{ name: 'Bruno', state: 'failed' }] });
    const beyond = await recipients(t.admin.token, campaignId, { pageNumber: '2' });
    expect(beyond.body).toMatchObject({ count: 5, records: [], hasMore: false });
    expect(CAMPAIGN_RECIPIENTS_PAGE_SIZE).toBeGreaterThan(5);
  });

  it("refuses another tenant's campaign, garbage in the query and a missing or forged token", async () => {
    expect((await recipients(other.admin.token, campaignId)).status).toBe(404);
    for (const query of [{ state: 'read-it' }, { pageNumber: '0' }, { pageNumber: 'x' }] as Record<string, string>[]) {
      const res = await recipients(t.admin.token, campaignId, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/state|pageNumber/);
    }
    expect(
      (await invoke('GET /campaigns/{id}/recipients', { params: { id: 'abc' as unknown as number }, token: t.admin.token })).status,
    ).toBe(400);
    expect((await invoke('GET /campaigns/{id}/recipients', { params: { id: campaignId } })).status).toBe(401);
    expect((await recipients(`${t.admin.token}x`, campaignId)).status).toBe(401);
  });
});
