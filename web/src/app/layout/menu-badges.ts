import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { latestChatsQueryOptions } from '../../lib/lookups/chats.ts';
import { connectionsQueryOptions } from '../../lib/lookups/connections.ts';
import { mentionsQueryOptions } from '../../lib/lookups/mentions.ts';
import type { MenuBadge } from './menu-items.ts';

/** SPEC 2: these connection states need the admin's attention. */
const alertStatuses = new Set(['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING']);
export const CONNECTION_ALERT_DELAY_MS = 2000;

export function hasConnectionAlert(connections: ReadonlyArray<{ status?: string }> | undefined): boolean {
  return Boolean(connections?.some((c) => c.status && alertStatuses.has(c.status)));
}

interface ChatLike {
  users?: ReadonlyArray<{ userId: number; unreads?: number }>;
}
export function hasUnreadChats(chats: ReadonlyArray<ChatLike> | undefined, userId: number | undefined): boolean {
  return Boolean(chats?.some((chat) => chat.users?.some((u) => u.userId === userId && (u.unreads ?? 0) > 0)));
}

/**
 * The latest chats (loaded by the top bar's chat popover) count the caller's unread chats across
 * every page (GET /chats `unreadChats`). Observed with the list's own query function, not skipToken:
 * the query keeps the options of its latest observer, and a skipToken one would make the refetch
 * that a chat event asks for fail.
 */
function useUnreadChats(userId: number | undefined): boolean {
  const { data } = useQuery({ ...latestChatsQueryOptions(), enabled: false });
  return (data?.unreadChats ?? 0) > 0 || hasUnreadChats(data?.records, userId);
}

/**
 * The connections badge reads the list the app-wide watch loads for admins (useConnectionsWatch)
 * and the connection channels keep live, without fetching it itself (enabled: false). It observes
 * with the list's own query function, not skipToken: the query keeps the options of its latest
 * observer, so a skipToken one made every refetch of the list (after a save, on focus) fail and
 * left the badge on stale states.
 */
export const connectionsBadgeQueryOptions = () => ({ ...connectionsQueryOptions(), enabled: false });

export function useMenuBadges(userId: number | undefined): Record<MenuBadge, boolean> {
  const connections = useQuery(connectionsBadgeQueryOptions()).data;
  const chats = useUnreadChats(userId);
  // The bell loads the mentions and keeps them live; the dot only reads them.
  const mentions = (useQuery({ ...mentionsQueryOptions(userId), enabled: false }).data?.unread ?? 0) > 0;
  // SPEC 2: the connection state is checked 2 s after load, so a reconnect in progress does not flash it.
  const [checkConnections, setCheckConnections] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setCheckConnections(true), CONNECTION_ALERT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return {
    connections: checkConnections && hasConnectionAlert(connections),
    chats,
    mentions,
  };
}
