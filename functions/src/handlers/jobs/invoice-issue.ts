/**
 * EventBridge schedule (declarations/jobs.ts `invoice-issue`, hourly): the invoice of every company
 * within INVOICE_LEAD_DAYS of its due date, exactly once (domain/billing/invoices.ts).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#commons/logger';
import { issueDueInvoices } from '#domain/billing/invoices';

export async function handler(_event?: ScheduledEvent): Promise<void> {
  const report = await issueDueInvoices();
  if (report.errors) logger.warn('invoice issue finished with errors', { ...report });
  else if (report.issued) logger.info('invoices issued', { ...report });
}
