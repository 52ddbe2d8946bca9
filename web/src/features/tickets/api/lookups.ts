import type { Contact } from '@conversa/functions/contracts/contacts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/*
 * What the ticket manager's selects and modals need from other resources. Keys and shapes match the
 * features that own them (['queues','list'], ['connections','list']) so the cache entries are shared.
 */

export interface NamedOption {
  id: number;
  name: string;
}
export interface TagOption extends NamedOption {
  color: string;
}

/** GET /queue: all the company's queues (admins choose among them; users see their own). */
export const useCompanyQueues = (enabled: boolean) =>
  useQuery({
    queryKey: ['queues', 'list'] as const,
    queryFn: () => api<Array<{ id: number; name: string; color: string }>>('/queue'),
    enabled,
  });

/** GET /whatsapp: connections for the new-ticket modal. */
export const useConnectionOptions = (enabled: boolean) =>
  useQuery({
    queryKey: ['connections', 'list'] as const,
    queryFn: () => api<Array<{ id: number; name: string; isDefault: boolean; status: string }>>('/whatsapp', { query: { session: 0 } }),
    enabled,
  });

/** GET /users/list: id and name of every attendant (transfer dialog, admin's user filter). */
export const useUserNames = (enabled: boolean) =>
  useQuery({ queryKey: ['users', 'names'] as const, queryFn: () => api<NamedOption[]>('/users/list'), enabled, staleTime: 60_000 });

/** GET /tags/list: the tag filter of the Search tab (hidden while the tags API is absent). */
export const useTagOptions = (enabled: boolean) =>
  useQuery({
    queryKey: ['tags', 'list'] as const,
    queryFn: () => api<TagOption[]>('/tags/list'),
    enabled,
    retry: false,
    staleTime: 60_000,
  });

/** GET /contacts?searchParam: contact search of the new-ticket modal (SPEC 5: from 3 characters). */
export const CONTACT_SEARCH_MIN = 3;
export const useContactSearch = (searchParam: string) =>
  useQuery({
    queryKey: ['contacts', 'search', searchParam] as const,
    queryFn: () => api<{ contacts: Contact[]; hasMore: boolean }>('/contacts', { query: { searchParam, pageNumber: 1 } }),
    enabled: searchParam.trim().length >= CONTACT_SEARCH_MIN,
    retry: false,
  });

/** GET /contacts/{id}: the contact drawer's details (number, email, extra info). Key shared with the contacts screens. */
export const contactKey = (contactId: number) => ['contacts', 'detail', contactId] as const;
export const useContact = (contactId: number, enabled: boolean) =>
  useQuery({ queryKey: contactKey(contactId), queryFn: () => api<Contact>(`/contacts/${contactId}`), enabled });
