import type { Contact } from '@conversa/functions/contracts/contacts';
import type { CreateScheduleInput, Schedule, SchedulesPage, UpdateScheduleInput } from '@conversa/functions/contracts/schedule-requests';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { uploadAttachment } from '../../../lib/direct-upload.ts';

export type { Schedule };

/** Every schedules query lives under this key: one invalidation (a save, a realtime event) refreshes them all. */
export const schedulesKey = ['schedules'] as const;

export const fetchSchedules = (searchParam: string, pageNumber: number) =>
  api<SchedulesPage>('/schedules', { query: { searchParam, pageNumber } });

export const schedulesInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: [...schedulesKey, 'page', searchParam],
    queryFn: ({ pageParam }) => fetchSchedules(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useSchedulesPages = (searchParam: string) => useInfiniteQuery(schedulesInfiniteQueryOptions(searchParam));

export const useSchedule = (id: number | undefined) =>
  useQuery({ queryKey: [...schedulesKey, 'detail', id], queryFn: () => api<Schedule>(`/schedules/${id}`), enabled: id !== undefined });

/** The dialog's contact picker: the contacts search (3+ characters, SPEC 5), same cache key as the contacts screens. */
export const CONTACT_SEARCH_MIN = 3;
export const useContactOptions = (searchParam: string) =>
  useQuery({
    queryKey: ['contacts', 'search', searchParam] as const,
    queryFn: () => api<{ contacts: Contact[]; hasMore: boolean }>('/contacts', { query: { searchParam, pageNumber: 1 } }),
    enabled: searchParam.trim().length >= CONTACT_SEARCH_MIN,
    retry: false,
  });

/** A contact named by id (`?contactId=` or the conversation), same key as the contact drawer's. */
export const useContactById = (contactId: number | undefined) =>
  useQuery({
    queryKey: ['contacts', 'detail', contactId] as const,
    queryFn: () => api<Contact>(`/contacts/${contactId}`),
    enabled: contactId !== undefined,
  });

/** The file goes to the bucket itself (any size up to the media limit), then becomes the schedule's media. */
export const uploadScheduleMedia = (id: number, file: File) => uploadAttachment<Schedule>(`/schedules/${id}`, file);

export interface SaveSchedule {
  id?: number;
  input: CreateScheduleInput | UpdateScheduleInput;
  /** A new attachment to upload, or `null` to remove the current one; undefined leaves it. */
  attachment?: File | null;
}

/** Saves the fields, then the attachment (it needs the schedule's id). */
export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input, attachment }: SaveSchedule) => {
      let saved = id
        ? await api<Schedule>(`/schedules/${id}`, { method: 'PUT', body: input })
        : await api<Schedule>('/schedules', { method: 'POST', body: input });
      if (attachment) saved = await uploadScheduleMedia(saved.id, attachment);
      else if (attachment === null && saved.mediaPath)
        saved = await api<Schedule>(`/schedules/${saved.id}/media-upload`, { method: 'DELETE' });
      return saved;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: schedulesKey }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/schedules/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesKey }),
  });
}
