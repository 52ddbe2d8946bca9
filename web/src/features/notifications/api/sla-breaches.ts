import type { TicketPageResponse } from '@conversa/functions/contracts/ticket-requests';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import type { SessionUser } from '@conversa/functions/contracts/users';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { notificationsKey } from './unread-tickets.ts';

/*
 * The bell's breached service levels (issue 22 §3): for admins and supervisors, the open and pending
 * tickets whose service level is breached (GET /tickets?sla=breached, every ticket for admins), kept
 * live by the `slaBreach` event (which also plays the sound) and the ticket events (a ticket that
 * closes or leaves the user's sight leaves the list).
 */

export type BreachViewer = Pick<SessionUser, 'id' | 'profile' | 'super'>;

export const watchesBreaches = (viewer: BreachViewer | undefined): boolean =>
  Boolean(viewer && (viewer.profile === 'admin' || viewer.profile === 'supervisor' || viewer.super));

export const slaBreachesKey = (viewer: BreachViewer | undefined) =>
  [...notificationsKey, 'slaBreaches', viewer?.id, viewer?.profile] as const;

/** Pages of one status read at most: breached tickets are few; this bounds a runaway. */
const MAX_PAGES = 5;

export async function fetchSlaBreaches(viewer: BreachViewer): Promise<Ticket[]> {
  const showAll = viewer.profile === 'admin' || viewer.super ? 'true' : undefined;
  const lists = await Promise.all(
    ['open', 'pending'].map(async (status) => {
      const tickets: Ticket[] = [];
      let cursor: string | undefined;
      for (let read = 0; read < MAX_PAGES; read++) {
        const page = await api<TicketPageResponse>('/tickets', { query: { status, sla: 'breached', showAll, cursor } });
        tickets.push(...page.tickets);
        if (!page.hasMore || !page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return tickets;
    }),
  );
  return lists.flat().sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
}

/** The list after `ticket` changed: updated in place while active and breached, out of it once closed. */
export function applyBreachedTicket(list: Ticket[], ticket: Ticket, added = false): Ticket[] {
  const held = list.some((t) => t.id === ticket.id);
  if (ticket.status === 'closed' || ticket.sla?.state !== 'breached') return held ? list.filter((t) => t.id !== ticket.id) : list;
  if (held) return list.map((t) => (t.id === ticket.id ? ticket : t));
  return added ? [ticket, ...list] : list;
}

export const slaBreachesQueryOptions = (viewer: BreachViewer | undefined) =>
  queryOptions({
    queryKey: slaBreachesKey(viewer),
    queryFn: () => fetchSlaBreaches(viewer as BreachViewer),
    enabled: watchesBreaches(viewer),
    staleTime: Number.POSITIVE_INFINITY,
  });
