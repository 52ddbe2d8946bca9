import { channels, type QuickMessageEvent } from '@conversa/functions/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { quickMessagesKey } from '../api/quick-messages.ts';

/** `company-{id}-quickmessage` carries ids only (a private one is not for every socket): refetch what we may see. */
export function useQuickMessagesLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<QuickMessageEvent>(companyId ? channels.quickMessage(companyId) : undefined, () => {
    void queryClient.invalidateQueries({ queryKey: quickMessagesKey });
  });
}
