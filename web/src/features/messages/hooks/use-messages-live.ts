import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { Ticket, TicketEvent } from '@conversa/functions/contracts/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { isReadingNow, useShownConversation } from '../../../lib/reading-now.ts';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtime, useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { fetchMessages, type Pages, putLiveMessage, ticketMessagesKey } from '../api/messages.ts';

/**
 * Incoming messages in a conversation the user reads (lib/reading-now.ts: shown, tab visible) are
 * read: re-reading the newest page resets the counter, once for a burst of them. Those that arrive
 * while the tab is hidden stay unread until the tab shows again.
 */
const MARK_READ_DELAY_MS = 1000;

/** What a ticket change that leaves an activity line changes (tickets/thread-events.ts on the server). */
const stateOf = (ticket: Pick<Ticket, 'status' | 'queueId' | 'userId' | 'useIntegration'>) =>
  `${ticket.status}:${ticket.queueId}:${ticket.userId}:${ticket.useIntegration}`;

/**
 * Joins the open conversation's chat box and writes its `appMessage` events (new messages, acks,
 * edits, deletions) into the messages cache the list reads. A change of the ticket's state (a
 * transfer, an accept, a bot handing back) refetches the conversation for its activity line.
 */
export function useMessagesLive(ticketId: number | undefined, markRead = true): void {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const { send } = useRealtime();
  const companyId = user?.companyId;
  const readTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** A message came in that the server still counts unread (the tab was hidden, or the read is due). */
  const unread = useRef(false);
  /** Schedules the read (while this conversation marks what it shows read). */
  const readLater = useRef<(() => void) | undefined>(undefined);
  useShownConversation(ticketId, markRead);

  useEffect(() => {
    if (ticketId === undefined) return;
    send({ action: 'joinChatBox', data: ticketId });
    return () => send({ action: 'leaveChatBox', data: ticketId });
  }, [ticketId, send]);

  useEffect(() => {
    if (ticketId === undefined || !markRead) return;
    unread.current = false;
    // The server counts it unread; GET /messages (what opening the ticket does) clears it.
    const readIfSeen = () => {
      if (!unread.current || !isReadingNow(ticketId)) return;
      unread.current = false;
      void fetchMessages(ticketId, { pageNumber: 1 }).catch(() => undefined);
    };
    const later = () => {
      clearTimeout(readTimer.current);
      readTimer.current = setTimeout(readIfSeen, MARK_READ_DELAY_MS);
    };
    readLater.current = later;
    document.addEventListener('visibilitychange', later);
    return () => {
      document.removeEventListener('visibilitychange', later);
      clearTimeout(readTimer.current);
      readLater.current = undefined;
    };
  }, [ticketId, markRead]);

  const seenState = useRef<{ ticketId: number; state: string } | undefined>(undefined);
  useRealtimeEvent<TicketEvent>(companyId ? channels.ticket(companyId) : undefined, (data) => {
    if (data?.action !== 'update' || data.ticket.id !== ticketId) return;
    const state = stateOf(data.ticket);
    // Against the last state seen: an event's, else the one the conversation was read with.
    const loaded = queryClient.getQueryData<Pages>(ticketMessagesKey(ticketId))?.pages[0]?.ticket;
    const seen = seenState.current?.ticketId === ticketId ? seenState.current.state : undefined;
    const before = seen ?? (loaded ? stateOf(loaded) : undefined);
    const changed = before !== undefined && before !== state;
    seenState.current = { ticketId, state };
    if (changed) invalidateOnce(queryClient, ticketMessagesKey(ticketId));
  });

  useRealtimeEvent<AppMessageEvent>(companyId ? channels.appMessage(companyId) : undefined, (data) => {
    if (!data?.message || data.message.ticketId !== ticketId) return;
    putLiveMessage(queryClient, data.message);
    if (data.action === 'create' && !data.message.fromMe && readLater.current) {
      unread.current = true;
      readLater.current();
    }
  });
}
