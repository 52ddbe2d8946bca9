/**
 * The company's time zone (setting `timezone`, issue 25 "One time zone"), through the settings read
 * cache: what a date-time without an offset means (a schedule's sendAt) and the clock the exports
 * write their times on. A value this runtime does not know falls back to the setting's default.
 */
import { settingDefaults } from '#contracts/setting-keys';
import { instantOfLocal, isTimeZone, LOCAL_DATE_TIME } from '#contracts/zoned-time';
import { getSettingCached } from '#storage/settings';

export async function companyZone(companyId: number): Promise<string> {
  const zone = await getSettingCached(companyId, 'timezone');
  return isTimeZone(zone) ? zone : settingDefaults.timezone;
}

/**
 * An instant as stored (ISO, UTC) from what a request gave: an instant stays; a date-time without
 * an offset is the company's wall clock (the contract let only real ones through).
 */
export async function companyInstant(companyId: number, value: string): Promise<string> {
  if (!LOCAL_DATE_TIME.test(value)) return value;
  const at = instantOfLocal(value, await companyZone(companyId));
  return (at ?? new Date(value)).toISOString();
}
