/**
 * How a saved campaign gets going (SPEC 4 "Campaign", BEHAVIOUR "Campaigns"):
 * - PROGRAMADA: its start is queued on the engine's clock, delayed to its scheduledAt, once that is
 *   within START_LOOKAHEAD_MS: here when it is saved that close, else by the `campaign-starts` job
 *   (every minute, looking as far ahead). The start acts only if the campaign is still PROGRAMADA at
 *   that same time, so an edit or a duplicate start does nothing twice.
 * - without scheduledAt and asked to start (`status: "EM_ANDAMENTO"` in the body): started now.
 *
 * The same job keeps running campaigns moving: a connection's chain of ticks stops if its tick is
 * lost (it went to the DLQ after maxReceiveCount, or a Lambda died between a commit and queueing the
 * next tick), and nothing else would ever wake it. Every EM_ANDAMENTO campaign (the running index)
 * whose connection's next tick is over STALE_CHAIN_MS late gets a tick for the chain's current seq
 * queued again; should the lost tick still come, one of the two finds its seq gone and does nothing.
 */
import { logger } from '#commons/logger';
import type { CampaignRecord } from '#storage/campaigns/campaigns';
import { dueCampaigns, runningCampaigns } from '#storage/campaigns/due';
import { getPace, joinPace } from '#storage/campaigns/pace';
import { getRun } from '#storage/campaigns/runs';
import { type ClockSender, sendClockMessage } from './clock.ts';
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

/**
 * The `campaign-starts` job: every PROGRAMADA campaign due within the lookahead gets its start
 * queued, and every running campaign's stalled chain its tick again (reviveStalledChains).
 */
export async function queueDueStarts(
  now: Date,
  clock: ClockSender = sendClockMessage,
): Promise<{ queued: number; revived: number; errors: number }> {
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
  const revival = await reviveStalledChains(now, clock);
  return { queued, revived: revival.revived, errors: errors + revival.errors };
}

/**
 * A chain whose next tick is this late is taken as lost. Far over any wait the pace sets (at most
 * 120 s, SPEC 9, and each tick is queued delayed to its time) plus a tick's retries; a live chain
 * taken for lost costs one tick that finds its seq gone.
 */
export const STALE_CHAIN_MS = 150_000;

/** See the module comment: one tick queued per connection whose running campaigns' chain stalled. */
export async function reviveStalledChains(now: Date, clock: ClockSender): Promise<{ revived: number; errors: number }> {
  const byConnection = new Map<string, { companyId: number; connectionId: number; campaignIds: number[] }>();
  for (const campaign of await runningCampaigns()) {
    if (!campaign.whatsappId) continue;
    const key = `${campaign.companyId}:${campaign.whatsappId}`;
    const entry = byConnection.get(key) ?? { companyId: campaign.companyId, connectionId: campaign.whatsappId, campaignIds: [] };
    entry.campaignIds.push(campaign.id);
    byConnection.set(key, entry);
  }
  let revived = 0;
  let errors = 0;
  for (const { companyId, connectionId, campaignIds } of byConnection.values()) {
    try {
      if (await reviveChain(companyId, connectionId, campaignIds, now.getTime(), clock)) revived++;
    } catch (error) {
      errors++;
      logger.error('campaign chain not revived', { companyId, connectionId, error });
    }
  }
  return { revived, errors };
}

async function reviveChain(companyId: number, connectionId: number, campaignIds: number[], nowMs: number, clock: ClockSender) {
  let pace = await getPace(companyId, connectionId);
  let joined = false;
  // A campaign still walking its audience but off the chain (a start that died after its status
  // move) joins it again; a sleeping chain wakes with it.
  for (const campaignId of campaignIds) {
    if (pace?.campaigns.includes(campaignId)) continue;
    const run = await getRun(companyId, campaignId);
    if (!run || run.done) continue;
    const seq = await joinPace(companyId, connectionId, campaignId, nowMs);
    joined = true;
    if (seq === undefined) continue;
    logger.warn('campaign off its chain: joined again', { companyId, connectionId, campaignId });
    await clock({ kind: 'tick', companyId, connectionId, seq }, 0);
    return true;
  }
  if (joined) pace = await getPace(companyId, connectionId);
  if (!pace || pace.idle || !pace.campaigns.length || nowMs - pace.targetAt <= STALE_CHAIN_MS) return false;
  logger.warn('campaign tick chain stalled: its tick queued again', {
    companyId,
    connectionId,
    seq: pace.seq,
    late: nowMs - pace.targetAt,
  });
  await clock({ kind: 'tick', companyId, connectionId, seq: pace.seq, recover: true }, 0);
  return true;
}
