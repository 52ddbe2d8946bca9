import { channels } from '@conversa/functions/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { tagKeys } from '../../../lib/lookups/tags.ts';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';

/**
 * The Tags screen's ticket counts: tagging a ticket changes a tag's count, which the server does not
 * publish as a tag event, so ticket changes refetch the screen's pages. Tag events themselves reach
 * every tags query through the app-wide useTagsLive (lib/lookups/tags.ts).
 */
export function useTagCountsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId ? channels.ticket(companyId) : undefined, () => invalidateOnce(queryClient, tagKeys.pages()));
}
