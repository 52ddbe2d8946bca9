/**
 * Verifies Cognito ID tokens with aws-jwt-verify. The issuer and JWKS come from the environment, so
 * the same code verifies AWS Cognito and cognito-local tokens. The JWKS is cached per cold start.
 */
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { env } from './env.ts';
import { UnauthorizedError } from './errors.ts';

export interface TokenIdentity {
  sub: string;
  email: string;
  companyId: number;
  userId: number;
  /** Seconds since epoch of the sign-in this token descends from (kept across refreshes). */
  authTime: number;
  /** `iat`: when this very token was issued. The single-session rule compares it with the user's sessionIat. */
  issuedAt: number;
  /** Token id; with issuedAt it identifies the sign-in a session was claimed with. */
  jti: string;
  /** `origin_jti`: the sign-in every token of one session descends from (kept across refreshes). */
  originJti: string;
  expiresAt: number;
}

/**
 * aws-jwt-verify's default fetcher speaks only https; the local stand-in serves its JWKS over http.
 * Node's fetch does both, so AWS and cognito-local take the same path.
 */
const jwksCache = new SimpleJwksCache({
  fetcher: {
    fetch: async (uri: string) => {
      const response = await fetch(uri, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`JWKS fetch failed: ${response.status} ${uri}`);
      return response.arrayBuffer();
    },
  },
});

type Verifier = { verify(token: string): Promise<Record<string, unknown>> };
let verifier: Verifier | undefined;

function getVerifier(): Verifier {
  verifier ??= JwtRsaVerifier.create(
    {
      issuer: env.jwtIssuer,
      audience: env.userPoolClientId,
      jwksUri: `${env.jwtIssuer}/.well-known/jwks.json`,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'id') throw new Error('Not an ID token');
      },
    },
    { jwksCache },
  ) as unknown as Verifier;
  return verifier;
}

export async function verifyIdToken(token: string | undefined | null): Promise<TokenIdentity> {
  if (!token) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  let payload: Record<string, unknown>;
  try {
    payload = await getVerifier().verify(token);
  } catch {
    throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  }
  const companyId = Number(payload['custom:companyId']);
  const userId = Number(payload['custom:userId']);
  if (!Number.isInteger(companyId) || companyId <= 0 || !Number.isInteger(userId) || userId <= 0) {
    throw new UnauthorizedError('ERR_INVALID_CREDENTIALS');
  }
  return {
    sub: String(payload.sub),
    email: String(payload.email ?? ''),
    companyId,
    userId,
    authTime: Number(payload.auth_time ?? payload.iat ?? 0),
    issuedAt: Number(payload.iat ?? 0),
    jti: String(payload.jti ?? ''),
    originJti: typeof payload.origin_jti === 'string' ? payload.origin_jti : '',
    expiresAt: Number(payload.exp ?? 0),
  };
}

/** Test hook: forget the cached verifier (a test stack restarts Cognito on a new port). */
export function resetVerifier(): void {
  verifier = undefined;
}
