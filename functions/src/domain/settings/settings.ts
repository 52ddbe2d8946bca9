/**
 * Company settings (SPEC 3 "Setting"): a fixed set of keys, each with a default, stored only once
 * changed or seeded. Reads always return every key, so clients never see a missing setting.
 */

import { ForbiddenError, NotFoundError, ValidationError } from '#commons/errors';
import { channels } from '#contracts/channels';
import {
  type Setting,
  type SettingKey,
  settingDefaults,
  settingKeys,
  settingValueSchemas,
  superOnlySettingKeys,
} from '#contracts/settings';
import { auditTransactItem, maskSecrets } from '#domain/audit/record';
import { publishToCompany, publishToSupers } from '#domain/companies/publish';
import * as storage from '#storage/settings';

export const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(settingDefaults, key);

/** The one filter of super-only settings (contracts/settings.ts superOnlySettingKeys): every reader goes through it. */
export const visibleSettings = (settings: Setting[], options: { includeSecrets?: boolean }): Setting[] =>
  settings.filter((setting) => options.includeSecrets || !superOnlySettingKeys.has(setting.key));

/** Every key with its stored value or default, in the contract's key order; secrets for super users only. */
export async function listCompanySettings(companyId: number, options: { includeSecrets?: boolean } = {}): Promise<Setting[]> {
  return visibleSettings(await storage.listSettings(companyId), options);
}

export const getCompanySetting = (companyId: number, key: SettingKey): Promise<string> => storage.getSetting(companyId, key);

export function assertSettingKey(key: string): asserts key is SettingKey {
  if (!isSettingKey(key)) throw new NotFoundError('ERR_NO_SETTING_FOUND');
}

/** Checks a value against its key's rule; unknown key -> 404, bad value -> 400 naming `value`. */
export function validateSetting(key: string, value: unknown): Setting {
  assertSettingKey(key);
  const result = settingValueSchemas[key].safeParse(value);
  if (!result.success) throw new ValidationError('value', result.error.issues[0]?.message ?? 'Invalid value');
  return { key, value: result.data };
}

/** `bySuper`: whether a super user writes; a super-only key refuses anyone else with 403. */
export async function updateCompanySetting(companyId: number, key: string, value: unknown, bySuper: boolean): Promise<Setting> {
  const setting = validateSetting(key, value);
  if (superOnlySettingKeys.has(setting.key) && !bySuper) throw new ForbiddenError('ERR_NO_PERMISSION');
  const before = await storage.getSetting(companyId, setting.key);
  // A super-only key (a payment token, a key of a provider) is a secret: its values never reach the trail.
  const shown = (text: string) => (superOnlySettingKeys.has(setting.key) ? maskSecrets(text, 'secret') : text);
  const entry =
    before === setting.value
      ? undefined
      : auditTransactItem({
          action: 'setting.update',
          targetType: 'setting',
          targetId: setting.key,
          changes: { [setting.key]: { from: shown(before), to: shown(setting.value) } },
        });
  // One write: the entry goes in the same transaction as the change it records.
  await storage.putSetting(companyId, setting.key, setting.value, entry ? [entry] : []);
  // A super-only key's new value reaches the super users' sockets only.
  const publish = superOnlySettingKeys.has(setting.key) ? publishToSupers : publishToCompany;
  await publish(companyId, channels.settings(companyId), { action: 'update', setting });
  return setting;
}

/** A new company's settings: every default written out, with the given overrides. */
export async function seedCompanySettings(companyId: number, overrides: Partial<Record<SettingKey, string>> = {}): Promise<void> {
  for (const key of settingKeys) {
    await storage.putSetting(companyId, key, overrides[key] ?? settingDefaults[key]);
  }
}
