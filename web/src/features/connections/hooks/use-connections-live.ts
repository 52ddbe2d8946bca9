import { type Connection, channels, type WhatsappSessionEvent } from '@conversa/functions/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { patchSession, putConnection, removeConnection, useConnections } from '../api/connections.ts';

type WhatsappEvent = { action: 'update'; whatsapp: Connection } | { action: 'delete'; whatsappId: number };

/**
 * Keeps the connections cache live (SPEC 4 "Connection status": status, updatedAt, qrcode and
 * retries update live). Mounted app-wide, so the drawer badge follows states on every screen.
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
