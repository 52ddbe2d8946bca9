/**
 * Scheduled jobs, declared once (like queues.ts): the CDK stack turns each into an EventBridge rule
 * (Schedule.rate) that invokes its Lambda, and the local stack runs each on a timer.
 */
export interface JobDeclaration {
  /** Logical name; the handler is functions/src/handlers/jobs/<name>.ts. */
  name: string;
  /** Minutes between runs (EventBridge's finest rate is 1 minute). */
  rateMinutes: number;
  /**
   * Lambda timeout. Kept under the rate so runs rarely overlap; when they do (a slow run), the job
   * must be safe anyway: every write it makes is conditional.
   */
  timeoutSeconds: number;
}

export const jobs: readonly JobDeclaration[] = [
  /**
   * BEHAVIOUR "Tickets": expiresTicket (close idle open tickets) and timeToTransfer (pending, no queue -> transferQueueId);
   * also the snoozed tickets' wake-up and the webhook deliveries SQS did not take (parked, issue 23 §2).
   */
  { name: 'ticket-sweeps', rateMinutes: 1, timeoutSeconds: 55 },
  /** BEHAVIOUR "Scheduled messages": the due scheduled messages, each sent within 60 s of its time, once. */
  { name: 'schedule-sends', rateMinutes: 1, timeoutSeconds: 55 },
  /** BEHAVIOUR "Campaigns": PROGRAMADA campaigns due within the lookahead get their start queued, delayed to the second. */
  { name: 'campaign-starts', rateMinutes: 1, timeoutSeconds: 55 },
  /** BEHAVIOUR "Billing": each company's invoice INVOICE_LEAD_DAYS before its due date, exactly once. */
  { name: 'invoice-issue', rateMinutes: 60, timeoutSeconds: 300 },
  /** Issue 21 §5: messages past each company's messageRetentionDays, with their media and search words. */
  { name: 'message-retention', rateMinutes: 60, timeoutSeconds: 300 },
];
