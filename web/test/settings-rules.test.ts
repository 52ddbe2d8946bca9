/**
 * Which settings the Settings page's Options tab shows (issue 25): the Asaas key is the platform's
 * account that charges the tenants, so only a super user sees (and edits) it; a company's admin and
 * its users get every other key.
 */
import { settingKeys } from '@conversa/functions/contracts/setting-keys';
import { describe, expect, it } from 'vitest';
import { shownSettingKeys } from '../src/features/settings/api/settings.ts';

describe("the Options tab's keys", () => {
  it("shows the platform's Asaas key to a super user only", () => {
    expect(shownSettingKeys({ super: true })).toEqual(settingKeys);
    expect(shownSettingKeys({ super: false })).toEqual(settingKeys.filter((key) => key !== 'asaas'));
    expect(shownSettingKeys(undefined)).not.toContain('asaas');
  });
});
