/**
 * Campaign settings (SPEC 3 "Campaign settings", 9): the pacing the engine keeps between sends
 * (seconds, BEHAVIOUR "Campaigns") and the custom variables messages may name as `{key}`. Absent
 * keys are the spec's defaults; a POST changes the keys it names and keeps the others.
 * The API speaks the spec's shape: GET answers `[{ key, value }]` with each value as JSON text.
 */
import {
  type CampaignSettings,
  type CampaignSettingsInput,
  type CampaignSettingsRecords,
  defaultCampaignSettings,
} from '#contracts/campaigns';
import type { Identity } from '#domain/identity';
import { getCampaignSettings, putCampaignSettings } from '#storage/campaigns/settings';

/** The company's settings with the defaults filled in: what the engine paces by. */
export async function campaignSettingsOf(companyId: number): Promise<CampaignSettings> {
  const stored = (await getCampaignSettings(companyId)) ?? {};
  return {
    messageInterval: stored.messageInterval ?? defaultCampaignSettings.messageInterval,
    longerIntervalAfter: stored.longerIntervalAfter ?? defaultCampaignSettings.longerIntervalAfter,
    greaterInterval: stored.greaterInterval ?? defaultCampaignSettings.greaterInterval,
    variables: stored.variables ?? defaultCampaignSettings.variables,
  };
}

export const asRecords = (settings: CampaignSettings): CampaignSettingsRecords =>
  (['messageInterval', 'longerIntervalAfter', 'greaterInterval', 'variables'] as const).map((key) => ({
    key,
    value: JSON.stringify(settings[key]),
  }));

export async function getCampaignSettingsFor(identity: Identity): Promise<CampaignSettingsRecords> {
  return asRecords(await campaignSettingsOf(identity.companyId));
}

export async function saveCampaignSettingsFor(identity: Identity, input: CampaignSettingsInput): Promise<CampaignSettingsRecords> {
  const current = await campaignSettingsOf(identity.companyId);
  const next: CampaignSettings = {
    messageInterval: input.messageInterval ?? current.messageInterval,
    longerIntervalAfter: input.longerIntervalAfter ?? current.longerIntervalAfter,
    greaterInterval: input.greaterInterval ?? current.greaterInterval,
    variables: input.variables ?? current.variables,
  };
  await putCampaignSettings(identity.companyId, next);
  return asRecords(next);
}
