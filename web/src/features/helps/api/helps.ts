import type { Help, HelpInput } from '@conversa/functions/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const helpKeys = {
  all: ['helps'] as const,
  list: () => [...helpKeys.all, 'list'] as const,
};

/** GET /helps/list: the platform's help videos. */
export const fetchHelps = () => api<Help[]>('/helps/list');
export const helpsQueryOptions = () => queryOptions({ queryKey: helpKeys.list(), queryFn: fetchHelps });
export const useHelps = () => useQuery(helpsQueryOptions());

export const createHelp = (input: HelpInput) => api<Help>('/helps', { method: 'POST', body: input });
export const updateHelp = (id: number, input: HelpInput) => api<Help>(`/helps/${id}`, { method: 'PUT', body: input });
export const deleteHelp = (id: number) => api<unknown>(`/helps/${id}`, { method: 'DELETE' });

export function useSaveHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: HelpInput }) => (id ? updateHelp(id, input) : createHelp(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: helpKeys.all }),
  });
}

export function useDeleteHelp() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteHelp, onSuccess: () => queryClient.invalidateQueries({ queryKey: helpKeys.all }) });
}
