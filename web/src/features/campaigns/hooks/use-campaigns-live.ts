import { channels, type RecordEvent } from '@conversa/functions/contracts';
import type { Campaign } from '@conversa/functions/contracts/campaigns';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import type { CampaignWithProgress } from '../api/campaign-rules.ts';
import { campaignKeys } from '../api/campaigns.ts';

/**
 * `company-{id}-campaign` carries the record (status, completedAt and the engine's counters): the
 * report's detail takes it as is, so its tiles move with each event; the table's pages refetch.
 * `onUpdate` lets the report react to a status change (SPEC 4: refresh 5 s after FINALIZADA).
 */
export function useCampaignsLive(companyId: number | undefined, onUpdate?: (campaign: CampaignWithProgress) => void): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<RecordEvent<Campaign>>(companyId ? channels.campaign(companyId) : undefined, (data) => {
    if (data?.action === 'delete') queryClient.removeQueries({ queryKey: campaignKeys.detail(data.id) });
    else if (data?.record) {
      const record = data.record as CampaignWithProgress;
      queryClient.setQueryData<CampaignWithProgress>(campaignKeys.detail(record.id), (old) => ({ ...old, ...record }));
      onUpdate?.(record);
    }
    void queryClient.invalidateQueries({ queryKey: campaignKeys.pages() });
  });
}
