/**
 * EventBridge schedule (schedules.ts `ticket-sweeps`, every minute): expiresTicket and
 * timeToTransfer for every company, then the snoozed tickets whose time came (issue 22 §5). A
 * company's failure is logged and retried by the next run, so the handler throws only when the run
 * could not start (then the next minute's run covers it).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#commons/logger';
import { runTicketSweeps } from '#domain/sweeps/run';
import { wakeDueSnoozes } from '#domain/tickets/snooze';

export async function handler(_event: ScheduledEvent): Promise<void> {
  const report = await runTicketSweeps();
  if (report.failures) logger.warn('ticket sweeps finished with failures', { ...report });
  else logger.info('ticket sweeps finished', { ...report });
  // Snoozed tickets whose time came (issue 22 §5), every tenant's from one index.
  const snoozes = await wakeDueSnoozes();
  if (snoozes.failures) logger.warn('snoozed tickets woken with failures', { ...snoozes });
  else if (snoozes.woken) logger.info('snoozed tickets woken', { ...snoozes });
}
