import type { QuickMessageEvent } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * Quick messages: the Quick messages screen pages through `quickMessageKeys.page(search)` (its own
 * endpoint, in features/quick-messages); the conversation's '/' shortcut reads
 * `quickMessageKeys.list(companyId, userId)`.
 */
export const quickMessageKeys = {
  all: ['quickMessages'] as const,
  lists: () => [...quickMessageKeys.all, 'list'] as const,
  list: (companyId: number | undefined, userId: number | undefined) => [...quickMessageKeys.lists(), companyId, userId] as const,
  pages: () => [...quickMessageKeys.all, 'page'] as const,
  page: (searchParam: string) => [...quickMessageKeys.pages(), searchParam] as const,
};

export interface QuickMessageOption {
  id?: number;
  shortcode: string;
  message: string;
  /** The attachment's `/public/...` route when the quick reply carries a file. */
  mediaPath?: string | null;
  isMedia?: boolean;
  mediaName?: string | null;
}

/** GET /quick-messages/list (SPEC 7): the quick replies the user may use (company-wide and their own). */
export const fetchQuickMessageOptions = (companyId: number | undefined, userId: number | undefined) =>
  api<QuickMessageOption[]>('/quick-messages/list', { query: { companyId, userId } });
export const quickMessageOptionsQueryOptions = (companyId: number | undefined, userId: number | undefined) =>
  queryOptions({
    queryKey: quickMessageKeys.list(companyId, userId),
    queryFn: () => fetchQuickMessageOptions(companyId, userId),
    enabled: Boolean(companyId && userId),
    retry: false,
    staleTime: 60_000,
  });
export const useQuickMessageOptions = (companyId: number | undefined, userId: number | undefined) =>
  useQuery(quickMessageOptionsQueryOptions(companyId, userId));

/** A quick message changed (ours or another user's): every screen showing them reads them again. */
export const refreshQuickMessages = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: quickMessageKeys.all });

/**
 * `company-{id}-quickmessage` carries ids only (a private one is not for every socket): refetch what
 * we may see. Mounted app-wide (src/app/realtime-bridge.tsx).
 */
export function useQuickMessagesLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<QuickMessageEvent>(companyId ? channels.quickMessage(companyId) : undefined, () =>
    invalidateOnce(queryClient, quickMessageKeys.all),
  );
}
