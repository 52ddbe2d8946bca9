/**
 * The tickets' key factory only: the lists, detail and cache writers belong to features/tickets, but
 * other places refresh tickets (opening one from the Contacts screen, the inbox's contact editor
 * after a save), so they need the same keys without importing that feature.
 */
export const ticketKeys = {
  all: ['tickets'] as const,
  lists: () => [...ticketKeys.all, 'list'] as const,
  /** `filters` is the ticket manager's TicketFilters (features/tickets/api/tickets.ts). */
  list: <Filters extends object>(filters: Filters) => [...ticketKeys.lists(), filters] as const,
  details: () => [...ticketKeys.all, 'uuid'] as const,
  detail: (uuid: string) => [...ticketKeys.details(), uuid] as const,
};
