import type { PublicPlan } from '@conversa/functions/contracts';
import { type SubscriptionPayment, subscriptionInputSchema } from '@conversa/functions/contracts/billing';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type * as z from 'zod';
import { api } from '../../../lib/api-client.ts';

/** Step 0 of the wizard (SPEC 4 "Subscription wizard"): the billing address, checked with the API's own rules. */
export const addressFormSchema = subscriptionInputSchema.pick({
  firstName: true,
  lastName: true,
  address2: true,
  city: true,
  state: true,
  zipcode: true,
  country: true,
  cpfCnpj: true,
});
export type AddressForm = z.input<typeof addressFormSchema> & { address2: string; cpfCnpj: string };

export const emptyAddress: AddressForm = {
  firstName: '',
  lastName: '',
  address2: '',
  city: '',
  state: '',
  zipcode: '',
  country: 'BR',
  cpfCnpj: '',
};

export const billingKeys = {
  all: ['billing'] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
};

/** GET /plans/list (public): the plans the wizard offers. */
export const billingPlansQueryOptions = () =>
  queryOptions({ queryKey: billingKeys.plans(), queryFn: () => api<PublicPlan[]>('/plans/list', { anonymous: true }) });
export const useBillingPlans = () => useQuery(billingPlansQueryOptions());

/**
 * POST /subscription: the PIX charge of an invoice, answered as its QR payload. Without invoiceId
 * ("Subscribe now") the server pays the company's open invoice, issuing it when there is none.
 */
export function useSubscribe() {
  return useMutation({
    mutationFn: (input: AddressForm & { invoiceId?: number; plan: number }) =>
      api<SubscriptionPayment>('/subscription', { method: 'POST', body: input }),
  });
}
