/**
 * EventBridge schedule (schedules.ts `schedule-sends`, every minute): sends the scheduled messages
 * that are due (domain/schedules/send.ts). A schedule whose send failed unexpectedly keeps its claim
 * until the lease ends and is retried by a later run; the handler throws only when the run could
 * not read the due index at all (the next minute's run covers it).
 */
import '#adapters/wiring';
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#commons/logger';
import { runScheduleSends } from '#domain/schedules/send';

export async function handler(_event?: ScheduledEvent): Promise<void> {
  const report = await runScheduleSends();
  if (report.errors) logger.warn('schedule sends finished with errors', { ...report });
  else if (report.read) logger.info('schedule sends finished', { ...report });
}
