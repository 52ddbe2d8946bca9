/**
 * EventBridge schedule (jobs.ts `campaign-starts`, every minute): PROGRAMADA campaigns due within
 * the lookahead get their start queued on the engine's clock, delayed to their scheduledAt
 * (domain/campaigns/lifecycle.ts). Throws only when the due index could not be read at all; the
 * next minute's run covers it (it looks further ahead than a minute).
 */
import type { ScheduledEvent } from 'aws-lambda';
import '#adapters/wiring';
import { logger } from '#commons/logger';
import { queueDueStarts } from '#domain/campaigns/lifecycle';

export async function handler(_event?: ScheduledEvent): Promise<void> {
  const report = await queueDueStarts(new Date());
  if (report.errors) logger.warn('campaign starts finished with errors', { ...report });
  else if (report.queued) logger.info('campaign starts queued', { ...report });
}
