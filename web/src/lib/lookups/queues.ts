import type { Queue } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * The company's queues: the Queues screen lists them, the connection and user dialogs, the ticket
 * manager's filter and the transfer dialog choose among them. Every queue query lives under
 * `queueKeys.all`, so the one invalidation a save or `company-{id}-queue` makes reaches them all.
 */
export const queueKeys = {
  all: ['queues'] as const,
  list: () => [...queueKeys.all, 'list'] as const,
  /** The Queues screen's option trees (its own endpoint), kept under `all` for the same invalidation. */
  options: (queueId: number, parentId: number | null) => [...queueKeys.all, 'options', queueId, parentId ?? -1] as const,
};

/** GET /queue: all the company's queues (admins choose among them; users see their own). */
export const fetchQueues = () => api<Queue[]>('/queue');
export const queuesQueryOptions = () => queryOptions({ queryKey: queueKeys.list(), queryFn: fetchQueues });
export const useQueues = (enabled = true) => useQuery({ ...queuesQueryOptions(), enabled });

/** A queue or queue option changed (ours or another admin's): every screen showing queues reads them again. */
export const refreshQueues = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: queueKeys.all });

/** `company-{id}-queue`, mounted app-wide (src/app/realtime-bridge.tsx). */
export function useQueuesLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId ? channels.queue(companyId) : undefined, () => invalidateOnce(queryClient, queueKeys.all));
}
