import type { TicketPageResponse } from '@conversa/functions/contracts/ticket-requests';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import type { SessionUser } from '@conversa/functions/contracts/users';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/*
 * The top bar's unread-ticket notifications (SPEC 2 "Top bar", 4 "Badges"): the tickets the user
 * may see that hold unread messages. The server already sends only tickets the user may see; the
 * notification rule narrows them: their own open tickets, and pending ones when allTicket is
 * enabled (SPEC 4 "Session and sockets"). Closed tickets never notify.
 */

export type Viewer = Pick<SessionUser, 'id' | 'allTicket'>;

export function notifies(ticket: Ticket, viewer: Viewer | undefined): boolean {
  if (!viewer || ticket.unreadMessages <= 0) return false;
  if (ticket.status === 'open') return ticket.userId === viewer.id;
  if (ticket.status === 'pending') return viewer.allTicket === 'enabled';
  return false;
}

const newerFirst = (a: Ticket, b: Ticket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** The list after `ticket` changed: in it (newest first) when it notifies, out of it otherwise. */
export function applyTicket(list: Ticket[], ticket: Ticket, viewer: Viewer | undefined): Ticket[] {
  const rest = list.filter((t) => t.id !== ticket.id);
  return notifies(ticket, viewer) ? [...rest, ticket].sort(newerFirst) : rest;
}

export const withoutTicket = (list: Ticket[], ticketId: number): Ticket[] => list.filter((t) => t.id !== ticketId);

/** The rule depends on allTicket too: a change of it (a user event re-reads the session) reads the list again. */
export const unreadTicketsKey = (viewer: Viewer | undefined) => ['notifications', 'unreadTickets', viewer?.id, viewer?.allTicket] as const;

/** GET /tickets?withUnreadMessages=true: the first page of each status that may notify. */
async function fetchUnreadTickets(viewer: Viewer): Promise<Ticket[]> {
  const statuses = viewer.allTicket === 'enabled' ? ['open', 'pending'] : ['open'];
  const pages = await Promise.all(
    statuses.map((status) => api<TicketPageResponse>('/tickets', { query: { status, withUnreadMessages: 'true' } })),
  );
  return pages.flatMap((page) => page.tickets).reduce<Ticket[]>((list, ticket) => applyTicket(list, ticket, viewer), []);
}

export const unreadTicketsQueryOptions = (viewer: Viewer | undefined) =>
  queryOptions({
    queryKey: unreadTicketsKey(viewer),
    queryFn: () => fetchUnreadTickets(viewer as Viewer),
    enabled: Boolean(viewer),
    // Realtime events keep it current; a reconnect or a focus does not need a re-read.
    staleTime: Number.POSITIVE_INFINITY,
  });
