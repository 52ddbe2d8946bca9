import type { Connection, ConnectionInput, ConnectionUpdateInput, WhatsappSessionEvent } from '@conversa/functions/contracts';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * Every connections query lives under this key. `['connections', 'list']` is also read by the
 * drawer's '!' badge and the user dialog's connection select, so it must hold `Connection[]`.
 */
export const connectionsKey = ['connections'] as const;
export const connectionsListKey = [...connectionsKey, 'list'] as const;
export const connectionKey = (id: number) => [...connectionsKey, 'detail', id] as const;

/** GET /whatsapp: the company's connections with their queues. */
export const fetchConnections = () => api<Connection[]>('/whatsapp', { query: { session: 0 } });
/** GET /whatsapp/{id}: one connection (with its API token for admins). */
export const fetchConnection = (id: number) => api<Connection>(`/whatsapp/${id}`);

export const connectionsQueryOptions = () => queryOptions({ queryKey: connectionsListKey, queryFn: fetchConnections });
export const useConnections = (enabled = true) => useQuery({ ...connectionsQueryOptions(), enabled });

export const connectionQueryOptions = (id: number) => queryOptions({ queryKey: connectionKey(id), queryFn: () => fetchConnection(id) });
export const useConnection = (id: number | undefined) =>
  useQuery({ ...connectionQueryOptions(id ?? 0), enabled: id !== undefined, staleTime: 0 });

export const createConnection = (input: ConnectionInput) => api<Connection>('/whatsapp', { method: 'POST', body: input });
export const updateConnection = (id: number, input: ConnectionUpdateInput) =>
  api<Connection>(`/whatsapp/${id}`, { method: 'PUT', body: input });
export const deleteConnection = (id: number) => api<unknown>(`/whatsapp/${id}`, { method: 'DELETE' });

/** SPEC 7: POST = try again, PUT = new QR, DELETE = disconnect. */
export type SessionAction = 'start' | 'newQr' | 'disconnect';
const sessionMethods = { start: 'POST', newQr: 'PUT', disconnect: 'DELETE' } as const;
export const runSessionAction = (id: number, action: SessionAction) =>
  api<{ message: string }>(`/whatsappsession/${id}`, { method: sessionMethods[action] });

/** Writes one connection into the list and its detail entry (a save, or a realtime update). */
export function putConnection(queryClient: QueryClient, connection: Connection): void {
  queryClient.setQueryData<Connection[]>(connectionsListKey, (list) => {
    if (!list) return list;
    const found = list.some((c) => c.id === connection.id);
    // Realtime payloads carry no token: keep the one an admin already has.
    const merged = list.map((c) => (c.id === connection.id ? { ...connection, token: connection.token || c.token } : c));
    return found ? merged : [...list, connection].sort((a, b) => a.id - b.id);
  });
  queryClient.setQueryData<Connection>(connectionKey(connection.id), (old) =>
    old ? { ...connection, token: connection.token || old.token } : old,
  );
}

export function removeConnection(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<Connection[]>(connectionsListKey, (list) => list?.filter((c) => c.id !== id));
  queryClient.removeQueries({ queryKey: connectionKey(id) });
}

/** A `company-{id}-whatsappSession` update: status, QR, retries, number and updatedAt only. */
export function patchSession(queryClient: QueryClient, session: WhatsappSessionEvent['session']): void {
  const apply = (c: Connection): Connection => (c.id === session.id ? { ...c, ...session } : c);
  queryClient.setQueryData<Connection[]>(connectionsListKey, (list) => list?.map(apply));
  queryClient.setQueryData<Connection>(connectionKey(session.id), (old) => (old ? apply(old) : old));
}

export function useSaveConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { id?: number; input: ConnectionInput }) =>
      args.id ? updateConnection(args.id, args.input) : createConnection(args.input),
    onSuccess: (connection) => {
      putConnection(queryClient, connection);
      // Saving a default unsets another one: refresh the list for the flags.
      void queryClient.invalidateQueries({ queryKey: connectionsListKey });
    },
  });
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConnection,
    onSuccess: (_data, id) => {
      removeConnection(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: connectionsListKey });
    },
  });
}

export function useSessionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { id: number; action: SessionAction }) => runSessionAction(args.id, args.action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionsListKey }),
  });
}

/**
 * The company's queues for the editor's selects. Same key and shape as the queues feature's list,
 * so both share one cache entry (and its realtime invalidation).
 */
export const useQueueChoices = () =>
  useQuery({ queryKey: ['queues', 'list'] as const, queryFn: () => api<Array<{ id: number; name: string; color: string }>>('/queue') });
