import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useRealtime, useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { putMessage } from '../api/messages.ts';

/**
 * Joins the open conversation's chat box and writes its `appMessage` events (new messages, acks,
 * edits, deletions) into the messages cache the list reads.
 */
export function useMessagesLive(ticketId: number | undefined): void {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const { send } = useRealtime();
  const companyId = user?.companyId;

  useEffect(() => {
    if (ticketId === undefined) return;
    send({ action: 'joinChatBox', data: ticketId });
    return () => send({ action: 'leaveChatBox', data: ticketId });
  }, [ticketId, send]);

  useRealtimeEvent<AppMessageEvent>(companyId ? channels.appMessage(companyId) : undefined, (data) => {
    if (data?.message && data.message.ticketId === ticketId) putMessage(queryClient, data.message);
  });
}
