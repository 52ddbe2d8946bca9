/**
 * EventBridge schedule (jobs.ts `message-retention`, hourly): messages past each company's
 * messageRetentionDays (domain/sweeps/retention.ts). A run stops starting new tickets a minute before
 * its timeout; a company it did not finish keeps its mark and the next run goes on from there.
 */
import '#adapters/wiring';
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#commons/logger';
import { deleteMediaObjects } from '#domain/media/bucket';
import { runMessageRetention } from '#domain/sweeps/retention';

const BUDGET_MS = 240_000;

export async function handler(_event: ScheduledEvent): Promise<void> {
  const report = await runMessageRetention(new Date(), { deleteMediaObjects, deadline: Date.now() + BUDGET_MS });
  if (report.unfinished) logger.warn('message retention left companies unfinished', { ...report });
  else logger.info('message retention finished', { ...report });
}
