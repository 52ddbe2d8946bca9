import { skipToken, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
 * The badges read the query cache under the keys the connections and chat features own, without
 * fetching: the menu never invents data, and lights up as soon as those screens load theirs.
 */
function useCachedList<T>(key: string): T[] | undefined {
  const { data } = useQuery<unknown>({ queryKey: [key, 'list'], queryFn: skipToken });
  if (Array.isArray(data)) return data as T[];
  const records = (data as { records?: T[] } | undefined)?.records;
  return Array.isArray(records) ? records : undefined;
}

export function useMenuBadges(userId: number | undefined): Record<MenuBadge, boolean> {
  const connections = useCachedList<{ status?: string }>('connections');
  const chats = useCachedList<ChatLike>('chats');
  // SPEC 2: the connection state is checked 2 s after load, so a reconnect in progress does not flash it.
  const [checkConnections, setCheckConnections] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setCheckConnections(true), CONNECTION_ALERT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return {
    connections: checkConnections && hasConnectionAlert(connections),
    chats: hasUnreadChats(chats, userId),
  };
}
