/**
 * Presence (issue 22 §1): whether a user can be reached now. `online`: a live socket of theirs says
 * so; `away`: every live socket of theirs says away (the tab hidden or idle 10 minutes, or Away chosen
 * in the top bar); `offline`: no live socket. A socket is live while API Gateway still knows it and
 * it was active within PRESENCE_HEARTBEAT_TIMEOUT_MS (domain/users/presence.ts).
 *
 * Zod-free: the web shell imports these values on its first screen (the schema is presence-requests.ts).
 */
export const presences = ['online', 'away', 'offline'] as const;
export type Presence = (typeof presences)[number];

/** What one socket says of its user (the `userStatus` action's data; no data means online, as the spec's client sends it). */
export const socketStatuses = ['online', 'away'] as const;
export type SocketStatus = (typeof socketStatuses)[number];

/**
 * A socket silent for longer than this is treated as gone, whatever $disconnect did: the client pings
 * every 18 s (SOCKET_PING_INTERVAL_MS) and a hidden tab's timers may run only once a minute, so 90 s
 * is more than one missed minute. With the screens' refresh (PRESENCE_REFRESH_MS) an attendant whose
 * sockets all vanished shows offline within two minutes.
 */
export const PRESENCE_HEARTBEAT_TIMEOUT_MS = 90_000;
/** How often a screen that shows presence reads it again (a silent socket publishes no event). */
export const PRESENCE_REFRESH_MS = 30_000;
/** A tab with no input for this long says away (issue 22 §1). */
export const PRESENCE_IDLE_MS = 10 * 60_000;

/** `company-{id}-presence` payload: a user's presence changed. */
export interface PresenceEvent {
  action: 'update';
  userId: number;
  presence: Presence;
}
