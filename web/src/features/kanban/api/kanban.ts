import type { TicketPageResponse } from '@conversa/functions/contracts/ticket-requests';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { tagKeys } from '../../../lib/lookups/tags.ts';

export interface KanbanLane {
  id: number;
  name: string;
  color: string;
}

export const kanbanKeys = {
  all: ['kanban'] as const,
  tickets: () => [...kanbanKeys.all, 'tickets'] as const,
  /** Under tagKeys.all: the app-wide tag events (lib/lookups/tags.ts useTagsLive) refresh the lanes too. */
  lanes: () => [...tagKeys.all, 'kanban'] as const,
};

/** At most this many pages of 200 a board (10,000 cards): a bound on a runaway loop, not a limit met. */
export const MAX_KANBAN_PAGES = 50;

const getKanbanPage = (cursor: string | undefined) => api<TicketPageResponse>('/ticket/kanban', { query: cursor ? { cursor } : {} });

/**
 * GET /ticket/kanban: open and pending tickets of the caller's queues (SPEC 6), every page (200 a
 * page, following nextCursor): the board shows all its cards, not the first page's (issue 25).
 */
export async function fetchKanbanTickets(getPage = getKanbanPage): Promise<TicketPageResponse> {
  const tickets: Ticket[] = [];
  let cursor: string | undefined;
  for (let read = 0; read < MAX_KANBAN_PAGES; read++) {
    const page = await getPage(cursor);
    tickets.push(...page.tickets);
    if (!page.hasMore || !page.nextCursor) break;
    cursor = page.nextCursor;
  }
  // A ticket that came twice (it moved while the pages were read) is one card, as last read.
  return { tickets: [...new Map(tickets.map((ticket) => [ticket.id, ticket])).values()], hasMore: false };
}
export const kanbanTicketsQueryOptions = () =>
  queryOptions({ queryKey: kanbanKeys.tickets(), queryFn: () => fetchKanbanTickets(), select: (page) => page.tickets, retry: false });
export const useKanbanTickets = () => useQuery(kanbanTicketsQueryOptions());

/** GET /tags/kanban: the tags with the kanban flag, one lane each. */
export const fetchKanbanLanes = async () => (await api<{ lista: KanbanLane[] }>('/tags/kanban')).lista;
export const useKanbanLanes = () => useQuery({ queryKey: kanbanKeys.lanes(), queryFn: fetchKanbanLanes, retry: false });

/** Puts `ticket` in the board's cache as it is now (closed ones leave the board). */
export function putKanbanTicket(queryClient: QueryClient, ticket: Ticket): boolean {
  let found = false;
  queryClient.setQueryData<TicketPageResponse>(kanbanKeys.tickets(), (page) => {
    if (!page) return page;
    const tickets = page.tickets.flatMap((t) => {
      if (t.id !== ticket.id) return [t];
      found = true;
      return ticket.status === 'closed' ? [] : [ticket];
    });
    return { ...page, tickets };
  });
  return found;
}

export const removeKanbanTicket = (queryClient: QueryClient, ticketId: number) =>
  queryClient.setQueryData<TicketPageResponse>(kanbanKeys.tickets(), (page) =>
    page ? { ...page, tickets: page.tickets.filter((t) => t.id !== ticketId) } : page,
  );

export interface MoveCard {
  ticket: Ticket;
  /** Lane ids: a kanban tag's id, 0 for Open. */
  from: number;
  to: number;
  lane: KanbanLane | undefined;
}

/** POST /ticket-tags/{id}/move: one request; the card moves at once and comes back if the server refuses. */
export function useMoveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticket, from, to }: MoveCard) => api<Ticket>(`/ticket-tags/${ticket.id}/move`, { method: 'POST', body: { from, to } }),
    onMutate: async ({ ticket, from, lane }) => {
      await queryClient.cancelQueries({ queryKey: kanbanKeys.tickets() });
      const tags = ticket.tags.filter((t) => t.id !== from && t.id !== lane?.id);
      putKanbanTicket(queryClient, { ...ticket, tags: lane ? [...tags, lane] : tags });
      return { before: ticket };
    },
    onSuccess: (ticket) => void putKanbanTicket(queryClient, ticket),
    onError: (error, _move, context) => {
      // SPEC 8: kanban errors are only logged.
      console.error('kanban move failed', error);
      if (context?.before) putKanbanTicket(queryClient, context.before);
    },
  });
}
