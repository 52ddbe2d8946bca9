/**
 * Campaign settings (SPEC 3 "Campaign settings"): one record per company.
 *
 *   settings  pk = C#<cid>   sk = CAMPAIGN_SETTINGS   { messageInterval, longerIntervalAfter, greaterInterval, variables }
 *             -> one GetItem for the settings page and for the engine's pacing; absent = the spec's defaults
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CampaignSettings } from '#contracts/campaigns';
import { db, getItem, table } from '../db.ts';
import { tenantPk } from '../table.ts';

const key = (companyId: number) => ({ pk: tenantPk(companyId), sk: 'CAMPAIGN_SETTINGS' });

export const getCampaignSettings = (companyId: number): Promise<Partial<CampaignSettings> | undefined> =>
  getItem<Partial<CampaignSettings>>(key(companyId).pk, key(companyId).sk);

export async function putCampaignSettings(companyId: number, settings: CampaignSettings): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...key(companyId), entity: 'campaignSettings', ...settings, updatedAt: new Date().toISOString() },
    }),
  );
}
