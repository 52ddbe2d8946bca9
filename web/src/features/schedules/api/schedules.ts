import type { CreateScheduleInput, Schedule, SchedulesPage, UpdateScheduleInput } from '@conversa/functions/contracts/schedule-requests';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { uploadAttachment } from '../../../lib/direct-upload.ts';

export type { Schedule };

/** Every schedules query lives under `all`: one invalidation (a save, a realtime event) refreshes them all. */
export const scheduleKeys = {
  all: ['schedules'] as const,
  page: (searchParam: string) => [...scheduleKeys.all, 'page', searchParam] as const,
  detail: (id: number | undefined) => [...scheduleKeys.all, 'detail', id] as const,
};

export const fetchSchedules = (searchParam: string, pageNumber: number) =>
  api<SchedulesPage>('/schedules', { query: { searchParam, pageNumber } });

export const schedulesInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: scheduleKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchSchedules(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useSchedulesPages = (searchParam: string) => useInfiniteQuery(schedulesInfiniteQueryOptions(searchParam));

export const useSchedule = (id: number | undefined) =>
  useQuery({ queryKey: scheduleKeys.detail(id), queryFn: () => api<Schedule>(`/schedules/${id}`), enabled: id !== undefined });

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
    onSettled: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/schedules/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}
