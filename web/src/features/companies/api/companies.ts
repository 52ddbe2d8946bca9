import type { Company, CompanyInput } from '@conversa/functions/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { companyKeys } from '../../../lib/lookups/companies.ts';

/** The list is shared with the Audit tab's company filter (lib/lookups/companies.ts). */
export { fetchCompanies, useCompanies } from '../../../lib/lookups/companies.ts';

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
