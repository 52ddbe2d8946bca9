import { channels, type TagEvent } from '@conversa/functions/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { tagsKey } from '../api/tags.ts';

/**
 * Refetches the tags on `company-{id}-tag`, and on ticket changes too: tagging a ticket changes a
 * tag's ticket count, which the server does not publish as a tag event.
 */
export function useTagsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: tagsKey });
  useRealtimeEvent<TagEvent>(companyId ? channels.tag(companyId) : undefined, refresh);
  useRealtimeEvent(companyId ? channels.ticket(companyId) : undefined, refresh);
}
