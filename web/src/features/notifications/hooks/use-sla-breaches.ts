import { channels } from '@conversa/functions/contracts/channels';
import type { SlaBreachEvent } from '@conversa/functions/contracts/sla';
import type { Ticket, TicketEvent } from '@conversa/functions/contracts/tickets';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { readVolume } from '../../../lib/storage.ts';
import { playAlert } from '../api/alert-sound.ts';
import { applyBreachedTicket, slaBreachesKey, slaBreachesQueryOptions, watchesBreaches } from '../api/sla-breaches.ts';

/**
 * The breached service levels of the bell (issue 22 §3). A breach event (sent once per breach, to
 * admins and the queue's supervisors) adds the ticket, plays the sound and, where allowed, shows a
 * browser notification, as a new message does.
 */
export function useSlaBreaches(): Ticket[] {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewer = user ? { id: user.id, profile: user.profile, super: user.super } : undefined;
  const watching = watchesBreaches(viewer);
  const query = useQuery(slaBreachesQueryOptions(viewer));
  const companyId = watching ? user?.companyId : undefined;
  const key = slaBreachesKey(viewer);
  const update = (change: (list: Ticket[]) => Ticket[]) =>
    queryClient.setQueryData<Ticket[]>(key, (list) => (list === undefined ? list : change(list)));

  useRealtimeEvent<SlaBreachEvent>(companyId ? channels.slaBreach(companyId) : undefined, (data) => {
    if (data?.action !== 'breach' || !data.ticket) return;
    update((list) => applyBreachedTicket(list, data.ticket, true));
    playAlert(readVolume());
    if (typeof window.Notification === 'function' && Notification.permission === 'granted') {
      const notification = new Notification(t('sla.notification.browser', { name: data.ticket.contact.name }), {
        body: t(`sla.notification.${data.target}`),
        tag: `sla-${data.ticket.uuid}`,
      });
      notification.onclick = () => {
        window.focus();
        navigate(`/tickets/${data.ticket.uuid}`);
        notification.close();
      };
    }
  });

  useRealtimeEvent<TicketEvent>(companyId ? channels.ticket(companyId) : undefined, (data) => {
    if (data?.action === 'update' && data.ticket) update((list) => applyBreachedTicket(list, data.ticket));
    else if (data?.action === 'delete' && typeof data.ticketId === 'number') update((list) => list.filter((x) => x.id !== data.ticketId));
  });

  return watching ? (query.data ?? []) : [];
}
