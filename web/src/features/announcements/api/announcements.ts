import type {
  Announcement,
  AnnouncementsPage,
  CreateAnnouncementInput,
  UpdateAnnouncementInput,
} from '@conversa/functions/contracts/announcements';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { runtimeConfig } from '../../../config/runtime-config.ts';
import { ApiError, api } from '../../../lib/api-client.ts';
import { currentIdToken } from '../../../lib/auth/tokens.ts';
import { uploadAttachment } from '../../../lib/direct-upload.ts';

export type { Announcement };

export const announcementKeys = {
  all: ['announcements'] as const,
  page: (searchParam: string) => [...announcementKeys.all, 'page', searchParam] as const,
  /** The top bar's popover: the first page of what the user may read (the active ones). */
  active: () => [...announcementKeys.all, 'active'] as const,
};

/** Apart from the lists: an image never changes under its key, so list refetches must not refetch it. */
export const announcementImageKeys = {
  one: (mediaPath: string | null) => ['announcement-image', mediaPath] as const,
};

export const fetchAnnouncements = (searchParam: string, pageNumber: number) =>
  api<AnnouncementsPage>('/announcements', { query: { searchParam, pageNumber } });

export const announcementsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: announcementKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchAnnouncements(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useAnnouncementsPage = (searchParam: string) => useInfiniteQuery(announcementsInfiniteQueryOptions(searchParam));

/** Super users read the inactive ones too (to manage them); the popover shows only what is live. */
export const activeAnnouncementsQueryOptions = () =>
  queryOptions({
    queryKey: announcementKeys.active(),
    queryFn: async () => (await fetchAnnouncements('', 1)).records.filter((record) => record.status),
  });

export const useActiveAnnouncements = () => useQuery(activeAnnouncementsQueryOptions());

export interface SaveAnnouncement {
  id?: number;
  input: CreateAnnouncementInput | UpdateAnnouncementInput;
  /** A new image to upload, or `null` to remove the current one; undefined leaves it. */
  image?: File | null;
}

/** Saves the fields, then the image (it needs the announcement's id): straight to the bucket. */
export function useSaveAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input, image }: SaveAnnouncement) => {
      let saved = id
        ? await api<Announcement>(`/announcements/${id}`, { method: 'PUT', body: input })
        : await api<Announcement>('/announcements', { method: 'POST', body: input });
      if (image) saved = await uploadAttachment<Announcement>(`/announcements/${saved.id}`, image);
      else if (image === null && saved.mediaPath)
        saved = await api<Announcement>(`/announcements/${saved.id}/media-upload`, { method: 'DELETE' });
      return saved;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
  });
}

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/announcements/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
  });
}

/**
 * The image is private media (`/public/...`, a presigned redirect after the API checks the reader):
 * fetched with the bearer and shown from an object URL, as the conversation's images are.
 */
async function fetchImage(mediaPath: string, forceRefresh = false): Promise<Blob> {
  const token = await currentIdToken(forceRefresh);
  const response = await fetch(`${runtimeConfig().apiUrl}${mediaPath}`, {
    headers: token ? { Authorization: `Bearer ${token.jwt}` } : {},
  });
  if (response.status === 403 && !forceRefresh) return fetchImage(mediaPath, true);
  if (!response.ok) throw new ApiError(response.status, undefined);
  return response.blob();
}

export function useAnnouncementImage(mediaPath: string | null): string | undefined {
  const blob = useQuery({
    queryKey: announcementImageKeys.one(mediaPath),
    queryFn: () => fetchImage(mediaPath ?? ''),
    enabled: Boolean(mediaPath),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!blob.data) return;
    const objectUrl = URL.createObjectURL(blob.data);
    setSrc(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob.data]);
  return mediaPath ? src : undefined;
}
