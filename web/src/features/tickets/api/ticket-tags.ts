import type { Ticket } from '@conversa/functions/contracts/tickets';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { putTicket } from './ticket-cache.ts';
import { refetchChangedTickets } from './tickets.ts';

/** POST /tags/sync (SPEC 7): the ticket's whole set of tags; the answer is the ticket with its new tags. */
export const syncTicketTags = (ticketId: number, tagIds: number[]) =>
  api<Ticket>('/tags/sync', { method: 'POST', body: { ticketId, tags: tagIds.map((id) => ({ id })) } });

/** The answer goes straight into the lists and the conversation; the realtime update confirms it. */
export function useSyncTicketTags() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: (args: { ticketId: number; tagIds: number[] }) => syncTicketTags(args.ticketId, args.tagIds),
    onSuccess: (ticket) => {
      if (ticket && typeof ticket === 'object' && 'id' in ticket) putTicket(queryClient, ticket, user?.id);
    },
    onError: (error) => refetchChangedTickets(queryClient, error),
  });
}
