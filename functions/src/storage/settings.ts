/**
 * Company settings, one item per key.
 *   pk = C#<companyId>   sk = SETTING#<key>   { key, value, updatedAt }
 * Reads fill unset keys from contracts' settingDefaults, so a new key needs no migration.
 */
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
// The keys without the zod schemas: the socket's $connect reads a setting and keeps its bundle small.
import { type SettingKey, settingDefaults, settingKeys } from '#contracts/setting-keys';
import type { Setting } from '#contracts/settings';
import { db, getItem, queryAll, type TransactItem, table } from './db.ts';
import { REFERENCE_TTL_MS, readCache } from './read-cache.ts';
import { tenantPk } from './table.ts';

const settingSk = (key: SettingKey) => `SETTING#${key}`;

/** Every known key, stored value or default, in the contracts' key order. */
export async function listSettings(companyId: number): Promise<Setting[]> {
  const stored = await queryAll<Setting>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'SETTING#' },
    ConsistentRead: true,
  });
  const values = new Map(stored.map((item) => [item.key, item.value]));
  return settingKeys.map((key) => ({ key, value: values.get(key) ?? settingDefaults[key] }));
}

const settingsCache = readCache((companyId: number) => listSettings(companyId), { ttlMs: REFERENCE_TTL_MS });

/** listSettings through this container's read cache (read-cache.ts): a hot path's read, up to 5 s stale. */
export const listSettingsCached = (companyId: number): Promise<Setting[]> => settingsCache.get(companyId);

/** One key through the read cache (up to 5 s stale): for checks made on every request or socket. */
export async function getSettingCached(companyId: number, key: SettingKey): Promise<string> {
  const settings = await listSettingsCached(companyId);
  return settings.find((setting) => setting.key === key)?.value ?? settingDefaults[key];
}

export async function getSetting(companyId: number, key: SettingKey): Promise<string> {
  const item = await getItem<Setting>(tenantPk(companyId), settingSk(key));
  return item?.value ?? settingDefaults[key];
}

/** Stores the value; `together` (the act's audit entry) is written in the same transaction, or not at all. */
export async function putSetting(companyId: number, key: SettingKey, value: string, together: TransactItem[] = []): Promise<Setting> {
  const put = {
    TableName: table(),
    Item: { pk: tenantPk(companyId), sk: settingSk(key), entity: 'setting', key, value, updatedAt: new Date().toISOString() },
  };
  if (together.length) await db().send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...together] }));
  else await db().send(new PutCommand(put));
  settingsCache.forget(companyId);
  return { key, value };
}
