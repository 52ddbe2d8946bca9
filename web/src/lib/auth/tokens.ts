import { fetchAuthSession } from 'aws-amplify/auth';

export interface IdToken {
  jwt: string;
  /** Seconds since epoch. */
  expiresAt: number | undefined;
  /** `iat`: the single-session rule compares it with the newest session's (the server does the same). */
  issuedAt: number | undefined;
  /** Token id: tells apart two sign-ins within the same second. */
  jti: string | undefined;
  /** `origin_jti`: the sign-in this token descends from, refreshes included. */
  originJti: string | undefined;
}

/** The Cognito ID token is the API's bearer (the tenant and user ids are claims in it). */
export async function currentIdToken(forceRefresh = false): Promise<IdToken | undefined> {
  try {
    const session = await fetchAuthSession(forceRefresh ? { forceRefresh: true } : undefined);
    const token = session.tokens?.idToken;
    if (!token) return undefined;
    return {
      jwt: token.toString(),
      expiresAt: token.payload.exp,
      issuedAt: token.payload.iat,
      jti: typeof token.payload.jti === 'string' ? token.payload.jti : undefined,
      originJti: typeof token.payload.origin_jti === 'string' ? token.payload.origin_jti : undefined,
    };
  } catch {
    // No session, or a refresh the pool refused: both mean "signed out" to the caller.
    return undefined;
  }
}
