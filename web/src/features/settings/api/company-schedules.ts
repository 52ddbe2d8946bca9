import type { Company, ScheduleEntry } from '@conversa/functions/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { companyKeys } from '../../../lib/lookups/companies.ts';

/** PUT /companies/{id}/schedules (admin): the seven entries of company hours. */
export const updateCompanySchedules = (id: number, schedules: ScheduleEntry[]) =>
  api<Company>(`/companies/${id}/schedules`, { method: 'PUT', body: { schedules } });

export function useUpdateCompanySchedules(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedules: ScheduleEntry[]) => updateCompanySchedules(id, schedules),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyKeys.detail(id) }),
  });
}
