import type { Connection, WhatsappSessionEvent } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * The company's WhatsApp connections: the Connections screen and its QR modal, the drawer's '!'
 * badge, the user dialog's select and the new-ticket dialog all read `connectionKeys.list()` (so it
 * holds `Connection[]` for all of them); the editor reads `connectionKeys.detail(id)`. The URLs stay
 * `/whatsapp` as the spec names them.
 */
export const connectionKeys = {
  all: ['connections'] as const,
  list: () => [...connectionKeys.all, 'list'] as const,
  detail: (id: number) => [...connectionKeys.all, 'detail', id] as const,
};

/** GET /whatsapp: the company's connections with their queues. */
export const fetchConnections = () => api<Connection[]>('/whatsapp', { query: { session: 0 } });
/** GET /whatsapp/{id}: one connection (with its API token for admins). */
export const fetchConnection = (id: number) => api<Connection>(`/whatsapp/${id}`);

export const connectionsQueryOptions = () => queryOptions({ queryKey: connectionKeys.list(), queryFn: fetchConnections });
export const useConnections = (enabled = true) => useQuery({ ...connectionsQueryOptions(), enabled });

export const connectionQueryOptions = (id: number) =>
  queryOptions({ queryKey: connectionKeys.detail(id), queryFn: () => fetchConnection(id) });
export const useConnection = (id: number | undefined) =>
  useQuery({ ...connectionQueryOptions(id ?? 0), enabled: id !== undefined, staleTime: 0 });

/** Writes one connection into the list and its detail entry (a save, or a realtime update). */
export function putConnection(queryClient: QueryClient, connection: Connection): void {
  queryClient.setQueryData<Connection[]>(connectionKeys.list(), (list) => {
    if (!list) return list;
    const found = list.some((c) => c.id === connection.id);
    // Realtime payloads carry no token: keep the one an admin already has.
    const merged = list.map((c) => (c.id === connection.id ? { ...connection, token: connection.token || c.token } : c));
    return found ? merged : [...list, connection].sort((a, b) => a.id - b.id);
  });
  queryClient.setQueryData<Connection>(connectionKeys.detail(connection.id), (old) =>
    old ? { ...connection, token: connection.token || old.token } : old,
  );
}

export function removeConnection(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<Connection[]>(connectionKeys.list(), (list) => list?.filter((c) => c.id !== id));
  queryClient.removeQueries({ queryKey: connectionKeys.detail(id) });
}

/** A `company-{id}-whatsappSession` update: status, QR, retries, number and updatedAt only. */
export function patchSession(queryClient: QueryClient, session: WhatsappSessionEvent['session']): void {
  const apply = (c: Connection): Connection => (c.id === session.id ? { ...c, ...session } : c);
  queryClient.setQueryData<Connection[]>(connectionKeys.list(), (list) => list?.map(apply));
  queryClient.setQueryData<Connection>(connectionKeys.detail(session.id), (old) => (old ? apply(old) : old));
}

type WhatsappEvent = { action: 'update'; whatsapp: Connection } | { action: 'delete'; whatsappId: number };

/**
 * Keeps the connections cache live (SPEC 4 "Connection status": status, updatedAt, qrcode and
 * retries update live). Mounted app-wide, so every screen showing connections follows them.
 */
export function useConnectionsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<WhatsappEvent>(companyId ? channels.whatsapp(companyId) : undefined, (data) => {
    if (data?.action === 'update' && data.whatsapp) putConnection(queryClient, data.whatsapp);
    if (data?.action === 'delete' && typeof data.whatsappId === 'number') removeConnection(queryClient, data.whatsappId);
  });
  useRealtimeEvent<WhatsappSessionEvent>(companyId ? channels.whatsappSession(companyId) : undefined, (data) => {
    if (data?.session) patchSession(queryClient, data.session);
  });
}

/**
 * App-wide: live updates for everyone, and for admins (who have the Connections menu entry) the
 * list itself, so the drawer's '!' badge (SPEC 2) reads real states on every screen.
 */
export function useConnectionsWatch(companyId: number | undefined, admin: boolean): void {
  useConnectionsLive(companyId);
  useConnections(Boolean(companyId) && admin);
}
