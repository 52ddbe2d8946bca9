/**
 * EventBridge schedule (schedules.ts `ticket-sweeps`, every minute): expiresTicket and
 * timeToTransfer for every company. A company's failure is logged and retried by the next run, so
 * the handler throws only when the run could not start (then the next minute's run covers it).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#commons/logger';
import { runTicketSweeps } from '#domain/sweeps/run';

export async function handler(_event: ScheduledEvent): Promise<void> {
  const report = await runTicketSweeps();
  if (report.failures) logger.warn('ticket sweeps finished with failures', { ...report });
  else logger.info('ticket sweeps finished', { ...report });
}
