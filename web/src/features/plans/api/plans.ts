import type { Plan, PlanInput } from '@conversa/functions/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const planKeys = {
  all: ['plans'] as const,
  list: () => [...planKeys.all, 'all'] as const,
};

/** GET /plans/all (super): every plan with its limits and flags. */
export const fetchPlans = () => api<Plan[]>('/plans/all');
export const plansQueryOptions = () => queryOptions({ queryKey: planKeys.list(), queryFn: fetchPlans });
export const usePlans = (enabled = true) => useQuery({ ...plansQueryOptions(), enabled });

export const createPlan = (input: PlanInput) => api<Plan>('/plans', { method: 'POST', body: input });
export const updatePlan = (id: number, input: PlanInput) => api<Plan>(`/plans/${id}`, { method: 'PUT', body: input });
export const deletePlan = (id: number) => api<unknown>(`/plans/${id}`, { method: 'DELETE' });

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: PlanInput }) => (id ? updatePlan(id, input) : createPlan(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deletePlan, onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }) });
}
