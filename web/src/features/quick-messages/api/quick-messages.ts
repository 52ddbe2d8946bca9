import type { CreateQuickMessageInput, UpdateQuickMessageInput } from '@conversa/functions/contracts/quick-message-requests';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { uploadAttachment } from '../../../lib/direct-upload.ts';
import { quickMessageKeys, refreshQuickMessages } from '../../../lib/lookups/quick-messages.ts';

/** SPEC 3 "Quick message" as the API answers it; `mediaPath` is the `/public/...` route, or null. */
export interface QuickMessage {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  isMedia: boolean;
  mediaPath: string | null;
  mediaName: string;
  userId: number;
}

export interface QuickMessagesPage {
  records: QuickMessage[];
  hasMore: boolean;
}

export const fetchQuickMessages = (searchParam: string, pageNumber: number) =>
  api<QuickMessagesPage>('/quick-messages', { query: { searchParam, pageNumber } });

export const quickMessagesInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: quickMessageKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchQuickMessages(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useQuickMessagesPage = (searchParam: string) => useInfiniteQuery(quickMessagesInfiniteQueryOptions(searchParam));

/** The file goes to the bucket itself (any size up to the media limit), then becomes the quick message's media. */
export const uploadQuickMessageMedia = (id: number, file: File) => uploadAttachment<QuickMessage>(`/quick-messages/${id}`, file);

export interface SaveQuickMessage {
  id?: number;
  input: CreateQuickMessageInput | UpdateQuickMessageInput;
  /** A new attachment to upload, or `null` to remove the current one; undefined leaves it. */
  attachment?: File | null;
}

/** Saves the fields, then the attachment (it needs the quick message's id). */
export function useSaveQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input, attachment }: SaveQuickMessage) => {
      let saved = id
        ? await api<QuickMessage>(`/quick-messages/${id}`, { method: 'PUT', body: input })
        : await api<QuickMessage>('/quick-messages', { method: 'POST', body: input });
      if (attachment) saved = await uploadQuickMessageMedia(saved.id, attachment);
      else if (attachment === null && saved.isMedia)
        saved = await api<QuickMessage>(`/quick-messages/${saved.id}/media-upload`, { method: 'DELETE' });
      return saved;
    },
    onSettled: () => refreshQuickMessages(queryClient),
  });
}

export function useDeleteQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/quick-messages/${id}`, { method: 'DELETE' }),
    onSuccess: () => refreshQuickMessages(queryClient),
  });
}
