/**
 * Company settings (SPEC 3 "Setting"): a fixed set of keys, each with a default, stored only once
 * changed or seeded. Reads always return every key, so clients never see a missing setting.
 */
import { NotFoundError, ValidationError } from '#commons/errors';
import { channels } from '#contracts/channels';
import { type Setting, type SettingKey, settingDefaults, settingKeys, settingValueSchemas } from '#contracts/settings';
import { publishToCompany } from '#domain/companies/publish';
import * as storage from '#storage/settings';

/** The payment provider key is a secret of the company's admins, not of every attendant. */
const adminOnlyKeys: ReadonlySet<SettingKey> = new Set(['asaas']);

export const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(settingDefaults, key);

/** Every key with its stored value or default, in the contract's key order. */
export async function listCompanySettings(companyId: number, options: { includeSecrets?: boolean } = {}): Promise<Setting[]> {
  return (await storage.listSettings(companyId)).filter((setting) => options.includeSecrets || !adminOnlyKeys.has(setting.key));
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

export async function updateCompanySetting(companyId: number, key: string, value: unknown): Promise<Setting> {
  const setting = validateSetting(key, value);
  await storage.putSetting(companyId, setting.key, setting.value);
  await publishToCompany(companyId, channels.settings(companyId), { action: 'update', setting });
  return setting;
}

/** A new company's settings: every default written out, with the given overrides. */
export async function seedCompanySettings(companyId: number, overrides: Partial<Record<SettingKey, string>> = {}): Promise<void> {
  for (const key of settingKeys) {
    await storage.putSetting(companyId, key, overrides[key] ?? settingDefaults[key]);
  }
}
