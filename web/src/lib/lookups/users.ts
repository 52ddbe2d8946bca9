import { channels } from '@conversa/functions/contracts/channels';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { authKeys } from '../auth/session-api.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * The company's users: the Users screen pages through `userKeys.list(search)` (its own endpoint, in
 * features/users); the transfer dialog and the admin's user filter read `userKeys.names()`.
 */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (searchParam: string) => [...userKeys.lists(), searchParam] as const,
  names: () => [...userKeys.all, 'names'] as const,
};

export interface UserName {
  id: number;
  name: string;
  /** Present in GET /users/list; absent where a user is named elsewhere (a chat's members). */
  queueIds?: number[];
}

/** GET /users/list: id, name and queues of every attendant. */
export const fetchUserNames = () => api<UserName[]>('/users/list');
export const userNamesQueryOptions = () => queryOptions({ queryKey: userKeys.names(), queryFn: fetchUserNames, staleTime: 60_000 });
export const useUserNames = (enabled = true) => useQuery({ ...userNamesQueryOptions(), enabled });

/** What a user change makes stale: every users query, and the session (the signed-in user's own name, profile, queues). */
const staleWithUsers = () => [userKeys.all, authKeys.me()];
export const refreshUsers = (queryClient: QueryClient) =>
  Promise.all(staleWithUsers().map((queryKey) => queryClient.invalidateQueries({ queryKey })));

/** `company-{id}-user`, mounted app-wide (src/app/realtime-bridge.tsx). */
export function useUsersLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId ? channels.user(companyId) : undefined, () => invalidateOnce(queryClient, ...staleWithUsers()));
}
