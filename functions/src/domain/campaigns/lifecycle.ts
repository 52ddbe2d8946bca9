/**
 * How a saved campaign gets going (SPEC 4 "Campaign", BEHAVIOUR "Campaigns"):
 * - PROGRAMADA: its start is queued on the engine's clock, delayed to its scheduledAt, once that is
 *   within START_LOOKAHEAD_MS: here when it is saved that close, else by the `campaign-starts` job
 *   (every minute, looking as far ahead). The start acts only if the campaign is still PROGRAMADA at
 *   that same time, so an edit or a duplicate start does nothing twice.
 * - without scheduledAt and asked to start (`status: "EM_ANDAMENTO"` in the body): started now.
 */
import { type ClockSender, sendClockMessage } from '#adapters/campaign-ticks';
import { logger } from '#commons/logger';
import { dueCampaigns } from '#storage/campaign-due';
import type { CampaignRecord } from '#storage/campaigns';
import { defaultEngineDeps, startCampaign } from './engine.ts';

/** Over the minute between the job's runs, so every start is queued by at least one of them. */
export const START_LOOKAHEAD_MS = 90_000;

/** True when the campaign was started now. */
export async function afterSave(record: CampaignRecord, startNow: boolean, now: Date): Promise<boolean> {
  if (record.status === 'PROGRAMADA' && record.scheduledAt) {
    await queueStartIfDue({ companyId: record.companyId, id: record.id, scheduledAt: record.scheduledAt }, now, sendClockMessage);
    return false;
  }
  if (!startNow || record.status !== 'INATIVA') return false;
  return Boolean(await startCampaign(record.companyId, record.id, ['INATIVA'], defaultEngineDeps));
}

async function queueStartIfDue(
  campaign: { companyId: number; id: number; scheduledAt: string },
  now: Date,
  clock: ClockSender,
): Promise<boolean> {
  const wait = Date.parse(campaign.scheduledAt) - now.getTime();
  if (wait > START_LOOKAHEAD_MS) return false;
  await clock(
    { kind: 'start', companyId: campaign.companyId, campaignId: campaign.id, scheduledAt: campaign.scheduledAt },
    Math.max(0, Math.ceil(wait / 1000)),
  );
  return true;
}

/** The `campaign-starts` job: every PROGRAMADA campaign due within the lookahead gets its start queued. */
export async function queueDueStarts(now: Date, clock: ClockSender = sendClockMessage): Promise<{ queued: number; errors: number }> {
  const due = await dueCampaigns(new Date(now.getTime() + START_LOOKAHEAD_MS).toISOString());
  let queued = 0;
  let errors = 0;
  for (const campaign of due) {
    try {
      if (await queueStartIfDue(campaign, now, clock)) queued++;
    } catch (error) {
      errors++;
      logger.error('campaign start not queued', { companyId: campaign.companyId, campaignId: campaign.id, error });
    }
  }
  return { queued, errors };
}
