import type { CreateTagInput, UpdateTagInput } from '@conversa/functions/contracts/tag-requests';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { refreshTags, tagKeys } from '../../../lib/lookups/tags.ts';

/** SPEC 3 "Tag" as GET /tags answers it. */
export interface Tag {
  id: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  userId: number | null;
  ticketsCount: number;
}

export interface TagsPage {
  tags: Tag[];
  hasMore: boolean;
}

/** GET /tags?searchParam&pageNumber: a page of the company's tags, name order. */
export const fetchTags = (searchParam: string, pageNumber: number) => api<TagsPage>('/tags', { query: { searchParam, pageNumber } });

export const tagsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: tagKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchTags(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useTags = (searchParam: string) => useInfiniteQuery(tagsInfiniteQueryOptions(searchParam));

function useInvalidateTags() {
  const queryClient = useQueryClient();
  return () => refreshTags(queryClient);
}

export function useSaveTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (args: { id?: number; input: CreateTagInput | UpdateTagInput }) =>
      args.id ? api<Tag>(`/tags/${args.id}`, { method: 'PUT', body: args.input }) : api<Tag>('/tags', { method: 'POST', body: args.input }),
    onSuccess: invalidate,
  });
}

export function useDeleteTag() {
  const invalidate = useInvalidateTags();
  return useMutation({ mutationFn: (id: number) => api<unknown>(`/tags/${id}`, { method: 'DELETE' }), onSuccess: invalidate });
}

/** The server's default colour for a new tag (contracts/tag-requests). */
export const DEFAULT_TAG_COLOR = '#A4CCCC';
