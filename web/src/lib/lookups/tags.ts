import type { TagEvent } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * The company's tags: the Tags screen pages through `tagKeys.page(search)` (its own endpoint, in
 * features/tags); the Search tab's filter and the conversation's tag picker read `tagKeys.list()`.
 */
export const tagKeys = {
  all: ['tags'] as const,
  list: () => [...tagKeys.all, 'list'] as const,
  pages: () => [...tagKeys.all, 'page'] as const,
  page: (searchParam: string) => [...tagKeys.pages(), searchParam] as const,
};

export interface TagOption {
  id: number;
  name: string;
  color: string;
}

/** GET /tags/list: every tag, for the filters and pickers. */
export const fetchTagOptions = () => api<TagOption[]>('/tags/list');
export const tagOptionsQueryOptions = () =>
  queryOptions({ queryKey: tagKeys.list(), queryFn: fetchTagOptions, retry: false, staleTime: 60_000 });
export const useTagOptions = (enabled = true) => useQuery({ ...tagOptionsQueryOptions(), enabled });

/** A tag was created, renamed, recoloured or deleted: every screen showing tags reads them again. */
export const refreshTags = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: tagKeys.all });

/** `company-{id}-tag`, mounted app-wide (src/app/realtime-bridge.tsx). */
export function useTagsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<TagEvent>(companyId ? channels.tag(companyId) : undefined, () => invalidateOnce(queryClient, tagKeys.all));
}
