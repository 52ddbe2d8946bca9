/**
 * The payment provider's webhook (BEHAVIOUR "Billing", "Enforced on the server": the webhook is
 * verified). Asaas sends the access token configured for the webhook in the `asaas-access-token`
 * header; a request without the deployment's token is refused before anything is read.
 *
 * Idempotent: a paid event marks its invoice paid and renews the company in one conditional write
 * (storage/invoices.ts markPaidAndRenew); the same event again, or its sibling (PAYMENT_CONFIRMED then
 * PAYMENT_RECEIVED), finds the invoice paid and changes nothing, and emits nothing.
 */
import { timingSafeEqual } from 'node:crypto';
import { AppError, UnauthorizedError } from '#commons/errors';
import { logger } from '#commons/logger';
import type { PaymentEvent } from '#contracts/billing';
import { channels } from '#contracts/channels';
import { recurrenceMonths } from '#contracts/companies';
import { addMonths, todayIso } from '#domain/companies/due-date';
import { publishToCompany } from '#realtime/publisher';
import { getCompany } from '#storage/companies/companies';
import { getInvoice, type InvoiceRecord, markPaidAndRenew } from '#storage/invoices';
import { parseChargeReference } from './payment-provider.ts';

/** Asaas' events that mean the money arrived (a PIX is confirmed and received at once). */
export const PAID_EVENTS: ReadonlySet<string> = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED']);

export interface PaymentNotification {
  event: string;
  payment: { id: string; externalReference?: string | null };
}

export type WebhookOutcome = 'paid' | 'duplicate' | 'ignored';

/** Constant time, so the token cannot be guessed a byte at a time; no token configured refuses all. */
export function assertWebhookToken(given: string | undefined, expected: string | undefined): void {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected ?? '');
  if (!expected || a.length !== b.length || !timingSafeEqual(a, b)) throw new UnauthorizedError('ERR_UNAUTHORIZED');
}

/**
 * Renewal starts at the due date, or at today when the company already expired: a payment after a
 * lapse buys a whole period of use, not the remainder of one that ran out while it was blocked.
 */
export function renewedDueDate(dueDate: string | null, months: number, today: string): string {
  return addMonths(dueDate && dueDate >= today ? dueDate : today, months);
}

/** `company-{id}-payment` CONCLUIDA: the company's screens show the renewal and its new due date. */
export async function publishPaid(invoice: InvoiceRecord, paidAt: string, dueDate: string): Promise<void> {
  const event: PaymentEvent = {
    action: 'CONCLUIDA',
    invoice: { ...invoice, status: 'paid', paidAt, updatedAt: paidAt },
    company: { id: invoice.companyId, dueDate },
  };
  await publishToCompany(invoice.companyId, channels.payment(invoice.companyId), event);
}

const MAX_RENEW_TRIES = 3;

export async function handlePaymentNotification(notification: PaymentNotification, now: Date = new Date()): Promise<WebhookOutcome> {
  if (!PAID_EVENTS.has(notification.event)) return 'ignored';
  const reference = parseChargeReference(notification.payment.externalReference);
  // Not one of ours (another integration on the same account): acknowledged, so Asaas does not retry it.
  if (!reference) return 'ignored';
  for (let attempt = 0; attempt < MAX_RENEW_TRIES; attempt++) {
    const [invoice, company] = await Promise.all([getInvoice(reference.companyId, reference.invoiceId), getCompany(reference.companyId)]);
    if (!invoice || !company) return 'ignored';
    if (invoice.status === 'paid') return 'duplicate';
    // A charge the invoice no longer points at (replaced by a later subscription) is not this invoice's payment.
    if (invoice.paymentId !== notification.payment.id) return 'ignored';
    const paidAt = now.toISOString();
    const dueDate = renewedDueDate(company.dueDate, recurrenceMonths[company.recurrence ?? 'MENSAL'], todayIso(now));
    const done = await markPaidAndRenew({
      invoice,
      paymentId: notification.payment.id,
      paidAt,
      company: { id: company.id, previousDueDate: company.dueDate, dueDate, planId: invoice.planId },
    });
    if (done) {
      await publishPaid(invoice, paidAt, dueDate);
      return 'paid';
    }
    // Lost a race: the invoice was paid meanwhile (the loop's next read says so) or the due date moved.
  }
  logger.warn('payment not applied after retries', { paymentId: notification.payment.id, ...reference });
  // 503: Asaas retries a refused notification later, when the concurrent change is done.
  throw new AppError('ERR_INTERNAL', 503);
}
