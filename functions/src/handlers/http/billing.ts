/**
 * Billing's actions (SPEC 7 "Plans and companies", BEHAVIOUR "Billing"), served by the companies
 * Lambda (handlers/http/companies.ts): a Lambda of its own would cost the region's stack five more
 * resources than its budget (infra/test/budget.test.ts) has left.
 * - GET /invoices/all: the company's own invoices, for its admins, also while expired.
 * - POST /subscription: the wizard's data become a PIX charge for an invoice (domain/billing/subscription.ts).
 * - POST /subscription/webhook: Asaas' calls, public, verified by the access token header before the
 *   body is even validated (domain/billing/payment-webhook.ts).
 */
import { asaasProvider } from '#adapters/asaas';
import { env } from '#commons/env';
import { listInvoicesQuerySchema, paymentNotificationSchema, subscriptionInputSchema } from '#contracts/billing';
import { listInvoicesFor } from '#domain/billing/invoices';
import { assertWebhookToken, handlePaymentNotification } from '#domain/billing/payment-webhook';
import { subscribe } from '#domain/billing/subscription';
import { requireIdentity } from '#http/access';
import type { Action } from '#http/types';
import { parseInput } from '#http/validate';

export const billingActions: Record<string, Action> = {
  'GET /invoices/all': async (ctx) => listInvoicesFor(requireIdentity(ctx), parseInput(listInvoicesQuerySchema, ctx.query, 'query')),
  'POST /subscription': async (ctx) => subscribe(requireIdentity(ctx), parseInput(subscriptionInputSchema, ctx.body ?? {}), asaasProvider),
  'POST /subscription/webhook': async (ctx) => {
    assertWebhookToken(ctx.event.headers?.['asaas-access-token'], env.asaasWebhookToken);
    const outcome = await handlePaymentNotification(parseInput(paymentNotificationSchema, ctx.body ?? {}));
    return { received: true, outcome };
  },
};
