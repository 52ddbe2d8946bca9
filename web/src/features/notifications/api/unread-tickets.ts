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

/** The bell's lists (unread tickets, breached service levels) share this root. */
export const notificationsKey = ['notifications'] as const;

/** The rule depends on allTicket too: a change of it (a user event re-reads the session) reads the list again. */
export const unreadTicketsKey = (viewer: Viewer | undefined) =>
  [...notificationsKey, 'unreadTickets', viewer?.id, viewer?.allTicket] as const;

/**
 * Pages of one status the bell reads at most. Those lists hold only what the user works on (their
 * open tickets, their queues' pending ones), so this bounds a runaway, not a normal inbox: 25 pages
 * of 40 tickets.
 */
export const MAX_UNREAD_PAGES = 25;

type PageQuery = { status: string; withUnreadMessages: 'true'; cursor?: string };
const getTicketPage = (query: PageQuery) => api<TicketPageResponse>('/tickets', { query });

/**
 * GET /tickets?withUnreadMessages=true, every page of each status that may notify (following
 * nextCursor), so the bell counts all the user's unread tickets, not the first page's. A page may
 * hold fewer than 40 and still have more (the server bounds what one request reads).
 */
export async function fetchUnreadTickets(viewer: Viewer, getPage = getTicketPage): Promise<Ticket[]> {
  const statuses = viewer.allTicket === 'enabled' ? ['open', 'pending'] : ['open'];
  const lists = await Promise.all(
    statuses.map(async (status) => {
      const tickets: Ticket[] = [];
      let cursor: string | undefined;
      for (let read = 0; read < MAX_UNREAD_PAGES; read++) {
        const page = await getPage({ status, withUnreadMessages: 'true', ...(cursor ? { cursor } : {}) });
        tickets.push(...page.tickets);
        if (!page.hasMore || !page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return tickets;
    }),
  );
  return lists.flat().reduce<Ticket[]>((list, ticket) => applyTicket(list, ticket, viewer), []);
}

export const unreadTicketsQueryOptions = (viewer: Viewer | undefined) =>
  queryOptions({
    queryKey: unreadTicketsKey(viewer),
    queryFn: () => fetchUnreadTickets(viewer as Viewer),
    enabled: Boolean(viewer),
    // Realtime events keep it current; a reconnect or a focus does not need a re-read.
    staleTime: Number.POSITIVE_INFINITY,
  });
