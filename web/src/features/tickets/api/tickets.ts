import type { SlaFilter } from '@conversa/functions/contracts/sla';
import type {
  BulkTicketsInput,
  BulkTicketsResponse,
  OtherOpenTicketError,
  TicketPageResponse,
  UpdateTicketInput,
} from '@conversa/functions/contracts/ticket-requests';
import type { Ticket, TicketListStatus } from '@conversa/functions/contracts/tickets';
import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { ticketKeys } from '../../../lib/lookups/tickets.ts';
import { putTicket, removeTicket } from './ticket-cache.ts';

/** GET /tickets answer (SPEC 7); `nextCursor` lets the next page continue cheaply where this one stopped. */
export type TicketPage = TicketPageResponse;

/** The filters of one list (a tab of the ticket manager). Lists of ids go out as JSON, as SPEC 7 says. */
export interface TicketFilters {
  /** A status's list, or `snoozed` (issue 22 §5: the caller's snoozed tickets, out of every other list). */
  status?: TicketListStatus;
  searchParam?: string;
  showAll?: boolean;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
  withUnreadMessages?: boolean;
  /** Only tickets whose service level is breached or due soon (issue 22 §3). */
  sla?: SlaFilter;
}

/** Body of ERR_OTHER_OPEN_TICKET (SPEC 8): who already attends the contact, and where. */
export type OtherOpenTicket = OtherOpenTicketError;

const jsonList = (ids: number[] | undefined) => (ids && ids.length > 0 ? JSON.stringify(ids) : undefined);

interface PageParam {
  pageNumber: number;
  cursor?: string;
}

export const fetchTickets = (filters: TicketFilters, page: PageParam) =>
  api<TicketPage>('/tickets', {
    query: {
      status: filters.status,
      searchParam: filters.searchParam,
      showAll: filters.showAll ? 'true' : undefined,
      withUnreadMessages: filters.withUnreadMessages ? 'true' : undefined,
      sla: filters.sla,
      queueIds: filters.queueIds ? JSON.stringify(filters.queueIds) : undefined,
      tags: jsonList(filters.tags),
      users: jsonList(filters.users),
      pageNumber: page.pageNumber,
      cursor: page.cursor,
    },
  });

export const ticketListQueryOptions = (filters: TicketFilters) =>
  infiniteQueryOptions({
    queryKey: ticketKeys.list(filters),
    queryFn: ({ pageParam }) => fetchTickets(filters, pageParam),
    initialPageParam: { pageNumber: 1 } as PageParam,
    getNextPageParam: (last, pages): PageParam | undefined =>
      last.hasMore ? { pageNumber: pages.length + 1, cursor: last.nextCursor } : undefined,
  });

export const useTicketList = (filters: TicketFilters, enabled = true) => useInfiniteQuery({ ...ticketListQueryOptions(filters), enabled });

/** GET /tickets/u/{uuid}: the conversation's ticket (the route parameter is the uuid, SPEC 2). */
export const fetchTicketByUuid = (uuid: string) => api<Ticket>(`/tickets/u/${encodeURIComponent(uuid)}`);
export const ticketByUuidQueryOptions = (uuid: string) =>
  queryOptions({ queryKey: ticketKeys.detail(uuid), queryFn: () => fetchTicketByUuid(uuid), retry: false });
export const useTicketByUuid = (uuid: string | undefined) => useQuery({ ...ticketByUuidQueryOptions(uuid ?? ''), enabled: Boolean(uuid) });

/** PUT /tickets/{id} (SPEC 4 "Ticket"): the body says which transition it is. */
export type TicketUpdate = UpdateTicketInput;

export const updateTicket = (id: number, input: TicketUpdate) => api<Ticket>(`/tickets/${id}`, { method: 'PUT', body: input });
export const deleteTicket = (id: number) => api<unknown>(`/tickets/${id}`, { method: 'DELETE' });

export interface NewTicketInput {
  contactId: number;
  queueId: number | null;
  whatsappId: number;
  userId: number;
}
/** POST /tickets: creating a ticket sends status open (SPEC 4). */
export const createTicket = (input: NewTicketInput) => api<Ticket>('/tickets', { method: 'POST', body: { ...input, status: 'open' } });

/** A 409 ERR_TICKET_CHANGED: someone changed the ticket between our read and our write. */
export const isTicketChanged = (error: unknown) => error instanceof ApiError && error.code === 'ERR_TICKET_CHANGED';

/**
 * After ERR_TICKET_CHANGED what the screen shows is stale: every ticket list and detail is read again,
 * so the user decides on the ticket as it is now (the caller still shows the error's toast).
 */
export function refetchChangedTickets(queryClient: QueryClient, error: unknown): void {
  if (isTicketChanged(error)) void queryClient.invalidateQueries({ queryKey: ticketKeys.all });
}

/** Every change writes the answer into the lists and the detail at once; realtime confirms it later. */
export function useUpdateTicket() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: (args: { id: number; input: TicketUpdate }) => updateTicket(args.id, args.input),
    onSuccess: (ticket) => {
      if (ticket && typeof ticket === 'object' && 'id' in ticket) putTicket(queryClient, ticket, user?.id);
    },
    onError: (error) => refetchChangedTickets(queryClient, error),
  });
}

export function useDeleteTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTicket,
    onSuccess: (_data, id) => removeTicket(queryClient, id),
    onError: (error) => refetchChangedTickets(queryClient, error),
  });
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: createTicket,
    onSuccess: (ticket) => putTicket(queryClient, ticket, user?.id),
  });
}

/** POST /tickets/bulk (issue 22 §5): one action on the selected tickets, answered per ticket. */
export const bulkTickets = (input: BulkTicketsInput) => api<BulkTicketsResponse>('/tickets/bulk', { method: 'POST', body: input });

/** Writes every ticket the action changed into the lists at once; realtime confirms them later. */
export function useBulkTickets() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: bulkTickets,
    onSuccess: (answer) => {
      for (const result of answer.results) if (result.ticket) putTicket(queryClient, result.ticket, user?.id);
      // A ticket that changed under the action: the lists are read again, as after a single ERR_TICKET_CHANGED.
      if (answer.results.some((result) => result.error === 'ERR_TICKET_CHANGED'))
        void queryClient.invalidateQueries({ queryKey: ticketKeys.all });
    },
  });
}
