import type { Company } from '@conversa/functions/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

/**
 * Companies: the super admin's Companies tab and Audit tab list them (features/companies, audit), Settings reads one's
 * own company for its hours, and the session reads the company's plan flags
 * (lib/auth/session-api.ts). One root, so editing a company refreshes all three.
 */
export const companyKeys = {
  all: ['companies'] as const,
  list: () => [...companyKeys.all, 'list'] as const,
  detail: (id: number) => [...companyKeys.all, id] as const,
  plan: (id: number | undefined) => [...companyKeys.all, id, 'plan'] as const,
};

/** GET /companies/{id}: one company (one's own, for its opening hours). */
export const fetchCompany = (id: number) => api<Company>(`/companies/${id}`);
export const companyQueryOptions = (id: number) => queryOptions({ queryKey: companyKeys.detail(id), queryFn: () => fetchCompany(id) });
export const useCompany = (id: number | undefined) => useQuery({ ...companyQueryOptions(id ?? 0), enabled: Boolean(id) });

/** GET /companies/list (super): every company. */
export const fetchCompanies = () => api<Company[]>('/companies/list');
export const companiesQueryOptions = () => queryOptions({ queryKey: companyKeys.list(), queryFn: fetchCompanies });
export const useCompanies = (enabled = true) => useQuery({ ...companiesQueryOptions(), enabled });
