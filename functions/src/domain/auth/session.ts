/**
 * The single session (BEHAVIOUR "Passwords"/SPEC 4 "Session and sockets"): the newest sign-in wins.
 * Claiming stores the new token's `iat` (older tokens are then refused by the API and the socket),
 * revokes the previous refresh token, and tells the user's open sockets so the old tab logs out.
 */
import { UnauthorizedError } from '#commons/errors';
import { logger } from '#commons/logger';
import { type AuthEventData, channels } from '#contracts/channels';
import { ENDED_SESSION_JTI } from '#contracts/session';
import { claimSession } from '#storage/users';
import { revokeRefreshToken } from './cognito-auth.ts';

type PublishToUser = (companyId: number, userId: number, event: string, data: unknown) => Promise<unknown>;

/** Loaded lazily: sign-in must work even where the realtime layer is not deployed or configured. */
async function loadPublisher(): Promise<PublishToUser | undefined> {
  try {
    return (await import('#realtime/publisher')).publishToUser;
  } catch (error) {
    logger.warn('realtime publisher unavailable; session event not sent', { error: error as Error });
    return undefined;
  }
}

export async function startSession(
  companyId: number,
  userId: number,
  token: { issuedAt: number; jti: string },
  refreshToken: string | null,
): Promise<void> {
  const { issuedAt } = token;
  const claimed = await claimSession(companyId, userId, issuedAt, refreshToken, token.jti || null);
  // A sign-in elsewhere that happened after this one already owns the session.
  if (!claimed) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  await revokeRefreshToken(claimed.previousRefreshToken);
  const publishToUser = await loadPublisher();
  if (!publishToUser) return;
  const data: AuthEventData = { action: 'update', user: { id: userId }, sessionIat: issuedAt, sessionJti: token.jti };
  try {
    await publishToUser(companyId, userId, channels.auth(companyId), data);
  } catch (error) {
    logger.warn('session event not sent', { error: error as Error });
  }
}

/**
 * No token of the session survives: `sessionIat` moves to `endedAt` with a token id no token has, so
 * every token issued up to that second is superseded (contracts/session.ts). A sign-in in that same
 * second still claims the session (claimSession accepts an equal iat).
 */
export async function endSession(companyId: number, userId: number, endedAt: number): Promise<void> {
  // False when a newer sign-in already owns the session: nothing of this one is left to end.
  if (!(await claimSession(companyId, userId, endedAt, null, ENDED_SESSION_JTI))) return;
  const publishToUser = await loadPublisher();
  const data: AuthEventData = { action: 'update', user: { id: userId }, sessionIat: endedAt, sessionJti: ENDED_SESSION_JTI };
  await publishToUser?.(companyId, userId, channels.auth(companyId), data).catch((error: unknown) => {
    logger.warn('session event not sent', { error: error as Error });
  });
}
