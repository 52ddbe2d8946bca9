/**
 * The single session (BEHAVIOUR "Passwords"/SPEC 4 "Session and sockets"): the newest sign-in wins.
 * Claiming stores the new token's `iat` and `origin_jti` (tokens of any other sign-in are then refused
 * by the API and the socket), revokes the previous refresh token, tells the user's open sockets so the
 * old tab logs out, and closes the old session's sockets from the server side, so a client that
 * ignores the event stops receiving the company's events all the same.
 */

import { cognitoAuth, cognitoUsers } from '#adapters/cognito-lazy';
import { UnauthorizedError } from '#commons/errors';
import { logger } from '#commons/logger';
import { type AuthEventData, channels } from '#contracts/channels';
import { ENDED_SESSION_JTI, isTokenOfUser } from '#contracts/session';
import { claimSession, getUser } from '#storage/users/users';

type PublishToUser = (companyId: number, userId: number, event: string, data: unknown) => Promise<unknown>;
type CloseSessionSockets = (
  companyId: number,
  userId: number,
  session: { sessionIat: number; sessionJtis: string[] | null; sessionOrigin: string | null },
) => Promise<void>;

interface Realtime {
  publishToUser: PublishToUser;
  closeSessionSockets: CloseSessionSockets;
}

/** Loaded lazily: sign-in must work even where the realtime layer is not deployed or configured. */
async function loadRealtime(): Promise<Realtime | undefined> {
  try {
    const [{ publishToUser }, { closeSessionSockets }] = await Promise.all([
      import('#realtime/publisher'),
      import('#realtime/user-directory'),
    ]);
    return { publishToUser, closeSessionSockets };
  } catch (error) {
    logger.warn('realtime layer unavailable; session event not sent', { error: error as Error });
    return undefined;
  }
}

/** Tells the user's tabs which session is current, then closes the sockets of every other one. */
async function announce(companyId: number, userId: number, data: AuthEventData): Promise<void> {
  const realtime = await loadRealtime();
  if (!realtime) return;
  try {
    await realtime.publishToUser(companyId, userId, channels.auth(companyId), data);
  } catch (error) {
    logger.warn('session event not sent', { error: error as Error });
  }
  await realtime.closeSessionSockets(companyId, userId, {
    sessionIat: data.sessionIat,
    sessionJtis: data.sessionJti ? [data.sessionJti] : null,
    sessionOrigin: data.sessionOrigin ?? null,
  });
}

export async function startSession(
  companyId: number,
  userId: number,
  token: { issuedAt: number; jti: string; originJti?: string },
  refreshToken: string | null,
): Promise<void> {
  const { issuedAt } = token;
  const origin = token.originJti || null;
  const claimed = await claimSession(companyId, userId, {
    sessionIat: issuedAt,
    refreshToken,
    sessionJti: token.jti || null,
    sessionOrigin: origin,
  });
  // A sign-in elsewhere that happened after this one already owns the session, or this sign-in was ended.
  if (!claimed) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  await (await cognitoAuth()).revokeRefreshToken(claimed.previousRefreshToken);
  await announce(companyId, userId, {
    action: 'update',
    user: { id: userId },
    sessionIat: issuedAt,
    sessionJti: token.jti,
    ...(origin ? { sessionOrigin: origin } : {}),
  });
}

/**
 * No token of the session survives: `sessionIat` moves to `endedAt` and the session's origin to an
 * id no token has, so every token issued so far is superseded (contracts/session.ts). The ended
 * sign-in (and `endedOrigin`, the caller's own) joins the user's ended origins, so none of its
 * tokens claims the session again, even one issued in the second of the end; a new sign-in in that
 * same second still claims it (claimSession accepts an equal iat from a sign-in never ended).
 */
export async function endSession(
  companyId: number,
  userId: number,
  endedAt: number,
  endedOrigin?: string,
  reason?: AuthEventData['reason'],
): Promise<void> {
  const ended = endedOrigin ? [endedOrigin] : [];
  const claim = { sessionIat: endedAt, refreshToken: null, sessionJti: ENDED_SESSION_JTI, sessionOrigin: ENDED_SESSION_JTI, ended };
  // False when a newer sign-in already owns the session: nothing of this one is left to end.
  if (!(await claimSession(companyId, userId, claim))) return;
  await announce(companyId, userId, {
    action: 'update',
    user: { id: userId },
    sessionIat: endedAt,
    sessionJti: ENDED_SESSION_JTI,
    sessionOrigin: ENDED_SESSION_JTI,
    ...(reason ? { reason } : {}),
  });
}

/**
 * After a password change (an admin's edit or a reset by code): the session ends everywhere. ID
 * tokens are refused at once by our session check, every refresh token is revoked in Cognito
 * (global sign-out), and the open sockets are told and closed.
 */
export async function endUserSessions(companyId: number, userId: number): Promise<void> {
  const user = await getUser(companyId, userId);
  if (!user) return;
  await endSession(companyId, userId, Math.max(Math.floor(Date.now() / 1000), user.sessionIat ?? 0), undefined, 'passwordChanged');
  await (await cognitoAuth()).revokeRefreshToken(user.sessionRefreshToken);
  await (await cognitoUsers()).signOutEverywhere(user.email);
}

/**
 * Cognito confirmed a new password by reset code (its post-confirmation trigger), whichever client
 * sent the code: the web app through our API, Amplify or any caller of the public app client
 * straight to Cognito. The attributes name the user; its `sub` must be the stored user's (a
 * Cognito-only leftover is no user of the product and has no session here).
 */
export async function endSessionsOfConfirmedPassword(account: { companyId: number; userId: number; sub: string }): Promise<boolean> {
  if (!Number.isInteger(account.companyId) || !Number.isInteger(account.userId)) return false;
  const user = await getUser(account.companyId, account.userId);
  if (!user || !isTokenOfUser(account, user)) return false;
  await endUserSessions(user.companyId, user.id);
  return true;
}
