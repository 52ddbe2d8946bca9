import { channels } from '@conversa/functions/contracts/channels';
import type { Onboarding } from '@conversa/functions/contracts/onboarding';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';

export type { Onboarding };

export const onboardingKeys = { all: ['onboarding'] as const };

/** GET /onboarding: one cheap server read (the server probes only the steps not yet done). */
export const useOnboarding = (enabled: boolean) =>
  useQuery({ queryKey: onboardingKeys.all, queryFn: () => api<Onboarding>('/onboarding'), enabled });

/** PUT /onboarding: the dismissal is the company's, kept server-side (every device, every reload). */
export function useDismissOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<Onboarding>('/onboarding', { method: 'PUT', body: { dismissed: true } }),
    onSuccess: (data) => queryClient.setQueryData(onboardingKeys.all, data),
  });
}

/**
 * Ticks a step as it happens: the acts behind the steps publish on these channels (a phone
 * connecting, a queue, a user, a ticket taken, a quick reply, a setting). Once per realtime frame;
 * coming back to the dashboard refetches too (the query is stale on mount).
 */
export function useOnboardingLive(companyId: number | undefined, enabled: boolean): void {
  const queryClient = useQueryClient();
  const refresh = () => invalidateOnce(queryClient, onboardingKeys.all);
  const on = (channel: (id: number) => string) => (enabled && companyId ? channel(companyId) : undefined);
  useRealtimeEvent(on(channels.whatsappSession), refresh);
  useRealtimeEvent(on(channels.whatsapp), refresh);
  useRealtimeEvent(on(channels.queue), refresh);
  useRealtimeEvent(on(channels.user), refresh);
  useRealtimeEvent(on(channels.ticket), refresh);
  useRealtimeEvent(on(channels.quickMessage), refresh);
  useRealtimeEvent(on(channels.settings), refresh);
}
