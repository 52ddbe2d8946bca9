import { channels, type RecordEvent } from '@conversa/functions/contracts';
import type { Campaign, CampaignProgressEvent, CampaignsPage } from '@conversa/functions/contracts/campaigns';
import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { campaignKeys } from '../api/campaigns.ts';

/**
 * `company-{id}-campaign` carries the record (or, from the engine, its progress): the report's
 * detail takes it as is, so its tiles move with each event; the table's pages refetch (a progress
 * event only when the status changes, not for every send). `onUpdate` lets the report react to a
 * status change (SPEC 4: refresh 5 s after FINALIZADA).
 */
export function useCampaignsLive(companyId: number | undefined, onUpdate?: (campaign: Campaign) => void): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<RecordEvent<Campaign> | CampaignProgressEvent>(companyId ? channels.campaign(companyId) : undefined, (data) => {
    if (data?.action === 'delete') {
      queryClient.removeQueries({ queryKey: campaignKeys.detail(data.id) });
    } else if (data?.action === 'progress') {
      const key = campaignKeys.detail(data.id);
      const before = queryClient.getQueryData<Campaign>(key);
      if (before) {
        const next = { ...before, status: data.status, completedAt: data.completedAt, progress: data.progress };
        queryClient.setQueryData<Campaign>(key, next);
        onUpdate?.(next);
      }
      const listed = queryClient
        .getQueriesData<InfiniteData<CampaignsPage>>({ queryKey: campaignKeys.pages() })
        .flatMap(([, pages]) => pages?.pages.flatMap((page) => page.records) ?? [])
        .find((campaign) => campaign.id === data.id);
      if (listed?.status === data.status) return;
    } else if (data?.record) {
      const record = data.record;
      queryClient.setQueryData<Campaign>(campaignKeys.detail(record.id), (old) => ({ ...old, ...record }));
      onUpdate?.(record);
    }
    invalidateOnce(queryClient, campaignKeys.pages());
  });
}
