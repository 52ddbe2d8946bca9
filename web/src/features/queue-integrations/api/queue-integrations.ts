import type {
  CreateIntegrationInput,
  QueueIntegration,
  TestSessionResult,
  UpdateIntegrationInput,
} from '@conversa/functions/contracts/queue-integrations';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { fetchQueueIntegrations, queueIntegrationKeys, refreshQueueIntegrations } from '../../../lib/lookups/bot-choices.ts';

export type { QueueIntegration };

export const queueIntegrationsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: queueIntegrationKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchQueueIntegrations(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

/** GET /queueIntegration?searchParam&pageNumber: the Integrations screen's pages (name order). */
export const useQueueIntegrations = (searchParam: string) => useInfiniteQuery(queueIntegrationsInfiniteQueryOptions(searchParam));

export function useSaveQueueIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { id?: number; input: Partial<CreateIntegrationInput> | UpdateIntegrationInput }) =>
      args.id
        ? api<QueueIntegration>(`/queueIntegration/${args.id}`, { method: 'PUT', body: args.input })
        : api<QueueIntegration>('/queueIntegration', { method: 'POST', body: args.input }),
    onSuccess: () => refreshQueueIntegrations(queryClient),
  });
}

export function useDeleteQueueIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/queueIntegration/${id}`, { method: 'DELETE' }),
    onSuccess: () => refreshQueueIntegrations(queryClient),
  });
}

/** POST /queueIntegration/testSession: one 'Olá' to Dialogflow with the dialog's project, credentials and language. */
export const testDialogflowSession = (input: { projectName: string; jsonContent: string; language: string; id?: number }) =>
  api<TestSessionResult>('/queueIntegration/testSession', { method: 'POST', body: input });
