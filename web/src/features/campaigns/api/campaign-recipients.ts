import type { CampaignRecipient, CampaignRecipientState, CampaignRecipientsPage } from '@conversa/functions/contracts/campaigns';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { campaignKeys } from './campaigns.ts';

export type { CampaignRecipient, CampaignRecipientState };

/** Under the campaign's detail key: the report's refresh (FINALIZADA) and its live events reach them too. */
export const campaignRecipientKeys = {
  all: (id: number) => [...campaignKeys.detail(id), 'recipients'] as const,
  list: (id: number, state: CampaignRecipientState | '') => [...campaignRecipientKeys.all(id), state] as const,
};

/** GET /campaigns/{id}/recipients (issue 25): 50 a page, optionally of one state. */
export const fetchCampaignRecipients = (id: number, state: CampaignRecipientState | '', pageNumber: number) =>
  api<CampaignRecipientsPage>(`/campaigns/${id}/recipients`, { query: { pageNumber, ...(state ? { state } : {}) } });

export const useCampaignRecipients = (id: number, state: CampaignRecipientState | '') =>
  useInfiniteQuery({
    queryKey: campaignRecipientKeys.list(id, state),
    queryFn: ({ pageParam }) => fetchCampaignRecipients(id, state, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

/** Every recipient of the state shown, page after page, for the export. */
export async function fetchAllCampaignRecipients(id: number, state: CampaignRecipientState | ''): Promise<CampaignRecipient[]> {
  const all: CampaignRecipient[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await fetchCampaignRecipients(id, state, pageNumber);
    all.push(...page.records);
    if (!page.hasMore) return all;
  }
}
