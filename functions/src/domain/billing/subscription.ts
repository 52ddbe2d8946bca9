/**
 * POST /subscription (SPEC 3 "Subscription payload", 4 "Subscription wizard"): the wizard's address and
 * plan become a PIX charge at the payment provider for one open invoice, answered as the QR payload.
 *
 * Nothing half-written: the invoice records the charge only after the provider created it, with a
 * write conditioned on the charge the caller saw, so a provider failure leaves the invoice as it was
 * and two racing subscriptions leave one charge on it (the loser's is cancelled at the provider).
 */
import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import type { SubscriptionInput, SubscriptionPayment } from '#contracts/billing';
import { todayIso } from '#domain/companies/due-date';
import { attachCharge, getInvoice, type InvoiceRecord } from '#storage/invoices';
import { getPlan } from '#storage/plans/plans';
import { getSetting } from '#storage/settings';
import { type BillingCaller, openInvoiceToPay } from './invoices.ts';
import { PaymentNotConfiguredError } from './payment-errors.ts';
import { chargeReference, type PaymentProvider, type PaymentProviderFactory, type PixQrCode } from './payment-provider.ts';

/**
 * The platform's company (the first one, seeded with the super admin) holds the provider key: the
 * platform charges its tenants, so a tenant's own `asaas` setting is not the account paid into.
 */
export const PLATFORM_COMPANY_ID = 1;

function answer(invoice: InvoiceRecord, paymentId: string, qr: PixQrCode): SubscriptionPayment {
  return {
    invoiceId: invoice.id,
    paymentId,
    qrcode: {
      qrcode: qr.payload,
      imagemQrcode: `data:image/png;base64,${qr.encodedImage}`,
      ...(qr.expirationDate ? { expirationDate: qr.expirationDate } : {}),
    },
    valor: { original: invoice.value.toFixed(2) },
  };
}

async function openInvoice(companyId: number, invoiceId: number): Promise<InvoiceRecord> {
  const invoice = await getInvoice(companyId, invoiceId);
  if (!invoice) throw new NotFoundError('ERR_NO_INVOICE_FOUND');
  if (invoice.status === 'paid') throw new ConflictError('ERR_INVOICE_ALREADY_PAID');
  return invoice;
}

async function providerFor(factory: PaymentProviderFactory): Promise<PaymentProvider> {
  const apiKey = (await getSetting(PLATFORM_COMPANY_ID, 'asaas')).trim();
  if (!apiKey) throw new PaymentNotConfiguredError();
  return factory(apiKey);
}

/** ISO days compare as strings (Math.max would read them as numbers). */
function laterDay(a: string, b: string): string {
  if (a > b) return a;
  return b;
}

const cancelQuietly = (provider: PaymentProvider, paymentId: string) =>
  provider
    .cancelCharge(paymentId)
    .catch((error: unknown) => logger.warn('could not cancel a charge', { paymentId, error: error as Error }));

export async function subscribe(
  caller: BillingCaller,
  input: SubscriptionInput,
  factory: PaymentProviderFactory,
): Promise<SubscriptionPayment> {
  // Everything refusable is checked before "Subscribe now" issues an invoice.
  const plan = await getPlan(input.plan);
  if (!plan) throw new ValidationError('plan', 'Unknown plan', 'ERR_NO_PLAN_FOUND');
  if (!(plan.value > 0)) throw new ValidationError('plan', 'This plan has nothing to pay');
  const provider = await providerFor(factory);
  const invoice =
    input.invoiceId === undefined
      ? await openInvoiceToPay(caller.company, caller.plan)
      : await openInvoice(caller.companyId, input.invoiceId);

  // The same plan asked again (the wizard reopened): the charge already made is the one to pay.
  if (invoice.paymentId && invoice.planId === plan.id && invoice.value === plan.value) {
    return answer(invoice, invoice.paymentId, await provider.pixQrCode(invoice.paymentId));
  }

  const { company } = caller;
  const customer = await provider.findOrCreateCustomer({
    externalReference: `conversa-company-${company.id}`,
    name: `${input.firstName} ${input.lastName}`.trim(),
    email: company.email,
    ...(input.cpfCnpj ? { cpfCnpj: input.cpfCnpj } : {}),
    postalCode: input.zipcode,
    address: input.address2,
    province: input.state,
    city: input.city,
    state: input.state,
  });
  const today = todayIso();
  const charge = await provider.createPixCharge({
    customer,
    value: plan.value,
    // A PIX charge cannot be due in the past; an overdue invoice is payable today.
    dueDate: laterDay(invoice.dueDate, today),
    description: `${plan.name}: ${company.name} (${invoice.dueDate})`,
    externalReference: chargeReference(company.id, invoice.id),
  });
  const attached = await attachCharge(
    company.id,
    invoice.id,
    { paymentId: charge.id, planId: plan.id, value: plan.value, detail: plan.name },
    invoice.paymentId,
  );
  if (!attached) {
    await cancelQuietly(provider, charge.id);
    const now = await openInvoice(company.id, invoice.id);
    if (!now.paymentId) throw new ConflictError('ERR_INVOICE_ALREADY_PAID');
    return answer(now, now.paymentId, await provider.pixQrCode(now.paymentId));
  }
  if (invoice.paymentId) await cancelQuietly(provider, invoice.paymentId);
  const updated: InvoiceRecord = { ...invoice, paymentId: charge.id, planId: plan.id, value: plan.value, detail: plan.name };
  return answer(updated, charge.id, await provider.pixQrCode(charge.id));
}
