import type { CreateContactInput, UpdateContactInput } from '@conversa/functions/contracts/contact-requests';
import type { Contact, ContactEvent } from '@conversa/functions/contracts/contacts';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /contacts answer (SPEC 7); `nextCursor` continues where the page stopped. */
export interface ContactsPage {
  contacts: Contact[];
  hasMore: boolean;
  count: number;
  nextCursor?: string;
}

interface PageParam {
  pageNumber: number;
  cursor?: string;
}

/** Every contacts query lives under this key; `['contacts','detail',id]` is shared with the conversation drawer. */
export const contactsKey = ['contacts'] as const;
export const contactListsKey = [...contactsKey, 'list'] as const;
export const contactKey = (contactId: number) => [...contactsKey, 'detail', contactId] as const;

/** SPEC 5: the search starts at 3 characters; shorter is the whole list. */
export const CONTACT_SEARCH_MIN = 3;
export const contactSearchParam = (text: string) => (text.trim().length >= CONTACT_SEARCH_MIN ? text.trim() : '');

export const fetchContacts = (searchParam: string, page: PageParam) =>
  api<ContactsPage>('/contacts', { query: { searchParam, pageNumber: page.pageNumber, cursor: page.cursor } });

export const contactsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: [...contactListsKey, searchParam],
    queryFn: ({ pageParam }) => fetchContacts(searchParam, pageParam),
    initialPageParam: { pageNumber: 1 } as PageParam,
    getNextPageParam: (last, pages): PageParam | undefined =>
      last.hasMore ? { pageNumber: pages.length + 1, cursor: last.nextCursor } : undefined,
  });

export const useContacts = (searchParam: string) => useInfiniteQuery(contactsInfiniteQueryOptions(searchParam));

export const fetchContact = (contactId: number) => api<Contact>(`/contacts/${contactId}`);
export const useContact = (contactId: number | undefined) =>
  useQuery({ queryKey: contactKey(contactId ?? 0), queryFn: () => fetchContact(contactId ?? 0), enabled: Boolean(contactId) });

type ExportRow = Pick<Contact, 'name' | 'number' | 'email'>;

/** Every contact of the company for the CSV export: GET /contacts/export page by page (1000 a page). */
export async function fetchAllContacts(): Promise<ExportRow[]> {
  const all: ExportRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await api<{ contacts: ExportRow[]; nextCursor?: string }>('/contacts/export', { query: cursor ? { cursor } : {} });
    all.push(...page.contacts);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { id?: number; input: CreateContactInput | UpdateContactInput }) =>
      args.id
        ? api<Contact>(`/contacts/${args.id}`, { method: 'PUT', body: args.input })
        : api<Contact>('/contacts', { method: 'POST', body: args.input }),
    onSuccess: (contact) => applyContactEvent(queryClient, { action: 'update', contact }),
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: number) => api<unknown>(`/contacts/${contactId}`, { method: 'DELETE' }),
    onSuccess: (_, contactId) => applyContactEvent(queryClient, { action: 'delete', contactId }),
  });
}

/**
 * A contact change (ours or from `company-{id}-contact`) in the cache: the detail is replaced, a
 * listed contact is patched in place or dropped, and the lists refetch in the background so a
 * new contact lands where the server's order puts it.
 */
export function applyContactEvent(queryClient: QueryClient, event: ContactEvent): void {
  const id = event.action === 'delete' ? event.contactId : event.contact.id;
  queryClient.setQueriesData<InfiniteData<ContactsPage>>({ queryKey: contactListsKey }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            contacts:
              event.action === 'delete'
                ? page.contacts.filter((c) => c.id !== id)
                : page.contacts.map((c) => (c.id === id ? event.contact : c)),
          })),
        }
      : data,
  );
  if (event.action === 'delete') queryClient.removeQueries({ queryKey: contactKey(id) });
  else queryClient.setQueryData(contactKey(id), event.contact);
  void queryClient.invalidateQueries({ queryKey: contactListsKey });
  // The ticket manager's contact search shares the prefix.
  void queryClient.invalidateQueries({ queryKey: [...contactsKey, 'search'] });
}
