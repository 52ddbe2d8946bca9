/**
 * Sign-in, refresh and revoke against the Cognito app client. Cognito's own error names are turned
 * into the spec's codes here, so callers only see AppErrors. A forgotten password is not Cognito's to
 * reset (the pool's recovery is admin-only): domain/auth/password-reset.ts mails our own code.
 */
import { AdminInitiateAuthCommand, InitiateAuthCommand, RevokeTokenCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognitoClient } from '#commons/cognito';
import { env } from '#commons/env';
import { AppError, UnauthorizedError } from '#commons/errors';
import { logger } from '#commons/logger';
import { TooManyAttemptsError } from '#domain/auth/attempt-limits';

/** Cognito does not say how long its lockout lasts; it starts at seconds and doubles. */
const COGNITO_LOCKOUT_RETRY_SECONDS = 60;

export interface SignInTokens {
  idToken: string;
  /** Without the self-service scope (the pool's pre token generation trigger): the web app's token store keeps it. */
  accessToken: string;
  refreshToken: string;
}

class TooManyRequestsError extends AppError {
  constructor() {
    super('ERR_TOO_MANY_REQUESTS', 429);
  }
}

const errorName = (error: unknown): string => (error && typeof error === 'object' ? String((error as { name?: string }).name) : '');

/** Wrong password, unknown user, disabled user: all one answer, so sign-in does not reveal which emails exist. */
const BAD_CREDENTIALS = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'InvalidPasswordException',
  'UserNotConfirmedException',
  'PasswordResetRequiredException',
]);

/**
 * A password sign-in, server side: AdminInitiateAuth is the only password flow the app client takes
 * (infra/lib/client-attributes.ts), so every attempt passes POST /auth/login's count and audit trail;
 * a client trying passwords on Cognito's public InitiateAuth is refused by the pool itself.
 */
export async function passwordSignIn(email: string, password: string): Promise<SignInTokens> {
  try {
    const out = await cognitoClient().send(
      new AdminInitiateAuthCommand({
        UserPoolId: env.userPoolId,
        ClientId: env.userPoolClientId,
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    const idToken = out.AuthenticationResult?.IdToken;
    const accessToken = out.AuthenticationResult?.AccessToken;
    const refreshToken = out.AuthenticationResult?.RefreshToken;
    // A challenge (new password required, MFA) is not a session this API can hand out.
    if (!idToken || !accessToken || !refreshToken) throw new UnauthorizedError('ERR_INVALID_CREDENTIALS');
    return { idToken, accessToken, refreshToken };
  } catch (error) {
    // Cognito's own lockout after repeated wrong passwords (NotAuthorizedException, this message).
    if (/attempts exceeded/i.test(error instanceof Error ? error.message : ''))
      throw new TooManyAttemptsError(COGNITO_LOCKOUT_RETRY_SECONDS);
    if (BAD_CREDENTIALS.has(errorName(error))) throw new UnauthorizedError('ERR_INVALID_CREDENTIALS');
    if (errorName(error) === 'TooManyRequestsException') throw new TooManyRequestsError();
    throw error;
  }
}

/** A fresh ID token from a refresh token; a revoked or unknown one ends the session. */
export async function refreshSignIn(refreshToken: string): Promise<string> {
  try {
    const out = await cognitoClient().send(
      new InitiateAuthCommand({
        ClientId: env.userPoolClientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: refreshToken },
      }),
    );
    const idToken = out.AuthenticationResult?.IdToken;
    if (!idToken) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    return idToken;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (BAD_CREDENTIALS.has(errorName(error)) || errorName(error) === 'InvalidParameterException')
      throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    if (errorName(error) === 'TooManyRequestsException') throw new TooManyRequestsError();
    throw error;
  }
}

/**
 * Revokes a refresh token (and the tokens issued from it). Best effort: the session has already
 * moved on in our table, which is what the API checks, so a failure here is logged, not raised.
 */
export async function revokeRefreshToken(refreshToken: string | null | undefined): Promise<void> {
  if (!refreshToken) return;
  try {
    await cognitoClient().send(new RevokeTokenCommand({ ClientId: env.userPoolClientId, Token: refreshToken }));
  } catch (error) {
    logger.warn('RevokeToken failed', { error: error as Error });
  }
}
