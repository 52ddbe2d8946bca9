import { channels } from '@conversa/functions/contracts';
import type { CreatePromptInput, Prompt, UpdatePromptInput } from '@conversa/functions/contracts/prompts';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { promptChoiceKeys } from '../../../lib/lookups/bot-choices.ts';
import { refreshQueues } from '../../../lib/lookups/queues.ts';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';

export type { Prompt };

/** Under the bot selects' root (`['prompts']`), so one invalidation refreshes the page and the queue/connection selects. */
export const promptKeys = {
  all: promptChoiceKeys.all,
  list: (searchParam: string) => [...promptChoiceKeys.all, 'list', searchParam] as const,
};

/** GET /prompt: the company's prompts (a handful, one answer), with the key as its hint and queue.name. */
export const promptsQueryOptions = (searchParam: string) =>
  queryOptions({
    queryKey: promptKeys.list(searchParam),
    queryFn: async () => (await api<{ prompts: Prompt[] }>('/prompt', { query: searchParam ? { searchParam } : {} })).prompts,
  });
export const usePrompts = (searchParam: string) => useQuery(promptsQueryOptions(searchParam));

const refreshPrompts = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: promptKeys.all });

export function useSavePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { id?: number; input: Partial<CreatePromptInput> | UpdatePromptInput }) =>
      args.id
        ? api<Prompt>(`/prompt/${args.id}`, { method: 'PUT', body: args.input })
        : api<Prompt>('/prompt', { method: 'POST', body: args.input }),
    // The prompt's queue is that queue's prompt too (one link): the queue dialogs show the change.
    onSuccess: () => Promise.all([refreshPrompts(queryClient), refreshQueues(queryClient)]),
  });
}

export function useDeletePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<{ message: string }>(`/prompt/${id}`, { method: 'DELETE' }),
    onSuccess: () => Promise.all([refreshPrompts(queryClient), refreshQueues(queryClient)]),
  });
}

/** `company-{id}-prompt` (ids only): another admin's change shows here too. */
export function usePromptsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId ? channels.prompt(companyId) : undefined, () => invalidateOnce(queryClient, promptKeys.all));
}
