import type { CreateUserInput, UpdateUserInput, User } from '@conversa/functions/contracts';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface UsersPage {
  users: User[];
  hasMore: boolean;
  count?: number;
}

/** Every users query lives under this key, so one invalidation (a mutation or a realtime event) refreshes them all. */
export const usersKey = ['users'] as const;

/** GET /users?searchParam&pageNumber (admin): a page of the company's users. */
export const fetchUsers = (searchParam: string, pageNumber: number) => api<UsersPage>('/users', { query: { searchParam, pageNumber } });

export const usersInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: [...usersKey, 'list', searchParam],
    queryFn: ({ pageParam }) => fetchUsers(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useUsers = (searchParam: string) => useInfiniteQuery(usersInfiniteQueryOptions(searchParam));

export const createUser = (input: CreateUserInput) => api<User>('/users', { method: 'POST', body: input });
export const updateUser = (id: number, input: UpdateUserInput) => api<User>(`/users/${id}`, { method: 'PUT', body: input });
export const deleteUser = (id: number) => api<unknown>(`/users/${id}`, { method: 'DELETE' });

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  // The signed-in user's own record also feeds the session (name in the greeting, profile).
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: usersKey }), queryClient.invalidateQueries({ queryKey: ['auth', 'me'] })]);
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

export interface Choice {
  id: number;
  name: string;
  color?: string;
}

/**
 * What the user dialog offers: the company's queues and connections, read here (same keys as their
 * own pages, so realtime invalidations of ['queues'] / ['connections'] refresh these too).
 */
export function useUserChoices(enabled: boolean): { queues: Choice[]; connections: Choice[] } {
  const queues = useQuery({ queryKey: ['queues', 'list'] as const, queryFn: () => api<Choice[]>('/queue'), enabled });
  const connections = useQuery({
    queryKey: ['connections', 'list'] as const,
    queryFn: () => api<Choice[]>('/whatsapp', { query: { session: 0 } }),
    enabled,
  });
  return { queues: queues.data ?? [], connections: connections.data ?? [] };
}
