/**
 * Shared by the campaigns tests (contact lists and items in campaigns-contact-lists.test.ts,
 * campaigns and their settings in campaigns-routes.test.ts): requests through the handlers, a
 * company's lists, items and campaigns made through the API, and "B's ids start past A's".
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { db, table } from '#storage/db';
import { tenantPk } from '#storage/table';
import { invoke } from './messages-harness.ts';
import type { Tenant } from './users-harness.ts';

export { invoke };

/** Ids are per company: another company's records start far past any of this one's, so "B's id" names B's only. */
export async function skipIds(companyId: number, counters: string[], to = 1_000_000): Promise<void> {
  for (const counter of counters)
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: tenantPk(companyId), sk: `COUNTER#${counter}` },
        UpdateExpression: 'SET #v = :to',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':to': to },
      }),
    );
}

export const CAMPAIGN_COUNTERS = ['CONTACT_LIST', 'CONTACT_LIST_ITEM', 'CAMPAIGN', 'TAG', 'WAPP'];

/** Succeeds or fails the test with the answer: setup steps must not fail silently. */
async function made(key: string, token: string, json: unknown, params?: Record<string, number>) {
  const res = await invoke(key, { token, json, params });
  expect(res.status, `${key} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

export const newList = async (t: Tenant, name = 'Clientes VIP'): Promise<{ id: number; contactsCount: number }> =>
  made('POST /contact-lists', t.admin.token, { name });

export const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export const newItem = async (t: Tenant, contactListId: number, fields: Record<string, unknown> = {}) =>
  made('POST /contact-list-items', t.admin.token, { name: 'Ana Lista', number: phone(), email: '', contactListId, ...fields });

export const newCampaign = async (t: Tenant, fields: Record<string, unknown> = {}) =>
  made('POST /campaigns', t.admin.token, { name: 'Black Friday', ...fields });

export const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
