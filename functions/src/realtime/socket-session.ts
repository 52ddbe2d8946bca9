/**
 * The life of one socket: $connect (authenticate, store, tell presence), the client's actions
 * (joins, `userStatus`; API Gateway answers `ping` itself), $disconnect. Storage, token verification,
 * users, presence and the management API come in as ports, so this reads as the protocol and is
 * tested without AWS.
 *
 * Presence (domain/users/presence.ts) is told after each change of a socket: it connected, it said
 * online or away (`userStatus`, on connect, on each change and every 5 minutes, which is also the
 * socket's stored heartbeat), it closed. It reads the user's sockets and announces a change.
 */
import { socketEvents } from '#contracts/channels';
import { socketStatusSchema } from '#contracts/presence-requests';
import { isSupersededSession, isTokenOfUser, lacksSecondFactor } from '#contracts/session';
import type { AllTicket, Profile } from '#contracts/users';
import type { ConnectionRecord, NewConnection, Reading } from '#storage/ws-connections';
import type { WsRouteKey } from '../routes.ts';
import type { PostOutcome } from './management.ts';
import { companyIdSchema, ticketIdSchema, ticketStatusSchema } from './rooms.ts';

export interface SocketIdentity {
  sub: string;
  companyId: number;
  userId: number;
  issuedAt: number;
  jti?: string;
  originJti?: string;
  expiresAt: number;
}

export interface SocketUser {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  queueIds: number[];
  allTicket: AllTicket;
  /** The Cognito user the record belongs to; the token's `sub` must be this one. */
  cognitoSub: string;
  /** `iat` of the newest sign-in: older tokens belong to a session that was replaced. */
  sessionIat?: number;
  sessionJtis?: string[] | null;
  sessionOrigin?: string | null;
  /** Second factor on, and the sign-in that passed it (contracts/session.ts lacksSecondFactor). */
  mfaEnabled?: boolean;
  mfaOrigin?: string | null;
}

export interface SocketSessionDeps {
  /** Throws when the token is missing, forged or expired. */
  verifyToken(token: string | undefined): Promise<SocketIdentity>;
  getUser(companyId: number, userId: number): Promise<SocketUser | undefined>;
  /** The company requires a second factor of this user, who has not enrolled (issue 21): no socket. */
  mustEnrolMfa(user: SocketUser): Promise<boolean>;
  /**
   * One of the user's sockets changed (domain/users/presence.ts presenceChanged); `add` is the socket
   * as it is now, `remove` the one that closed (the user's socket index may not show either yet).
   */
  presenceChanged(
    companyId: number,
    userId: number,
    hint: { add?: ConnectionRecord; remove?: string; connecting?: boolean },
  ): Promise<unknown>;
  connections: {
    put(input: NewConnection): Promise<ConnectionRecord>;
    find(connectionId: string): Promise<ConnectionRecord | undefined>;
    delete(companyId: number, connectionId: string): Promise<void>;
    /** A mention reader's open conversation; false when the connection is gone. */
    setReading(companyId: number, connectionId: string, reading: Reading): Promise<boolean>;
    clearReading(companyId: number, connectionId: string, ticketId: number): Promise<void>;
    /** `userStatus`: the socket's status and heartbeat; false when the connection is gone. */
    setStatus(companyId: number, connectionId: string, status: 'online' | 'away', seenAt: string): Promise<boolean>;
  };
  /**
   * How the socket's user may read the ticket the client names (an id or a uuid): as one of its
   * viewers (no `until`), by a colleague's mention until `until` (ISO), or not (undefined).
   */
  readTicket(connection: ConnectionRecord, ref: number | string): Promise<{ ticketId: number; until?: string } | undefined>;
  post(connectionId: string, payload: unknown): Promise<PostOutcome>;
  close(connectionId: string): Promise<void>;
  /** Epoch seconds; injectable so expiry is testable. */
  now(): number;
}

/** What the Lambda answers API Gateway: on $connect anything but 2xx refuses the socket. */
export interface SessionResult {
  statusCode: number;
}

const ok: SessionResult = { statusCode: 200 };
const ignored: SessionResult = { statusCode: 400 };

export interface SocketSession {
  connect(connectionId: string, token: string | undefined): Promise<SessionResult>;
  disconnect(connectionId: string): Promise<SessionResult>;
  message(connectionId: string, routeKey: WsRouteKey | string, body: string | undefined): Promise<SessionResult>;
}

/** Reads `data` from `{"action": ..., "data": ...}`; a body that is not that object yields undefined. */
function dataOf(body: string | undefined): unknown {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' && 'data' in parsed ? (parsed as { data: unknown }).data : undefined;
  } catch {
    return undefined;
  }
}

export function createSocketSession(deps: SocketSessionDeps): SocketSession {
  const nowIso = () => new Date(deps.now() * 1000).toISOString();

  async function connect(connectionId: string, token: string | undefined): Promise<SessionResult> {
    let identity: SocketIdentity;
    try {
      identity = await deps.verifyToken(token);
    } catch {
      return { statusCode: 401 };
    }
    const user = await deps.getUser(identity.companyId, identity.userId);
    if (!user || user.companyId !== identity.companyId) return { statusCode: 401 };
    // The tenancy attributes only name a record; the sub proves the token is that user's (a user
    // who rewrote its own custom:companyId must not get another company's events).
    if (!isTokenOfUser(identity, user)) return { statusCode: 401 };
    // Single session: a sign-in elsewhere raised sessionIat; this token belongs to the older one.
    if (isSupersededSession(identity, user)) return { statusCode: 401 };
    // No socket for a sign-in that has not passed the second factor, nor before a required enrolment.
    if (lacksSecondFactor(identity, user)) return { statusCode: 401 };
    if (await deps.mustEnrolMfa(user)) return { statusCode: 403 };
    const record = await deps.connections.put({
      connectionId,
      companyId: identity.companyId,
      userId: user.id,
      profile: user.profile,
      super: user.super,
      queueIds: user.queueIds,
      allTicket: user.allTicket,
      tokenExpiresAt: identity.expiresAt,
      tokenIssuedAt: identity.issuedAt,
      tokenJti: identity.jti ?? '',
      tokenOrigin: identity.originJti ?? '',
    });
    await deps.presenceChanged(identity.companyId, user.id, { add: record, connecting: true });
    return ok;
  }

  async function disconnect(connectionId: string): Promise<SessionResult> {
    const connection = await deps.connections.find(connectionId);
    if (!connection) return ok;
    await deps.connections.delete(connection.companyId, connectionId);
    // Offline only when this was the user's last live socket (other tabs, other devices).
    await deps.presenceChanged(connection.companyId, connection.userId, { remove: connectionId });
    return ok;
  }

  async function message(connectionId: string, routeKey: string, body: string | undefined): Promise<SessionResult> {
    const connection = await deps.connections.find(connectionId);
    if (!connection) {
      // Unknown here (its record deleted, or $connect's write was lost): close it so
      // the client reconnects and registers again instead of listening to nothing.
      await deps.close(connectionId);
      return { statusCode: 410 };
    }
    if (connection.tokenExpiresAt <= deps.now()) {
      // Closing too, so a revoked or stale session stops receiving events; the client reconnects
      // with its refreshed token.
      await deps.post(connectionId, { event: socketEvents.authExpired, data: null });
      await deps.close(connectionId);
      return { statusCode: 401 };
    }
    const { companyId } = connection;
    const data = dataOf(body);
    const ticketRef = () => {
      const parsed = ticketIdSchema.safeParse(data);
      return parsed.success ? parsed.data : undefined;
    };
    // The spec's list and notification joins are acknowledged and not stored: a socket already gets
    // what its user may see (publisher.ts), and a stored room nobody reads is a write for nothing.
    const acknowledged = (valid: boolean) => (valid ? ok : ignored);

    switch (routeKey) {
      case 'joinChatBox': {
        // One conversation per socket. Only a ticket read by a mention needs storing: its messages
        // then reach this socket too (audience `reader`); a viewer gets them anyway.
        const ref = ticketRef();
        if (ref === undefined) return ignored;
        const reading = await deps.readTicket(connection, ref);
        const previous = connection.reading;
        if (reading?.until) {
          const stored = { ticketId: reading.ticketId, ref: String(ref), until: reading.until };
          return (await deps.connections.setReading(companyId, connectionId, stored)) ? ok : ignored;
        }
        if (previous) await deps.connections.clearReading(companyId, connectionId, previous.ticketId);
        return reading ? ok : ignored;
      }
      case 'leaveChatBox': {
        const ref = ticketRef();
        if (ref === undefined) return ignored;
        const { reading } = connection;
        if (reading && (reading.ref === String(ref) || reading.ticketId === ref)) {
          await deps.connections.clearReading(companyId, connectionId, reading.ticketId);
        }
        return ok;
      }
      case 'joinTickets':
      case 'leaveTickets':
        return acknowledged(ticketStatusSchema.safeParse(data).success);
      case 'joinNotification':
        return ok;
      case 'joinCompanyMessage': {
        // Another tenant's id is refused: the tenant is the token's, never the client's word.
        const parsed = companyIdSchema.safeParse(data);
        return acknowledged(parsed.success && parsed.data === companyId);
      }
      // `ping` never gets here: API Gateway answers it itself (routes.ts gatewayAnsweredWsRoutes).
      // userStatus, every 5 minutes from each client (and on each change), is the message that runs
      // the checks above. No data is "online", as the spec's client sends it.
      case 'userStatus': {
        const parsed = socketStatusSchema.safeParse(data);
        if (!parsed.success) return ignored;
        const status = parsed.data ?? 'online';
        const lastSeenAt = nowIso();
        if (!(await deps.connections.setStatus(companyId, connectionId, status, lastSeenAt))) return ignored;
        await deps.presenceChanged(companyId, connection.userId, { add: { ...connection, status, lastSeenAt } });
        return ok;
      }
      default:
        return ignored;
    }
  }

  return { connect, disconnect, message };
}
