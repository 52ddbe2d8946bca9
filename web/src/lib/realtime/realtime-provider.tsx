import type { ClientMessage, ServerEvent } from '@conversa/functions/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from 'react';
import { runtimeConfig } from '../../config/runtime-config.ts';
import { currentIdToken } from '../auth/tokens.ts';
import { ownStatus } from './presence-status.ts';
import { type EventListener, RealtimeClient } from './realtime-client.ts';

interface RealtimeValue {
  subscribe: (listener: EventListener) => () => void;
  send: (message: ClientMessage) => void;
}

const RealtimeContext = createContext<RealtimeValue>({ subscribe: () => () => {}, send: () => {} });
const RELOAD_DELAY_MS = 1000;

/**
 * Owns the socket for the signed-in user. `sessionKey` (company and user) recreates it when the user
 * changes (SPEC 4); without one the provider stays inert.
 */
export function RealtimeProvider({ sessionKey, children }: { sessionKey: string | undefined; children: ReactNode }) {
  const listeners = useRef(new Set<EventListener>());
  const client = useRef<RealtimeClient | undefined>(undefined);
  const queryClient = useQueryClient();

  useEffect(() => {
    const wsUrl = runtimeConfig().wsUrl;
    if (!sessionKey || !wsUrl) return;
    const realtime = new RealtimeClient({
      wsUrl,
      getToken: async (renew) => {
        const token = await currentIdToken(renew);
        if (!token?.expiresAt) return undefined; // invalid or without expiry: inert
        if (token.expiresAt * 1000 <= Date.now()) {
          // SPEC 4: an expired token reloads the page after 1 s (which sends the user to sign in).
          setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
          return undefined;
        }
        return { jwt: token.jwt, expiresAt: token.expiresAt };
      },
      onEvent: (event: ServerEvent) => {
        for (const listener of listeners.current) listener(event);
      },
      // Events sent while the socket was down are lost: every list on screen is fetched again, once
      // (the others refetch when next shown), rather than trusting a cache that missed them.
      onReconnect: () => void queryClient.invalidateQueries(),
    });
    client.current = realtime;
    // The status the first socket says as it opens (presence-status.ts keeps it current after).
    realtime.send({ action: 'userStatus', data: ownStatus() });
    realtime.start();
    return () => {
      realtime.close();
      if (client.current === realtime) client.current = undefined;
    };
  }, [sessionKey, queryClient]);

  const value = useMemo<RealtimeValue>(
    () => ({
      subscribe: (listener) => {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
      send: (message) => client.current?.send(message),
    }),
    [],
  );
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

/** Runs `handler` for every server event named `event` (a channel from the contracts). */
export function useRealtimeEvent<T>(event: string | undefined, handler: (data: T) => void): void {
  const { subscribe } = useContext(RealtimeContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!event) return;
    return subscribe((message) => {
      if (message.event === event) latest.current(message.data as T);
    });
  }, [event, subscribe]);
}

export function useRealtime(): RealtimeValue {
  return useContext(RealtimeContext);
}
