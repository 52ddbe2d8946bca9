import type {
  ContactList,
  ContactListInput,
  ContactListItem,
  ContactListItemsPage,
  ContactListsPage,
  CreateContactListItemInput,
  UpdateContactListItemInput,
} from '@conversa/functions/contracts/contact-lists';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { contactListKeys, refreshContactLists } from '../../../lib/lookups/contact-lists.ts';

export type { ContactList, ContactListItem };

/** GET /contact-lists (SPEC 7): `records` and `hasMore`, 20 a page. */
export const fetchContactLists = (searchParam: string, pageNumber: number) =>
  api<ContactListsPage>('/contact-lists', { query: { searchParam, pageNumber } });

export const contactListsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: contactListKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchContactLists(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });
export const useContactListsPages = (searchParam: string) => useInfiniteQuery(contactListsInfiniteQueryOptions(searchParam));

export const contactListQueryOptions = (id: number) =>
  queryOptions({ queryKey: contactListKeys.detail(id), queryFn: () => api<ContactList>(`/contact-lists/${id}`) });
export const useContactList = (id: number) => useQuery(contactListQueryOptions(id));

/** GET /contact-list-items: one list's contacts, paged by the server's signed cursor (deep pages stay cheap). */
export const fetchContactListItems = (contactListId: number, searchParam: string, cursor: string | undefined) =>
  api<ContactListItemsPage>('/contact-list-items', { query: { contactListId, searchParam, cursor } });

export const contactListItemsInfiniteQueryOptions = (contactListId: number, searchParam: string) =>
  infiniteQueryOptions({
    queryKey: contactListKeys.items(contactListId, searchParam),
    queryFn: ({ pageParam }) => fetchContactListItems(contactListId, searchParam, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  });
export const useContactListItems = (contactListId: number, searchParam: string) =>
  useInfiniteQuery(contactListItemsInfiniteQueryOptions(contactListId, searchParam));

export function useSaveContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ContactListInput }) =>
      id
        ? api<ContactList>(`/contact-lists/${id}`, { method: 'PUT', body: input })
        : api<ContactList>('/contact-lists', { method: 'POST', body: input }),
    onSettled: () => refreshContactLists(queryClient),
  });
}

export function useDeleteContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/contact-lists/${id}`, { method: 'DELETE' }),
    onSuccess: () => refreshContactLists(queryClient),
  });
}

export interface SaveContactListItem {
  id?: number;
  input: CreateContactListItemInput | UpdateContactListItemInput;
}

export function useSaveContactListItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: SaveContactListItem) =>
      id
        ? api<ContactListItem>(`/contact-list-items/${id}`, { method: 'PUT', body: input })
        : api<ContactListItem>('/contact-list-items', { method: 'POST', body: input }),
    // The list's count changes with its contacts.
    onSettled: () => refreshContactLists(queryClient),
  });
}

export function useDeleteContactListItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/contact-list-items/${id}`, { method: 'DELETE' }),
    onSuccess: () => refreshContactLists(queryClient),
  });
}
