import {
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookChangeEvent,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookWithSecret,
  webhookChannel,
} from '@conversa/functions/contracts/webhooks';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { toast } from '../../../lib/toast.ts';

export type { Webhook, WebhookDelivery, WebhookWithSecret };

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: number) => [...webhookKeys.all, 'deliveries', id] as const,
};

/** GET /webhooks: the company's endpoints (at most 10, one answer). */
export const webhooksQueryOptions = () =>
  queryOptions({
    queryKey: webhookKeys.list(),
    queryFn: async () => (await api<{ webhooks: Webhook[] }>('/webhooks')).webhooks,
  });
export const useWebhooks = () => useQuery(webhooksQueryOptions());

/** GET /webhooks/{id}/deliveries?pageNumber: the log, newest first. */
export const webhookDeliveriesQueryOptions = (id: number) =>
  infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ pageParam }) => api<WebhookDeliveryPage>(`/webhooks/${id}/deliveries`, { query: { pageNumber: String(pageParam) } }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });
export const useWebhookDeliveries = (id: number) => useInfiniteQuery(webhookDeliveriesQueryOptions(id));

function useRefreshing<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }) });
}

/** POST answers the secret (once); PUT does not. */
export const useSaveWebhook = () =>
  useRefreshing((args: { id?: number; input: CreateWebhookInput | UpdateWebhookInput }) =>
    args.id
      ? api<Webhook>(`/webhooks/${args.id}`, { method: 'PUT', body: args.input })
      : api<WebhookWithSecret>('/webhooks', { method: 'POST', body: args.input }),
  );
export const useDeleteWebhook = () => useRefreshing((id: number) => api<unknown>(`/webhooks/${id}`, { method: 'DELETE' }));
export const useRotateWebhookSecret = () =>
  useRefreshing((id: number) => api<WebhookWithSecret>(`/webhooks/${id}/rotate-secret`, { method: 'POST' }));
export const useSendTestEvent = () => useRefreshing((id: number) => api<WebhookDelivery>(`/webhooks/${id}/test`, { method: 'POST' }));
export const useResendDelivery = () =>
  useRefreshing((args: { id: number; deliveryId: string }) =>
    api<WebhookDelivery>(`/webhooks/${args.id}/deliveries/${args.deliveryId}/resend`, { method: 'POST' }),
  );

/**
 * `company-{id}-webhook` (admins): another admin's change shows here, and an endpoint switched off
 * for failing is announced (`disabledMessage`, with its URL as the list last showed it).
 */
export function useWebhooksLive(companyId: number | undefined, disabledMessage: (url: string) => string): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<WebhookChangeEvent>(companyId ? webhookChannel(companyId) : undefined, (event) => {
    if (event.action === 'disabled') {
      const known = queryClient.getQueryData<Webhook[]>(webhookKeys.list())?.find((w) => w.id === event.id);
      toast.warning(disabledMessage(known?.url ?? `#${event.id}`));
    }
    invalidateOnce(queryClient, webhookKeys.all);
  });
}
