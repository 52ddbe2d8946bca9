import type { AnnouncementEvent } from '@conversa/functions/contracts/announcements';
import { channels } from '@conversa/functions/contracts/channels';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { announcementKeys } from '../api/announcements.ts';

/** `company-announcement` reaches every user of every company: refetch the lists shown (popover, page). */
export function useAnnouncementsLive(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<AnnouncementEvent>(channels.announcement(), () => invalidateOnce(queryClient, announcementKeys.all));
}
