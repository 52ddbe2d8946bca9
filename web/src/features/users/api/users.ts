import type { CreateUserInput, UpdateUserInput, User } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import { PRESENCE_REFRESH_MS, type PresenceEvent } from '@conversa/functions/contracts/presence';
import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { refreshUsers, userKeys } from '../../../lib/lookups/users.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';

export interface UsersPage {
  users: User[];
  hasMore: boolean;
  count?: number;
}

/** GET /users?searchParam&pageNumber (admin): a page of the company's users. */
export const fetchUsers = (searchParam: string, pageNumber: number) => api<UsersPage>('/users', { query: { searchParam, pageNumber } });

export const usersInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: userKeys.list(searchParam),
    queryFn: ({ pageParam }) => fetchUsers(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
    // Presence changes without an event when a socket vanishes silently: read again while shown.
    refetchInterval: PRESENCE_REFRESH_MS,
  });

/** `company-{id}-presence`: the user's dot changes in the cached pages, nothing is refetched. */
export function useUsersPresenceLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<PresenceEvent>(companyId ? channels.presence(companyId) : undefined, (event) => {
    if (event?.action !== 'update') return;
    queryClient.setQueriesData<InfiniteData<UsersPage>>({ queryKey: userKeys.lists() }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              users: page.users.map((user) =>
                user.id === event.userId ? { ...user, presence: event.presence, online: event.presence !== 'offline' } : user,
              ),
            })),
          }
        : data,
    );
  });
}

export const useUsers = (searchParam: string) => useInfiniteQuery(usersInfiniteQueryOptions(searchParam));

export const createUser = (input: CreateUserInput) => api<User>('/users', { method: 'POST', body: input });
export const updateUser = (id: number, input: UpdateUserInput) => api<User>(`/users/${id}`, { method: 'PUT', body: input });
export const deleteUser = (id: number) => api<unknown>(`/users/${id}`, { method: 'DELETE' });

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  // The signed-in user's own record also feeds the session (name in the greeting, profile).
  return () => refreshUsers(queryClient);
}

export function useSaveUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (args: { id?: number; input: CreateUserInput | UpdateUserInput }) =>
      args.id ? updateUser(args.id, args.input as UpdateUserInput) : createUser(args.input as CreateUserInput),
    onSuccess: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({ mutationFn: deleteUser, onSuccess: invalidate });
}
