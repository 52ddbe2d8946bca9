import { channels } from '@conversa/functions/contracts/channels';
import type { Mention, MentionEvent } from '@conversa/functions/contracts/mentions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { type MentionList, mentionKeys, mentionsQueryOptions, withMention, withTicketRead } from '../../../lib/lookups/mentions.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { readVolume } from '../../../lib/storage.ts';
import { playAlert } from '../api/alert-sound.ts';

/**
 * The bell's unread mentions (issue 22 §6). A colleague's note naming the user arrives as a
 * `mention` event on their sockets alone: it joins the list, plays the sound and, where allowed,
 * shows a browser notification that opens the ticket; a read in another tab clears it here too.
 */
export function useMentions(): Mention[] {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery(mentionsQueryOptions(user?.id));
  const update = (change: (list: MentionList) => MentionList) =>
    queryClient.setQueryData<MentionList>(mentionKeys.list(user?.id), (list) => (list === undefined ? list : change(list)));

  useRealtimeEvent<MentionEvent>(user ? channels.mention(user.companyId) : undefined, (data) => {
    if (data?.action === 'read') {
      update((list) => withTicketRead(list, data.ticketId, new Date().toISOString()));
      return;
    }
    if (data?.action !== 'create' || !data.mention) return;
    const { mention } = data;
    update((list) => withMention(list, mention));
    playAlert(readVolume());
    if (typeof window.Notification === 'function' && Notification.permission === 'granted') {
      const notification = new Notification(t('mentions.browser', { name: mention.authorName }), {
        body: mention.excerpt,
        tag: `mention-${mention.id}`,
      });
      notification.onclick = () => {
        window.focus();
        navigate(`/tickets/${mention.ticketUuid}`);
        notification.close();
      };
    }
  });

  return (query.data?.mentions ?? []).filter((mention) => mention.readAt === null);
}
