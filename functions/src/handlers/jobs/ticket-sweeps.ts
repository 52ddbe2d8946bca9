/**
 * EventBridge schedule (schedules.ts `ticket-sweeps`, every minute): expiresTicket and
 * timeToTransfer for every company, then the snoozed tickets whose time came (issue 22 §5), then
 * the webhook deliveries SQS did not take when they were made (issue 23 §2, queue-or-park.ts), here
 * rather than in a job of its own (a Lambda, role, policy, log group and rule of the stack's resource
 * budget for one Query a minute on an index that is empty on a good day). A
 * company's failure is logged and retried by the next run, so the handler throws only when the run
 * could not start (then the next minute's run covers it).
 */
import '#adapters/wiring';
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#commons/logger';
import { runTicketSweeps } from '#domain/sweeps/run';
import { wakeDueSnoozes } from '#domain/tickets/snooze';
import { requeueParkedDeliveries } from '#domain/webhooks/queue-or-park';

export async function handler(_event: ScheduledEvent): Promise<void> {
  const report = await runTicketSweeps();
  if (report.failures) logger.warn('ticket sweeps finished with failures', { ...report });
  else logger.info('ticket sweeps finished', { ...report });
  // Snoozed tickets whose time came (issue 22 §5), every tenant's from one index.
  const snoozes = await wakeDueSnoozes();
  if (snoozes.failures) logger.warn('snoozed tickets woken with failures', { ...snoozes });
  else if (snoozes.woken) logger.info('snoozed tickets woken', { ...snoozes });
  const requeue = await requeueParkedDeliveries();
  if (requeue.stillParked) logger.warn('webhook deliveries still not queued', { ...requeue });
  else if (requeue.requeued) logger.info('parked webhook deliveries queued', { ...requeue });
}
