import type { RecordEvent } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import type { FileList, FileListsPage } from '@conversa/functions/contracts/file-lists';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

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

/** A picker holds every list: the pages of GET /files?companyId= (SPEC 7), followed to the end. */
const MAX_PICKER_PAGES = 50;

export async function fetchFileListOptions(companyId: number | undefined): Promise<FileListOption[]> {
  const all: FileListOption[] = [];
  for (let pageNumber = 1; pageNumber <= MAX_PICKER_PAGES; pageNumber++) {
    const page = await api<FileListsPage>('/files', { query: { companyId, pageNumber } });
    all.push(...page.files.map(({ id, name }) => ({ id, name })));
    if (!page.hasMore) break;
  }
  return all;
}
export const fileListOptionsQueryOptions = (companyId: number | undefined) =>
  queryOptions({
    queryKey: fileListKeys.list(companyId),
    queryFn: () => fetchFileListOptions(companyId),
    enabled: Boolean(companyId),
    staleTime: 30_000,
  });
export const useFileListOptions = (companyId: number | undefined) => useQuery(fileListOptionsQueryOptions(companyId));

export const refreshFileLists = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: fileListKeys.all });

/** `company-{id}-file`: a list created, changed or deleted elsewhere; the Files page and the picker refetch. */
export function useFileListsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<RecordEvent<FileList>>(companyId ? channels.fileList(companyId) : undefined, () =>
    invalidateOnce(queryClient, fileListKeys.all),
  );
}
