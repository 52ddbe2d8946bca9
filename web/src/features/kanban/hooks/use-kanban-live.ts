import { channels } from '@conversa/functions/contracts';
import type { TicketEvent } from '@conversa/functions/contracts/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { kanbanKeys, putKanbanTicket, removeKanbanTicket } from '../api/kanban.ts';

/**
 * `company-{id}-ticket` into the board: a tag change (another viewer's drag), a new message or a
 * status change moves, updates or removes the card; a ticket the board does not hold yet (new, or
 * moved into the caller's queues) reloads the board's one list.
 */
export function useKanbanLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<TicketEvent>(companyId ? channels.ticket(companyId) : undefined, (event) => {
    if (event.action === 'delete') return void removeKanbanTicket(queryClient, event.ticketId);
    if (event.action !== 'update') return;
    if (!putKanbanTicket(queryClient, event.ticket) && event.ticket.status !== 'closed') invalidateOnce(queryClient, kanbanKeys.tickets());
  });
}
