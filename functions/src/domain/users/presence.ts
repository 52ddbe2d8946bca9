/**
 * Presence (issue 22 §1): `online`, `away` or `offline`, read from the user's sockets themselves,
 * never from a flag, so an attendant whose sockets all vanished (a closed laptop, a lost network, a
 * $disconnect that never ran) is offline within the heartbeat window and gets no new ticket.
 *
 * A socket counts while all of this holds: its record is there (TTL not passed), its token is valid
 * (the publisher sends nothing to one that expired), and it was active within
 * PRESENCE_HEARTBEAT_TIMEOUT_MS. "Active" is first its stored heartbeat (`lastSeenAt`: $connect and
 * each `userStatus`); once that is older, API Gateway's own record of the socket (GetConnection's
 * `lastActiveAt`, moved by every frame the client sends, the 18 s pings included, which never reach a
 * Lambda): 410 Gone means API Gateway dropped it, and the record is forgotten on the spot. A user is
 * `online` when a counting socket says online, `away` when every counting socket says away
 * (`userStatus` "away": the tab hidden or idle, or Away chosen by hand), else `offline`.
 *
 * Cost of readPresence(companyId, userIds), k distinct users:
 *   - DynamoDB: k Queries on gsi3 (one user's sockets, in parallel) when k <= PER_USER_QUERY_MAX,
 *     else one Query of the tenant's connections (pk C#<id>, paged past 1 MB). Nothing is written,
 *     except deleting a record API Gateway no longer holds.
 *   - API Gateway management API: one GetConnection per counting socket whose stored heartbeat is
 *     stale and whose answer could change the outcome (a user already online by a fresh socket asks
 *     nothing), at most PRESENCE_CHECK_CONCURRENCY at once. An answer is remembered per Lambda
 *     instance: a socket active at T counts until T + the window whatever is asked meanwhile, so it is
 *     asked again only once that has passed (about once per window per socket while it is needed).
 */

import { logger } from '#commons/logger';
import { channels, USER_STATUS_INTERVAL_MS } from '#contracts/channels';
import { PRESENCE_HEARTBEAT_TIMEOUT_MS, type Presence, type PresenceEvent } from '#contracts/presence';
import { mapWithConcurrency } from '#realtime/concurrency';
import { type ConnectionActivity, connectionActivity } from '#realtime/management';
import { publish } from '#realtime/publisher';
import { recordPresence } from '#storage/users/users';
import type { ConnectionRecord } from '#storage/ws-connections';
import * as connections from '#storage/ws-connections';
import { onUserAvailable } from './presence-events.ts';

export type { Presence };

/** Up to this many users are read one gsi3 Query each; more, and one Query of the tenant's sockets is cheaper. */
export const PER_USER_QUERY_MAX = 8;
/** GetConnection calls in flight per read. */
export const PRESENCE_CHECK_CONCURRENCY = 8;
/** Remembered GetConnection answers per Lambda instance (a bound, not a tuning knob). */
const ACTIVITY_CACHE_MAX = 20_000;

export interface PresenceDeps {
  listUserSockets(companyId: number, userId: number): Promise<ConnectionRecord[]>;
  listCompanySockets(companyId: number): Promise<ConnectionRecord[]>;
  /** API Gateway's view of one socket (realtime/management.ts connectionActivity). */
  activity(connectionId: string): Promise<ConnectionActivity>;
  /** Deletes the record of a socket API Gateway no longer holds. */
  forget(companyId: number, connectionId: string): Promise<void>;
  /** Epoch milliseconds. */
  now(): number;
}

/** Adjusts what a read found, for a change the index may not show yet (gsi3 is eventually consistent). */
export interface SocketHint {
  /** A socket just connected or just wrote its status: counted as given. */
  add?: ConnectionRecord;
  /** A socket just closed: not counted. */
  remove?: string;
  /**
   * `add` is still in its $connect: API Gateway holds it only once $connect answers, so a frame
   * posted to it now answers 410 and the publisher would delete its record. It gets no event.
   */
  connecting?: boolean;
}

export interface PresenceReader {
  readPresence(companyId: number, userIds: number[], hint?: SocketHint): Promise<Map<number, Presence>>;
}

const seenAt = (record: ConnectionRecord): number => Date.parse(record.lastSeenAt) || 0;

export function createPresenceReader(deps: PresenceDeps): PresenceReader {
  /** connectionId -> lastActiveAt (ms) API Gateway reported. */
  const remembered = new Map<string, number>();

  async function liveAt(record: ConnectionRecord): Promise<number | undefined> {
    const now = deps.now();
    const known = Math.max(seenAt(record), remembered.get(record.connectionId) ?? 0);
    if (now - known <= PRESENCE_HEARTBEAT_TIMEOUT_MS) return known;
    const activity = await deps.activity(record.connectionId);
    if (activity === 'gone') {
      remembered.delete(record.connectionId);
      await deps.forget(record.companyId, record.connectionId).catch((error: unknown) => {
        logger.warn('could not forget a gone socket', { connectionId: record.connectionId, error: error as Error });
      });
      return undefined;
    }
    if (activity === 'unknown') {
      // The management API did not answer: the client's own heartbeat (userStatus every 5 minutes) decides.
      return now - seenAt(record) <= USER_STATUS_INTERVAL_MS + PRESENCE_HEARTBEAT_TIMEOUT_MS ? seenAt(record) : undefined;
    }
    if (remembered.size >= ACTIVITY_CACHE_MAX) remembered.clear();
    remembered.set(record.connectionId, activity.lastActiveAt);
    return now - activity.lastActiveAt <= PRESENCE_HEARTBEAT_TIMEOUT_MS ? activity.lastActiveAt : undefined;
  }

  /** One user's presence from their sockets, asking API Gateway only about sockets that could change it. */
  async function presenceOf(sockets: ConnectionRecord[]): Promise<Presence> {
    const nowSeconds = Math.floor(deps.now() / 1000);
    const counted = sockets.filter((socket) => connections.hasLiveToken(socket, nowSeconds));
    const fresh = (socket: ConnectionRecord) => deps.now() - seenAt(socket) <= PRESENCE_HEARTBEAT_TIMEOUT_MS;
    if (counted.some((socket) => socket.status === 'online' && fresh(socket))) return 'online';
    let best: Presence = counted.some((socket) => socket.status === 'away' && fresh(socket)) ? 'away' : 'offline';
    // Online sockets first: one that is alive settles it.
    const stale = counted
      .filter((socket) => !fresh(socket) && (best === 'offline' || socket.status === 'online'))
      .sort((a, b) => (a.status === b.status ? 0 : a.status === 'online' ? -1 : 1));
    for (const socket of stale) {
      if ((await liveAt(socket)) === undefined) continue;
      if (socket.status === 'online') return 'online';
      best = 'away';
    }
    return best;
  }

  async function socketsByUser(companyId: number, ids: number[]): Promise<Map<number, ConnectionRecord[]>> {
    const byUser = new Map<number, ConnectionRecord[]>(ids.map((id) => [id, []]));
    const lists =
      ids.length <= PER_USER_QUERY_MAX
        ? await Promise.all(ids.map((id) => deps.listUserSockets(companyId, id)))
        : [await deps.listCompanySockets(companyId)];
    for (const socket of lists.flat()) {
      // The tenant check again: a mis-keyed item never counts for another company's user.
      if (socket.companyId === companyId) byUser.get(socket.userId)?.push(socket);
    }
    return byUser;
  }

  async function readPresence(companyId: number, userIds: number[], hint: SocketHint = {}): Promise<Map<number, Presence>> {
    const ids = [...new Set(userIds.filter((id) => Number.isInteger(id) && id > 0))];
    if (ids.length === 0) return new Map();
    const byUser = await socketsByUser(companyId, ids);
    if (hint.add && hint.add.companyId === companyId) {
      const list = byUser.get(hint.add.userId);
      if (list) byUser.set(hint.add.userId, [...list.filter((s) => s.connectionId !== hint.add?.connectionId), hint.add]);
    }
    if (hint.remove)
      for (const [id, list] of byUser)
        byUser.set(
          id,
          list.filter((s) => s.connectionId !== hint.remove),
        );
    const entries = await mapWithConcurrency([...byUser], PRESENCE_CHECK_CONCURRENCY, async ([id, sockets]) => {
      return [id, await presenceOf(sockets)] as const;
    });
    return new Map(entries);
  }

  return { readPresence };
}

const defaultReader = createPresenceReader({
  listUserSockets: connections.listUserConnections,
  listCompanySockets: connections.listCompanyConnections,
  activity: connectionActivity,
  forget: connections.deleteConnection,
  now: () => Date.now(),
});

/**
 * Each asked user's presence now (ids of another company, or unknown, read `offline`). Cost above:
 * k <= 8 users: k DynamoDB Queries; more: one Query of the tenant's sockets; plus at most one
 * GetConnection per socket whose stored heartbeat is stale.
 */
export const readPresence = (companyId: number, userIds: number[]): Promise<Map<number, Presence>> =>
  defaultReader.readPresence(companyId, userIds);

/**
 * After one of the user's sockets connected, said its status or closed: reads the user's presence,
 * and when it differs from the one last recorded, records it, announces it on `company-{id}-presence`
 * to the company's sockets, and, when it became `online`, calls onUserAvailable. Two changes racing
 * may announce in either order; the socket's next userStatus (every 5 minutes) settles it.
 */
export async function presenceChanged(
  companyId: number,
  userId: number,
  hint: SocketHint,
  reader: PresenceReader = defaultReader,
): Promise<Presence> {
  const presence = (await reader.readPresence(companyId, [userId], hint)).get(userId) ?? 'offline';
  if (!(await recordPresence(companyId, userId, presence, new Date().toISOString()))) return presence;
  const event: PresenceEvent = { action: 'update', userId, presence };
  const connecting = hint.connecting ? hint.add?.connectionId : undefined;
  await publish(companyId, channels.presence(companyId), event, (socket) => socket.connectionId !== connecting);
  if (presence === 'online') {
    await onUserAvailable(companyId, userId).catch((error: unknown) => {
      logger.error('onUserAvailable failed', { companyId, userId, error: error as Error });
    });
  }
  return presence;
}
