/**
 * The report's counters (contracts/campaigns.ts CampaignProgress) and their live event on
 * `company-{id}-campaign` (SPEC 7): `{action: 'progress', id, status, completedAt, progress}`.
 */
import type { CampaignProgress, CampaignProgressEvent } from '#contracts/campaigns';
import { channels } from '#contracts/channels';
import type { Effects } from '#domain/messages/effects';
import type { CampaignRecord } from '#storage/campaigns/campaigns';
import { getRun } from '#storage/campaigns/runs';
import { emptyCounters, type RunCounters } from '#storage/campaigns/shipping';

export const progressOf = (run: Partial<RunCounters> | undefined): CampaignProgress => {
  const counters = { ...emptyCounters(), ...run };
  return {
    valid: counters.valid,
    invalid: counters.invalid,
    queued: counters.queued,
    delivered: counters.delivered,
    failed: counters.failed,
    confirmationRequested: counters.confirmationRequested,
    confirmed: counters.confirmed,
  };
};

export async function publishProgress(
  effects: Effects,
  campaign: Pick<CampaignRecord, 'companyId' | 'id' | 'status' | 'completedAt'>,
  run?: Partial<RunCounters>,
): Promise<void> {
  const counters = run ?? (await getRun(campaign.companyId, campaign.id));
  const event: CampaignProgressEvent = {
    action: 'progress',
    id: campaign.id,
    status: campaign.status,
    completedAt: campaign.completedAt,
    progress: progressOf(counters),
  };
  await effects.publish(campaign.companyId, channels.campaign(campaign.companyId), event, { kind: 'company' });
}
