import type {
  Campaign,
  CampaignSettings,
  CampaignSettingsInput,
  CampaignSettingsRecords,
  CampaignsPage,
  CreateCampaignInput,
  UpdateCampaignInput,
} from '@conversa/functions/contracts/campaigns';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { uploadAttachment } from '../../../lib/direct-upload.ts';
import { settingsFromRecords } from './campaign-rules.ts';

export type { Campaign, CampaignSettings };

/** Every campaigns query lives under `all`: a save or a realtime event refreshes them all. */
export const campaignKeys = {
  all: ['campaigns'] as const,
  pages: () => [...campaignKeys.all, 'page'] as const,
  page: (searchParam: string) => [...campaignKeys.pages(), searchParam] as const,
  detail: (id: number) => [...campaignKeys.all, 'detail', id] as const,
  settings: () => [...campaignKeys.all, 'settings'] as const,
};

/** GET /campaigns (SPEC 7): `records` and `hasMore`, 20 a page. */
export const fetchCampaigns = (searchParam: string, pageNumber: number) =>
  api<CampaignsPage>('/campaigns', { query: { searchParam, pageNumber } });

export const campaignsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: campaignKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchCampaigns(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });
export const useCampaignsPages = (searchParam: string) => useInfiniteQuery(campaignsInfiniteQueryOptions(searchParam));

export const campaignQueryOptions = (id: number) =>
  queryOptions({ queryKey: campaignKeys.detail(id), queryFn: () => api<Campaign>(`/campaigns/${id}`) });
export const useCampaign = (id: number) => useQuery(campaignQueryOptions(id));

export interface SaveCampaign {
  id?: number;
  input: CreateCampaignInput | UpdateCampaignInput;
  /** A new attachment to upload, or `null` to remove the current one; undefined leaves it. */
  attachment?: File | null;
}

/**
 * The body as the API reads it. The shared schema turns the wire's `status: "EM_ANDAMENTO"` (start
 * on save) into a flag, and the API parses the wire again: a flag sent as is (`true`) meant nothing
 * there, so "Iniciar ao salvar" left the campaign Inativa.
 */
const wireBody = ({ status, ...fields }: CreateCampaignInput | UpdateCampaignInput) =>
  status ? { ...fields, status: 'EM_ANDAMENTO' as const } : fields;

/** Saves the fields, then the attachment (it needs the campaign's id): grant, PUT to the bucket, media-upload. */
export function useSaveCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input, attachment }: SaveCampaign) => {
      let saved = id
        ? await api<Campaign>(`/campaigns/${id}`, { method: 'PUT', body: wireBody(input) })
        : await api<Campaign>('/campaigns', { method: 'POST', body: wireBody(input) });
      if (attachment) saved = await uploadAttachment<Campaign>(`/campaigns/${saved.id}`, attachment);
      else if (attachment === null && saved.mediaPath)
        saved = await api<Campaign>(`/campaigns/${saved.id}/media-upload`, { method: 'DELETE' });
      return saved;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

/** DELETE, cancel and restart (SPEC 7): each answers the campaign or nothing; the lists refetch. */
function useCampaignAction(run: (id: number) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }) });
}
export const useDeleteCampaign = () => useCampaignAction((id) => api<unknown>(`/campaigns/${id}`, { method: 'DELETE' }));
export const useCancelCampaign = () => useCampaignAction((id) => api<unknown>(`/campaigns/${id}/cancel`, { method: 'POST' }));
export const useRestartCampaign = () => useCampaignAction((id) => api<unknown>(`/campaigns/${id}/restart`, { method: 'POST' }));

/** GET /campaign-settings: key/value records read into the settings (defaults for what is not stored). */
export const campaignSettingsQueryOptions = () =>
  queryOptions({
    queryKey: campaignKeys.settings(),
    queryFn: async () => settingsFromRecords(await api<CampaignSettingsRecords>('/campaign-settings')),
  });
export const useCampaignSettings = () => useQuery(campaignSettingsQueryOptions());

/** POST /campaign-settings `{ settings }` as the spec's client sends it. */
export function useSaveCampaignSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: CampaignSettingsInput) => api<unknown>('/campaign-settings', { method: 'POST', body: { settings } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: campaignKeys.settings() }),
  });
}
