// No zod here: the realtime Lambda imports this and keeps its bundle small.

/**
 * Single session (SPEC 4 "Session and sockets"): a token belongs to a replaced session when it was
 * issued by another sign-in than the newest (its `origin_jti`), or before it; for a session stored
 * without an origin, within that sign-in's second by a different sign-in (`iat` has a one-second
 * grain, so the ids of the session's tokens minted in that second break the tie).
 */
export function isSupersededSession(
  token: { issuedAt: number; jti?: string; originJti?: string },
  session: { sessionIat?: number | null; sessionJtis?: readonly string[] | null; sessionOrigin?: string | null },
): boolean {
  // Cognito stamps every token of one sign-in, refreshed ones included, with that sign-in's
  // `origin_jti`: a token of any other sign-in (a direct Cognito sign-in the app never claimed, or
  // the session a logout ended) is not the session's, whatever its `iat`.
  if (session.sessionOrigin && token.originJti !== session.sessionOrigin) return true;
  const sessionIat = session.sessionIat ?? 0;
  if (token.issuedAt < sessionIat) return true;
  // A token of the session's own sign-in is the session's, a refresh minted in the sign-in's second
  // included (a new jti, the same iat): the jtis only tell apart sign-ins without an origin.
  if (session.sessionOrigin) return false;
  if (token.issuedAt > sessionIat || !session.sessionJtis?.length) return false;
  return !session.sessionJtis.includes(token.jti ?? '');
}

/**
 * The token id a logged-out session ends with (DELETE /auth/logout): no token carries it, so every
 * token issued up to the logout's second is superseded; the auth event with it means "signed out".
 */
export const ENDED_SESSION_JTI = 'session-ended';

/**
 * The token was minted for this stored user: the tenancy attributes (`custom:companyId`,
 * `custom:userId`) only name a record, the Cognito `sub` proves whose it is. Every entry point (HTTP
 * and the socket's `$connect`) asks this before trusting the token's company.
 */
export function isTokenOfUser(token: { sub: string }, user: { cognitoSub?: string | null }): boolean {
  return Boolean(user.cognitoSub) && user.cognitoSub === token.sub;
}

/** Company setting `mfaRequired` (issue 21): who must sign in with a second factor. */
export type MfaPolicy = 'off' | 'admins' | 'everyone';

/** The company's policy asks this user for a second factor (admins: the admin profile and super users). */
export function mfaPolicyApplies(policy: string, user: { profile: string; super?: boolean | null }): boolean {
  if (policy === 'everyone') return true;
  return policy === 'admins' && (user.profile === 'admin' || Boolean(user.super));
}

/**
 * A user with a second factor on is let in only by the sign-in that passed it: `mfaOrigin` is the
 * `origin_jti` of the sign-in whose challenge (or enrolment) succeeded, and every token Cognito
 * mints for that sign-in carries it. A token obtained from Cognito directly, by password alone,
 * has another origin and opens nothing (routes, `$connect`) until its challenge passes.
 */
export function lacksSecondFactor(
  token: { originJti?: string; jti?: string },
  user: { mfaEnabled?: boolean | null; mfaOrigin?: string | null },
): boolean {
  if (!user.mfaEnabled) return false;
  const signIn = signInIdOf(token);
  return !signIn || signIn !== user.mfaOrigin;
}

/**
 * The sign-in a token belongs to: its `origin_jti` (Cognito stamps every token of a sign-in with
 * it, refreshed ones too). A token without one (the bare cognito-local of the unit tests) stands
 * for itself by its `jti`, so it is never taken for another sign-in's.
 */
export const signInIdOf = (token: { originJti?: string; jti?: string }): string => token.originJti || token.jti || '';
