import type { CreateQuickMessageInput, UpdateQuickMessageInput } from '@conversa/functions/contracts/quick-message-requests';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { runtimeConfig } from '../../../config/runtime-config.ts';
import { ApiError, api } from '../../../lib/api-client.ts';
import { currentIdToken } from '../../../lib/auth/tokens.ts';

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

/**
 * Every quick messages query lives under this key; the conversation's '/' picker reads
 * `['quickMessages','list',...]`, so one invalidation refreshes it too.
 */
export const quickMessagesKey = ['quickMessages'] as const;

export const fetchQuickMessages = (searchParam: string, pageNumber: number) =>
  api<QuickMessagesPage>('/quick-messages', { query: { searchParam, pageNumber } });

export const quickMessagesInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: [...quickMessagesKey, 'page', searchParam],
    queryFn: ({ pageParam }) => fetchQuickMessages(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useQuickMessagesPage = (searchParam: string) => useInfiniteQuery(quickMessagesInfiniteQueryOptions(searchParam));

async function postFile(id: number, file: File, forceRefresh: boolean): Promise<Response> {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', file, file.name);
  const token = await currentIdToken(forceRefresh);
  return fetch(`${runtimeConfig().apiUrl}/quick-messages/${id}/media-upload`, {
    method: 'POST',
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token.jwt}` } : {}) },
    body: form,
  });
}

/** POST /quick-messages/{id}/media-upload (SPEC 7: multipart file, typeArch=quickMessage). The shared client speaks JSON only. */
export async function uploadQuickMessageMedia(id: number, file: File): Promise<QuickMessage> {
  let response = await postFile(id, file, false);
  if (response.status === 403) response = await postFile(id, file, true);
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) throw new ApiError(response.status, body as never);
  return body as QuickMessage;
}

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
    onSettled: () => queryClient.invalidateQueries({ queryKey: quickMessagesKey }),
  });
}

export function useDeleteQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/quick-messages/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickMessagesKey }),
  });
}
