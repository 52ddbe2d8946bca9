/**
 * The socket's view of users: who may connect (profile, queues, single-session `sessionIat`) and
 * their open sockets' entitlement after an edit. Adapts the users entity so the
 * socket session does not depend on its shape.
 */
import { logger } from '#commons/logger';
import { type AuthEventData, channels } from '#contracts/channels';
import { ENDED_SESSION_JTI, isSupersededSession, mfaPolicyApplies } from '#contracts/session';
import type { AllTicket, Profile } from '#contracts/users';
import { getSettingCached } from '#storage/settings';
import { getUser } from '#storage/users/users';
import { deleteConnection, listCompanyConnections, setConnectionViewer } from '#storage/ws-connections';
import { closeConnection } from './management.ts';
import { publishToUser } from './publisher.ts';
import type { SocketUser } from './socket-session.ts';

export async function getSocketUser(companyId: number, userId: number): Promise<SocketUser | undefined> {
  const user = await getUser(companyId, userId);
  if (!user) return undefined;
  return {
    id: user.id,
    companyId: user.companyId,
    profile: user.profile,
    super: user.super,
    queueIds: user.queueIds ?? [],
    allTicket: user.allTicket,
    cognitoSub: user.cognitoSub,
    sessionIat: user.sessionIat,
    sessionJtis: user.sessionJtis ?? null,
    sessionOrigin: user.sessionOrigin ?? null,
    mfaEnabled: Boolean(user.mfaEnabled),
    mfaOrigin: user.mfaOrigin ?? null,
  };
}

/** The company's `mfaRequired` asks a second factor of this user, who has none yet (settings read through the cache). */
export async function mustEnrolMfa(user: SocketUser): Promise<boolean> {
  if (user.mfaEnabled) return false;
  return mfaPolicyApplies(await getSettingCached(user.companyId, 'mfaRequired'), user);
}

/**
 * After a user's profile, queues, allTicket or super flag changed: their open sockets take the new
 * entitlement at once (the publisher filters on the socket's copy, written at $connect), so a user
 * taken out of a queue stops receiving its tickets and a user put in starts, without reconnecting.
 * Never throws: the user's change is already stored; a socket left stale is fixed by its reconnect.
 */
export async function refreshUserSockets(
  companyId: number,
  user: { id: number; profile: Profile; super: boolean; queueIds?: number[] | null; allTicket: AllTicket },
): Promise<void> {
  try {
    const sockets = (await listCompanyConnections(companyId)).filter((socket) => socket.userId === user.id);
    const viewer = { profile: user.profile, super: user.super, queueIds: user.queueIds ?? [], allTicket: user.allTicket };
    await Promise.all(sockets.map((socket) => setConnectionViewer(companyId, socket.connectionId, viewer)));
  } catch (error) {
    logger.warn('could not refresh the sockets of a changed user', { companyId, userId: user.id, error: error as Error });
  }
}

/**
 * Closes, from the server side, the user's sockets opened with a token of another session than
 * `session` (all of them without one) and forgets them, so a client that ignores the auth event
 * stops receiving the company's events all the same. Never throws: the session change is already
 * stored, and a socket left behind can no longer pass $connect or call the API.
 */
export async function closeSessionSockets(
  companyId: number,
  userId: number,
  session?: { sessionIat: number; sessionJtis: string[] | null; sessionOrigin: string | null },
): Promise<void> {
  try {
    const sockets = (await listCompanyConnections(companyId)).filter(
      (socket) =>
        socket.userId === userId &&
        (!session || isSupersededSession({ issuedAt: socket.tokenIssuedAt, jti: socket.tokenJti, originJti: socket.tokenOrigin }, session)),
    );
    await Promise.all(
      sockets.map(async (socket) => {
        await closeConnection(socket.connectionId);
        await deleteConnection(companyId, socket.connectionId);
      }),
    );
  } catch (error) {
    logger.warn('could not close the sockets of an ended session', { companyId, userId, error: error as Error });
  }
}

/** After a user was deleted: their open sockets are told the session ended (the web signs out), then closed. */
export async function closeUserSockets(companyId: number, userId: number): Promise<void> {
  try {
    const ended: AuthEventData = {
      action: 'update',
      user: { id: userId },
      sessionIat: Math.floor(Date.now() / 1000),
      sessionJti: ENDED_SESSION_JTI,
      sessionOrigin: ENDED_SESSION_JTI,
    };
    await publishToUser(companyId, userId, channels.auth(companyId), ended);
  } catch (error) {
    logger.warn('could not tell a deleted user its session ended', { companyId, userId, error: error as Error });
  }
  await closeSessionSockets(companyId, userId);
}
