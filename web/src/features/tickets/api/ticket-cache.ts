import type { Ticket } from '@conversa/functions/contracts/tickets';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { ticketKeys } from '../../../lib/lookups/tickets.ts';
import { rereadInFlight } from '../../../lib/realtime/reread-in-flight.ts';
import { liveSlaState } from './sla.ts';
import type { TicketFilters, TicketPage } from './tickets.ts';

/*
 * One place writes tickets into the cache: the answers of our own calls and the realtime events
 * (SPEC 4 "Ticket": a ticket leaves a list when its status or queue no longer matches, or when it is
 * deleted). A list or ticket read in flight meanwhile may have left the server before the change,
 * and would undo it when it answers (a new pending ticket missing from the list): it is read again
 * after (lib/realtime/reread-in-flight.ts).
 */
const listsKey = ticketKeys.lists();
const uuidKey = ticketKeys.details();

function rereadTickets(queryClient: QueryClient): void {
  rereadInFlight(queryClient, listsKey);
  rereadInFlight(queryClient, uuidKey);
}

type Pages = InfiniteData<TicketPage>;

/**
 * Whether `ticket` belongs to a list with these filters. `undefined` when the client cannot tell
 * (text search, unread only): such lists only update the rows they already hold.
 */
export function belongsTo(filters: TicketFilters, ticket: Ticket, viewerId: number | undefined): boolean | undefined {
  // A snoozed ticket is in the snoozed list only (issue 22 §5), whatever its status; it is the
  // snoozer's own when nobody attends it, which the server decides (rows already held stay).
  const snoozed = Boolean(ticket.snoozedUntil);
  if (filters.status) {
    if ((filters.status === 'snoozed') !== snoozed) return false;
    if (!snoozed && ticket.status !== filters.status) return false;
    if (snoozed && !filters.showAll && ticket.userId === null) return undefined;
  }
  // Tickets without a queue stay: the server lists them with the selected queues (SPEC 6 rules).
  if (filters.queueIds && ticket.queueId !== null && !filters.queueIds.includes(ticket.queueId)) return false;
  // Without show-all, open and closed lists hold the viewer's own tickets only.
  if (!filters.showAll && ticket.status !== 'pending' && viewerId !== undefined && ticket.userId !== viewerId) return false;
  if (filters.users?.length && (ticket.userId === null || !filters.users.includes(ticket.userId))) return false;
  if (filters.tags?.length && !ticket.tags.some((tag) => filters.tags?.includes(tag.id))) return false;
  if (filters.sla && (!ticket.sla || liveSlaState(ticket.sla, Date.now()) !== filters.sla)) return false;
  if (filters.searchParam || filters.withUnreadMessages) return undefined;
  return true;
}

const newerFirst = (a: Ticket, b: Ticket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

function without(data: Pages, ticketId: number): Pages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.filter((t) => t.id !== ticketId) })) };
}

/** Puts the ticket at its place (newest first) unless that place is in a page not loaded yet. */
function withTicket(data: Pages, ticket: Ticket): Pages {
  const pages = without(data, ticket.id).pages;
  const insertAt = (p: number, page: TicketPage, at: number): Pages => ({
    ...data,
    pages: pages.map((other, i) =>
      i === p ? { ...page, tickets: [...page.tickets.slice(0, at), ticket, ...page.tickets.slice(at)] } : other,
    ),
  });
  for (const [p, page] of pages.entries()) {
    const at = page.tickets.findIndex((row) => newerFirst(ticket, row) < 0);
    if (at >= 0) return insertAt(p, page, at);
  }
  const last = pages.at(-1);
  // Older than every loaded row: it belongs to a page not loaded yet, unless this is the end.
  if (!last || last.hasMore) return { ...data, pages };
  return insertAt(pages.length - 1, last, last.tickets.length);
}

const holds = (data: Pages, ticketId: number) => data.pages.some((page) => page.tickets.some((t) => t.id === ticketId));

export function putTicket(queryClient: QueryClient, ticket: Ticket, viewerId?: number): void {
  for (const [key, data] of queryClient.getQueriesData<Pages>({ queryKey: listsKey })) {
    if (!data) continue;
    const filters = (key[2] ?? {}) as TicketFilters;
    const fits = belongsTo(filters, ticket, viewerId);
    let next: Pages | undefined;
    if (fits === false) next = holds(data, ticket.id) ? without(data, ticket.id) : undefined;
    else if (fits === true) next = withTicket(data, ticket);
    else if (holds(data, ticket.id)) next = withTicket(data, ticket);
    if (next) queryClient.setQueryData<Pages>(key, next);
  }
  queryClient.setQueryData<Ticket>(ticketKeys.detail(ticket.uuid), (old) => (old ? { ...old, ...ticket } : old));
  rereadTickets(queryClient);
}

export function removeTicket(queryClient: QueryClient, ticketId: number): void {
  queryClient.setQueriesData<Pages>({ queryKey: listsKey }, (data) => (data && holds(data, ticketId) ? without(data, ticketId) : data));
  rereadTickets(queryClient);
}

/** `updateUnread`: the ticket was read (by anyone entitled), its counter drops to zero everywhere. */
export function markTicketRead(queryClient: QueryClient, ticketId: number): void {
  const clear = (t: Ticket) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t);
  queryClient.setQueriesData<Pages>({ queryKey: listsKey }, (data) =>
    data && holds(data, ticketId) ? { ...data, pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.map(clear) })) } : data,
  );
  queryClient.setQueriesData<Ticket>({ queryKey: uuidKey }, (old) => (old ? clear(old) : old));
  rereadTickets(queryClient);
}

/**
 * A contact's edit (`company-{id}-contact`): the server publishes the contact's open and pending
 * tickets with their new copy of the name, number and photo, but not its closed ones (the Closed
 * tab, a search), so every cached row and the open conversation follow here too.
 */
export function putContact(queryClient: QueryClient, contact: Pick<Ticket['contact'], 'id' | 'name' | 'number' | 'profilePicUrl'>): void {
  const copy = (t: Ticket): Ticket =>
    t.contactId === contact.id
      ? { ...t, contact: { ...t.contact, name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl } }
      : t;
  queryClient.setQueriesData<Pages>({ queryKey: listsKey }, (data) =>
    data?.pages.some((page) => page.tickets.some((t) => t.contactId === contact.id))
      ? { ...data, pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.map(copy) })) }
      : data,
  );
  queryClient.setQueriesData<Ticket>({ queryKey: uuidKey }, (old) => (old ? copy(old) : old));
  rereadTickets(queryClient);
}
