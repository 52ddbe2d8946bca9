import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { Ticket, TicketEvent } from '@conversa/functions/contracts/tickets';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { isReadingNow } from '../../../lib/reading-now.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { readVolume } from '../../../lib/storage.ts';
import { playAlert } from '../api/alert-sound.ts';
import { applyTicket, notifies, unreadTicketsKey, unreadTicketsQueryOptions, withoutTicket } from '../api/unread-tickets.ts';

/**
 * The unread tickets of the top bar, kept live by the ticket and message events. A new message from
 * a contact on a ticket the user is not reading (lib/reading-now.ts: another ticket open, the list
 * pane shown on a phone, or the tab hidden) plays the sound at the stored volume and, where the user
 * allowed it, shows a browser notification.
 */
export function useUnreadNotifications(): Ticket[] {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewer = user ? { id: user.id, allTicket: user.allTicket } : undefined;
  const query = useQuery(unreadTicketsQueryOptions(viewer));
  const companyId = user?.companyId;
  const key = unreadTicketsKey(viewer);
  const update = (change: (list: Ticket[]) => Ticket[]) =>
    queryClient.setQueryData<Ticket[]>(key, (list) => (list === undefined ? list : change(list)));

  useRealtimeEvent<TicketEvent>(companyId ? channels.ticket(companyId) : undefined, (data) => {
    if (data?.action === 'update' && data.ticket) update((list) => applyTicket(list, data.ticket, viewer));
    else if ((data?.action === 'delete' || data?.action === 'updateUnread') && typeof data.ticketId === 'number')
      update((list) => withoutTicket(list, data.ticketId));
  });

  useRealtimeEvent<AppMessageEvent>(companyId ? channels.appMessage(companyId) : undefined, (data) => {
    if (!data?.ticket) return;
    update((list) => applyTicket(list, data.ticket, viewer));
    const onScreen = isReadingNow(data.ticket.id);
    if (data.action !== 'create' || data.message.fromMe || onScreen || !notifies(data.ticket, viewer)) return;
    playAlert(readVolume());
    if (typeof window.Notification === 'function' && Notification.permission === 'granted') {
      const notification = new Notification(t('notifications.newMessage', { name: data.ticket.contact.name }), {
        body: data.message.body,
        tag: data.ticket.uuid,
        icon: data.ticket.contact.profilePicUrl || undefined,
      });
      notification.onclick = () => {
        window.focus();
        navigate(`/tickets/${data.ticket.uuid}`);
        notification.close();
      };
    }
  });

  // The list holds the server's counts; the conversation being read counts as read here (its read is
  // on its way), the one place this rule is applied, as the ticket rows do.
  return (query.data ?? []).filter((ticket) => !isReadingNow(ticket.id));
}
