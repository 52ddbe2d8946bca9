import type { ContactListReloadEvent, RecordEvent } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import type { ContactList } from '@conversa/functions/contracts/contact-lists';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * Contact lists (campaign audiences): the Contact lists screen pages through `contactListKeys.page`
 * and opens one list's contacts under `contactListKeys.items(listId, search)` (features/contact-lists);
 * the campaign dialog's picker reads `contactListKeys.list()`.
 */
export const contactListKeys = {
  all: ['contactLists'] as const,
  list: () => [...contactListKeys.all, 'list'] as const,
  pages: () => [...contactListKeys.all, 'page'] as const,
  page: (searchParam: string) => [...contactListKeys.pages(), searchParam] as const,
  detail: (id: number) => [...contactListKeys.all, 'detail', id] as const,
  allItems: () => [...contactListKeys.all, 'items'] as const,
  listItems: (contactListId: number) => [...contactListKeys.allItems(), contactListId] as const,
  items: (contactListId: number, searchParam: string) => [...contactListKeys.listItems(contactListId), searchParam] as const,
};

export type ContactListOption = Pick<ContactList, 'id' | 'name' | 'contactsCount'>;

/** GET /contact-lists/list: every list of the company, for the campaign dialog's picker. */
export const fetchContactListOptions = () => api<ContactListOption[]>('/contact-lists/list');
export const contactListOptionsQueryOptions = () =>
  queryOptions({ queryKey: contactListKeys.list(), queryFn: fetchContactListOptions, staleTime: 30_000 });
export const useContactListOptions = (enabled = true) => useQuery({ ...contactListOptionsQueryOptions(), enabled });

/** A list (or its contacts) changed: every screen showing lists reads them again. */
export const refreshContactLists = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: contactListKeys.all });

/**
 * `company-{id}-ContactList` (a list created, renamed, recounted or deleted) and
 * `company-{id}-ContactListItem` (one contact): the screens showing them refetch. Mounted by the
 * screens that show lists, so a company without campaigns listens to nothing.
 */
export function useContactListsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<RecordEvent<ContactList>>(companyId ? channels.contactList(companyId) : undefined, () =>
    invalidateOnce(queryClient, contactListKeys.list(), contactListKeys.pages()),
  );
}

/** `company-{id}-ContactListItem` and the list's own `-{listId}` reload (an upload): that list's pages refetch. */
export function useContactListItemsLive(companyId: number | undefined, contactListId: number | undefined): void {
  const queryClient = useQueryClient();
  const refetch = () => {
    if (contactListId) invalidateOnce(queryClient, contactListKeys.listItems(contactListId));
  };
  useRealtimeEvent(companyId ? channels.contactListItem(companyId) : undefined, refetch);
  useRealtimeEvent<ContactListReloadEvent>(
    companyId && contactListId ? channels.contactListItems(companyId, contactListId) : undefined,
    refetch,
  );
}
