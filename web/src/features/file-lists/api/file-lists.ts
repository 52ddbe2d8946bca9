import type { FileList, FileListOption, FileListsPage } from '@conversa/functions/contracts/file-lists';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { putFile, requestUpload } from '../../../lib/direct-upload.ts';
import { fileListKeys, refreshFileLists } from '../../../lib/lookups/file-lists.ts';

export type { FileList, FileListOption };

export const fetchFileLists = (searchParam: string, pageNumber: number) =>
  api<FileListsPage>('/files', { query: { searchParam, pageNumber } });

export const fileListsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: fileListKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchFileLists(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });
export const useFileListsPages = (searchParam: string) => useInfiniteQuery(fileListsInfiniteQueryOptions(searchParam));

/** An option as the dialog edits it: a name, the file already stored, or a new file to upload. */
export interface DraftOption {
  id?: number;
  name: string;
  /** The stored file's name, when it has one. */
  mediaName?: string | null;
  file?: File;
}

export interface SaveFileList {
  id?: number;
  name: string;
  message: string;
  options: DraftOption[];
  /** Bytes sent so far out of the new files' total, while uploading. */
  onProgress?: (loaded: number, total: number) => void;
}

/**
 * Saves the list with its options' names (an option keeps its id, a new one gets one), then each new
 * file straight to the bucket (README: a presigned PUT granted by `POST /files/uploadList/{id}/uploads`),
 * then names the keys by option in one `POST /files/uploadList/{id}` `{ options: [{ id, key }] }`.
 */
export function useSaveFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name, message, options, onProgress }: SaveFileList) => {
      const body = { name, message, options: options.map((o) => ({ id: o.id, name: o.name })) };
      let saved = id
        ? await api<FileList>(`/files/${id}`, { method: 'PUT', body })
        : await api<FileList>('/files', { method: 'POST', body });
      // The server answers the options in the order they were sent.
      const uploads = options.flatMap((option, index) => {
        const optionId = saved.options[index]?.id;
        return option.file && optionId ? [{ optionId, file: option.file }] : [];
      });
      const total = uploads.reduce((sum, u) => sum + u.file.size, 0);
      let done = 0;
      const keys: { id: number; key: string }[] = [];
      for (const { optionId, file } of uploads) {
        const grant = await requestUpload(`/files/uploadList/${saved.id}`, file);
        await putFile(grant, file, (loaded) => onProgress?.(done + loaded, total));
        done += file.size;
        keys.push({ id: optionId, key: grant.key });
      }
      if (keys.length) saved = await api<FileList>(`/files/uploadList/${saved.id}`, { method: 'POST', body: { options: keys } });
      return saved;
    },
    onSettled: () => refreshFileLists(queryClient),
  });
}

export function useDeleteFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/files/${id}`, { method: 'DELETE' }),
    onSuccess: () => refreshFileLists(queryClient),
  });
}
