import type { Company, CompanyInput } from '@conversa/functions/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { companyKeys } from '../../../lib/lookups/companies.ts';

/** GET /companies/list (super): every company. */
export const fetchCompanies = () => api<Company[]>('/companies/list');
export const companiesQueryOptions = () => queryOptions({ queryKey: companyKeys.list(), queryFn: fetchCompanies });
export const useCompanies = () => useQuery(companiesQueryOptions());

export const createCompany = (input: CompanyInput) => api<Company>('/companies', { method: 'POST', body: input });
export const updateCompany = (id: number, input: CompanyInput) => api<Company>(`/companies/${id}`, { method: 'PUT', body: input });
export const deleteCompany = (id: number) => api<unknown>(`/companies/${id}`, { method: 'DELETE' });

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: CompanyInput }) => (id ? updateCompany(id, input) : createCompany(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKeys.all }),
  });
}

export function useDeleteCompany() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCompany, onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKeys.all }) });
}
