import { channels } from '@conversa/functions/contracts/channels';
import type { Contact, ContactEvent } from '@conversa/functions/contracts/contacts';
import { type InfiniteData, type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * Contacts: the Contacts screen pages through `contactKeys.list(search)`, the new-ticket and schedule
 * dialogs search with `contactKeys.search(text)`, the conversation's drawer, the contact dialog and
 * the schedule dialog read `contactKeys.detail(id)`. A change (ours or `company-{id}-contact`) goes
 * through applyContactEvent, which reaches all three.
 */
export const contactKeys = {
  all: ['contacts'] as const,
  lists: () => [...contactKeys.all, 'list'] as const,
  list: (searchParam: string) => [...contactKeys.lists(), searchParam] as const,
  searches: () => [...contactKeys.all, 'search'] as const,
  search: (searchParam: string) => [...contactKeys.searches(), searchParam] as const,
  detail: (contactId: number) => [...contactKeys.all, 'detail', contactId] as const,
};

/** GET /contacts answer (SPEC 7); `nextCursor` continues where the page stopped. */
export interface ContactsPage {
  contacts: Contact[];
  hasMore: boolean;
  count: number;
  nextCursor?: string;
}

/** SPEC 5: the search starts at 3 characters; shorter is the whole list. */
export const CONTACT_SEARCH_MIN = 3;
export const contactSearchParam = (text: string) => (text.trim().length >= CONTACT_SEARCH_MIN ? text.trim() : '');

/** GET /contacts?searchParam (first page): the pickers of the new-ticket and schedule dialogs. */
export const searchContacts = (searchParam: string) => api<ContactsPage>('/contacts', { query: { searchParam, pageNumber: 1 } });
export const contactSearchQueryOptions = (searchParam: string) =>
  queryOptions({ queryKey: contactKeys.search(searchParam), queryFn: () => searchContacts(searchParam), retry: false });
export const useContactSearch = (searchParam: string) =>
  useQuery({ ...contactSearchQueryOptions(searchParam), enabled: searchParam.trim().length >= CONTACT_SEARCH_MIN });

/** GET /contacts/{id}: number, email and extra info of one contact. */
export const fetchContact = (contactId: number) => api<Contact>(`/contacts/${contactId}`);
export const contactQueryOptions = (contactId: number) =>
  queryOptions({ queryKey: contactKeys.detail(contactId), queryFn: () => fetchContact(contactId) });
export const useContact = (contactId: number | undefined, enabled = true) =>
  useQuery({ ...contactQueryOptions(contactId ?? 0), enabled: Boolean(contactId) && enabled });

/**
 * A contact change (ours or from `company-{id}-contact`) in the cache: the detail is replaced, a
 * listed contact is patched in place or dropped, and the lists and searches refetch in the
 * background so a new contact lands where the server's order puts it.
 */
export function applyContactEvent(queryClient: QueryClient, event: ContactEvent): void {
  patchContact(queryClient, event);
  for (const queryKey of contactListings()) void queryClient.invalidateQueries({ queryKey });
}

const contactListings = () => [contactKeys.lists(), contactKeys.searches()];

function patchContact(queryClient: QueryClient, event: ContactEvent): void {
  const id = event.action === 'delete' ? event.contactId : event.contact.id;
  queryClient.setQueriesData<InfiniteData<ContactsPage>>({ queryKey: contactKeys.lists() }, (data) =>
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
  if (event.action === 'delete') queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
  else queryClient.setQueryData(contactKeys.detail(id), event.contact);
}

/** Keeps the contacts cache live from `company-{id}-contact` (SPEC 7 "Realtime"); mounted app-wide. */
export function useContactsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  // As applyContactEvent, the listings refetching once for a frame of events (a bulk import's).
  const apply = (event: ContactEvent) => {
    patchContact(queryClient, event);
    invalidateOnce(queryClient, ...contactListings());
  };
  useRealtimeEvent<ContactEvent>(companyId ? channels.contact(companyId) : undefined, (event) => {
    if (event?.action === 'delete' && typeof event.contactId === 'number') apply(event);
    else if ((event?.action === 'update' || event?.action === 'create') && event.contact) apply(event);
  });
}
