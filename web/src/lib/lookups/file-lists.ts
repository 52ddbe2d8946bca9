import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

/**
 * File lists (SPEC 3 "File list"): the Files screen pages through `fileListKeys.page(search)`
 * (features/file-lists); the campaign dialog's picker reads `fileListKeys.list(companyId)`.
 */
export const fileListKeys = {
  all: ['fileLists'] as const,
  list: (companyId: number | undefined) => [...fileListKeys.all, 'list', companyId] as const,
  pages: () => [...fileListKeys.all, 'page'] as const,
  page: (searchParam: string) => [...fileListKeys.pages(), searchParam] as const,
  detail: (id: number) => [...fileListKeys.all, 'detail', id] as const,
};

export interface FileListOption {
  id: number;
  name: string;
}

/** GET /files?companyId= (SPEC 7): the company's file lists, answered as `{ files }` (or the bare array). */
export async function fetchFileListOptions(companyId: number | undefined): Promise<FileListOption[]> {
  const data = await api<{ files?: FileListOption[] } | FileListOption[]>('/files', { query: { companyId } });
  return Array.isArray(data) ? data : (data.files ?? []);
}
export const fileListOptionsQueryOptions = (companyId: number | undefined) =>
  queryOptions({
    queryKey: fileListKeys.list(companyId),
    queryFn: () => fetchFileListOptions(companyId),
    enabled: Boolean(companyId),
    // Until the file lists' API is served the picker shows none rather than retrying a 404.
    retry: false,
    staleTime: 30_000,
  });
export const useFileListOptions = (companyId: number | undefined) => useQuery(fileListOptionsQueryOptions(companyId));

export const refreshFileLists = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: fileListKeys.all });
