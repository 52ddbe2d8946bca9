import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useRealtime, useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { fetchMessages, putMessage } from '../api/messages.ts';

/** Incoming messages in an open conversation are read: re-reading the newest page resets the counter. */
const MARK_READ_DELAY_MS = 1000;

/**
 * Joins the open conversation's chat box and writes its `appMessage` events (new messages, acks,
 * edits, deletions) into the messages cache the list reads.
 */
export function useMessagesLive(ticketId: number | undefined, markRead = true): void {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const { send } = useRealtime();
  const companyId = user?.companyId;
  const readTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(readTimer.current), []);

  useEffect(() => {
    if (ticketId === undefined) return;
    send({ action: 'joinChatBox', data: ticketId });
    return () => send({ action: 'leaveChatBox', data: ticketId });
  }, [ticketId, send]);

  useRealtimeEvent<AppMessageEvent>(companyId ? channels.appMessage(companyId) : undefined, (data) => {
    if (!data?.message || data.message.ticketId !== ticketId) return;
    putMessage(queryClient, data.message);
    // The server counts it unread; GET /messages (what opening the ticket does) clears it.
    if (markRead && data.action === 'create' && !data.message.fromMe) {
      clearTimeout(readTimer.current);
      readTimer.current = setTimeout(() => void fetchMessages(ticketId, { pageNumber: 1 }).catch(() => undefined), MARK_READ_DELAY_MS);
    }
  });
}
