import { channels } from '@conversa/functions/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { dashboardKeys } from '../api/dashboard.ts';

/**
 * The dashboard follows the day as it happens (issue 25: its counters stood still until a reload).
 * Its figures change with tickets (opened, taken, returned, resolved, reopened) and with new
 * contacts (the leads counter); the server publishes neither as a dashboard event, so either
 * refetches every dashboard query (counters, table and both charts), once per realtime frame.
 */
export function useDashboardLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  const refresh = () => invalidateOnce(queryClient, dashboardKeys.all);
  useRealtimeEvent(companyId ? channels.ticket(companyId) : undefined, refresh);
  useRealtimeEvent(companyId ? channels.contact(companyId) : undefined, refresh);
}
