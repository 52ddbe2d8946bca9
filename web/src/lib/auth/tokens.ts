import { fetchAuthSession } from 'aws-amplify/auth';

export interface IdToken {
  jwt: string;
  /** Seconds since epoch. */
  expiresAt: number | undefined;
  /** The sign-in this token descends from (kept across refreshes), else its own issue time. */
  issuedAt: number | undefined;
}

/** The Cognito ID token is the API's bearer (the tenant and user ids are claims in it). */
export async function currentIdToken(forceRefresh = false): Promise<IdToken | undefined> {
  try {
    const session = await fetchAuthSession(forceRefresh ? { forceRefresh: true } : undefined);
    const token = session.tokens?.idToken;
    if (!token) return undefined;
    const payload = token.payload;
    const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : undefined;
    return { jwt: token.toString(), expiresAt: payload.exp, issuedAt: authTime ?? payload.iat };
  } catch {
    // No session, or a refresh the pool refused: both mean "signed out" to the caller.
    return undefined;
  }
}
