import type { CreateContactInput, UpdateContactInput } from '@conversa/functions/contracts/contact-requests';
import type { Contact } from '@conversa/functions/contracts/contacts';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { applyContactEvent, type ContactsPage, contactKeys } from '../../../lib/lookups/contacts.ts';

/*
 * The Contacts screen's own endpoints: the paged list, the export and the writes. The keys, the
 * contact detail and search, and the cache update a change makes live in lib/lookups/contacts.ts,
 * shared with the inbox and the schedules.
 */

interface PageParam {
  pageNumber: number;
  cursor?: string;
}

export const fetchContacts = (searchParam: string, page: PageParam) =>
  api<ContactsPage>('/contacts', { query: { searchParam, pageNumber: page.pageNumber, cursor: page.cursor } });

export const contactsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: contactKeys.list(searchParam),
    queryFn: ({ pageParam }) => fetchContacts(searchParam, pageParam),
    initialPageParam: { pageNumber: 1 } as PageParam,
    getNextPageParam: (last, pages): PageParam | undefined =>
      last.hasMore ? { pageNumber: pages.length + 1, cursor: last.nextCursor } : undefined,
  });

export const useContacts = (searchParam: string) => useInfiniteQuery(contactsInfiniteQueryOptions(searchParam));

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
