import type { Connection, ConnectionInput, ConnectionUpdateInput } from '@conversa/functions/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { connectionKeys, putConnection, removeConnection } from '../../../lib/lookups/connections.ts';

/*
 * The Connections screen's writes and session actions. The list, the detail, their keys and the cache
 * writers realtime shares are the lookup in lib/lookups/connections.ts.
 */

export const createConnection = (input: ConnectionInput) => api<Connection>('/whatsapp', { method: 'POST', body: input });
export const updateConnection = (id: number, input: ConnectionUpdateInput) =>
  api<Connection>(`/whatsapp/${id}`, { method: 'PUT', body: input });
export const deleteConnection = (id: number) => api<unknown>(`/whatsapp/${id}`, { method: 'DELETE' });

/** SPEC 7: POST = try again, PUT = new QR, DELETE = disconnect. */
export type SessionAction = 'start' | 'newQr' | 'disconnect';
const sessionMethods = { start: 'POST', newQr: 'PUT', disconnect: 'DELETE' } as const;
export const runSessionAction = (id: number, action: SessionAction) =>
  api<{ message: string }>(`/whatsappsession/${id}`, { method: sessionMethods[action] });

export function useSaveConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { id?: number; input: ConnectionInput }) =>
      args.id ? updateConnection(args.id, args.input) : createConnection(args.input),
    onSuccess: (connection) => {
      putConnection(queryClient, connection);
      // Saving a default unsets another one: refresh the list for the flags.
      void queryClient.invalidateQueries({ queryKey: connectionKeys.list() });
    },
  });
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConnection,
    onSuccess: (_data, id) => {
      removeConnection(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: connectionKeys.list() });
    },
  });
}

export function useSessionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { id: number; action: SessionAction }) => runSessionAction(args.id, args.action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionKeys.list() }),
  });
}
