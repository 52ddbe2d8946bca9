import type { Company, ScheduleEntry } from '@conversa/functions/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /companies/{id}: one's own company, for its opening hours. */
export const fetchCompany = (id: number) => api<Company>(`/companies/${id}`);
export const companyQueryOptions = (id: number) => queryOptions({ queryKey: ['companies', id], queryFn: () => fetchCompany(id) });
export const useCompany = (id: number | undefined) => useQuery({ ...companyQueryOptions(id ?? 0), enabled: Boolean(id) });

/** PUT /companies/{id}/schedules (admin): the seven entries of company hours. */
export const updateCompanySchedules = (id: number, schedules: ScheduleEntry[]) =>
  api<Company>(`/companies/${id}/schedules`, { method: 'PUT', body: { schedules } });

export function useUpdateCompanySchedules(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedules: ScheduleEntry[]) => updateCompanySchedules(id, schedules),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['companies', id] }),
  });
}
