import type { Company, LoginResponse, PlanFlag, SessionUser } from '@conversa/functions/contracts';
import type { MfaChallengeResponse } from '@conversa/functions/contracts/mfa';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { companyKeys } from '../lookups/companies.ts';

/** The session's keys: a change to the signed-in user, their company or its settings refreshes `me`. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

/** GET /auth/me: the signed-in user with the company's due date and settings. */
export const fetchMe = () => api<SessionUser>('/auth/me');
export const meQueryOptions = () => queryOptions({ queryKey: authKeys.me(), queryFn: fetchMe, staleTime: 60_000 });

/**
 * POST /auth/login as the web app (issue 21): the password goes to our API, which counts wrong ones
 * and records them in the audit trail, and answers the session (or the second factor's challenge).
 */
export const passwordLogin = (email: string, password: string) =>
  api<Partial<LoginResponse> & Partial<MfaChallengeResponse>>('/auth/login', {
    method: 'POST',
    body: { email, password, web: true },
    anonymous: true,
  });

/** POST /auth/mfa/challenge: the second factor's code completes the claim (issue 21); answers what the claim would. */
export const passMfaChallenge = (challenge: string, code: string) =>
  api<Partial<LoginResponse>>('/auth/mfa/challenge', { method: 'POST', body: { challenge, code }, anonymous: true });

export const logoutSession = () => api<unknown>('/auth/logout', { method: 'DELETE' });

type PlanFlags = Record<PlanFlag, boolean>;
type CompanyPlan = Partial<Company> & { plan?: PlanFlags } & Partial<PlanFlags>;

/** GET /companies/listPlan/{companyId}: the company's plan flags, which gate routes and menu entries. */
export const fetchCompanyPlan = async (companyId: number): Promise<PlanFlags | undefined> => {
  const data = await api<CompanyPlan>(`/companies/listPlan/${companyId}`);
  // Accept the plan nested in the company (as the spec's product sends it) or the plan itself.
  return data.plan ?? (typeof data.useCampaigns === 'boolean' ? (data as PlanFlags) : undefined);
};
export const companyPlanQueryOptions = (companyId: number | undefined) =>
  queryOptions({
    queryKey: companyKeys.plan(companyId),
    queryFn: () => fetchCompanyPlan(companyId ?? 0),
    enabled: Boolean(companyId),
    staleTime: 5 * 60_000,
  });
export const useCompanyPlan = (companyId: number | undefined) => useQuery(companyPlanQueryOptions(companyId));
