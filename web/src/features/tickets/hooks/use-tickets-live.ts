import { channels } from '@conversa/functions/contracts/channels';
import type { ContactEvent } from '@conversa/functions/contracts/contacts';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { TicketEvent } from '@conversa/functions/contracts/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { markTicketRead, putContact, putTicket, removeTicket } from '../api/ticket-cache.ts';

/**
 * Keeps every ticket list and ticket detail live (SPEC 4 "Ticket", 7 "Realtime"): updates move a
 * ticket into, within or out of the cached lists; a delete removes it from all of them; a new
 * message carries the ticket's new last message, time and the server's unread count (the row shows
 * none for a conversation the user is reading: lib/reading-now.ts); a contact's edit renames its rows.
 */
export function useTicketsLive(): void {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const companyId = user?.companyId;
  useRealtimeEvent<TicketEvent>(companyId ? channels.ticket(companyId) : undefined, (data) => {
    if (data?.action === 'update' && data.ticket) putTicket(queryClient, data.ticket, user?.id);
    else if (data?.action === 'delete' && typeof data.ticketId === 'number') removeTicket(queryClient, data.ticketId);
    else if (data?.action === 'updateUnread' && typeof data.ticketId === 'number') markTicketRead(queryClient, data.ticketId);
  });
  useRealtimeEvent<AppMessageEvent>(companyId ? channels.appMessage(companyId) : undefined, (data) => {
    if (data?.ticket) putTicket(queryClient, data.ticket, user?.id);
  });
  useRealtimeEvent<ContactEvent>(companyId ? channels.contact(companyId) : undefined, (data) => {
    if (data?.action !== 'delete' && data?.contact) putContact(queryClient, data.contact);
  });
}
