import { channels } from '@conversa/functions/contracts';
import type { PresenceEvent } from '@conversa/functions/contracts/presence';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { type DashboardData, dashboardKeys } from '../api/dashboard.ts';

/**
 * The dashboard follows the day as it happens (issue 25: its counters stood still until a reload).
 * Its figures change with tickets (opened, taken, returned, resolved, reopened) and with new
 * contacts (the leads counter); the server publishes neither as a dashboard event, so either
 * refetches every dashboard query (counters, table and both charts), once per realtime frame.
 * Presence (`company-{id}-presence`) moves the attendant's dot in the cached table.
 */
export function useDashboardLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  const refresh = () => invalidateOnce(queryClient, dashboardKeys.all);
  useRealtimeEvent(companyId ? channels.ticket(companyId) : undefined, refresh);
  useRealtimeEvent(companyId ? channels.contact(companyId) : undefined, refresh);
  // An attendant's presence changed: their dot changes in place, nothing is refetched.
  useRealtimeEvent<PresenceEvent>(companyId ? channels.presence(companyId) : undefined, (event) => {
    if (event?.action !== 'update') return;
    queryClient.setQueriesData<DashboardData>({ queryKey: dashboardKeys.summaries() }, (data) =>
      data?.attendants.some((a) => a.id === event.userId)
        ? {
            ...data,
            attendants: data.attendants.map((a) =>
              a.id === event.userId ? { ...a, presence: event.presence, online: event.presence !== 'offline' } : a,
            ),
          }
        : data,
    );
  });
}
