import type { Company, PublicPlan, SignupInput } from '@conversa/functions/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The sign-up page's own query: the public plan list, a root apart from the super admin's plans (features/plans). */
export const signupKeys = {
  publicPlans: () => ['publicPlans'] as const,
};

/** GET /plans/list (public): the plans a new company can choose. */
export const fetchPublicPlans = () => api<PublicPlan[]>('/plans/list', { anonymous: true });
export const publicPlansQueryOptions = () =>
  queryOptions({ queryKey: signupKeys.publicPlans(), queryFn: fetchPublicPlans, staleTime: 5 * 60_000 });
export const usePublicPlans = () => useQuery(publicPlansQueryOptions());

/** POST /companies/cadastro (public): a company on a 3-day MENSAL trial with its first admin. */
export const signup = (input: SignupInput & { companyId?: number }) =>
  api<Company>('/companies/cadastro', { method: 'POST', body: input, anonymous: true });
export const useSignup = () => useMutation({ mutationFn: signup });
