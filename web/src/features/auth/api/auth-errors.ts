import { ApiError } from '../../../lib/api-client.ts';

/** Cognito names a wrong password differently (and cognito-local differs again): all mean bad credentials. */
const credentialErrors = new Set([
  'NotAuthorizedException',
  'InvalidPasswordException',
  'UserNotFoundException',
  'UserNotConfirmedException',
]);

export function isCredentialError(error: unknown): boolean {
  // The web app signs in through POST /auth/login (issue 21), which answers every bad credential alike.
  if (error instanceof ApiError) return error.code === 'ERR_INVALID_CREDENTIALS';
  return error instanceof Error && credentialErrors.has(error.name);
}

/**
 * Cognito's lockout after repeated wrong passwords: NotAuthorizedException with this message. The
 * page shows the same words as the API's 429 ERR_TOO_MANY_ATTEMPTS.
 */
export function isLockedOut(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 'ERR_TOO_MANY_ATTEMPTS';
  return error instanceof Error && error.name === 'NotAuthorizedException' && /attempts exceeded/i.test(error.message);
}

/** SPEC 8 "Password reset": a 404 names an unknown address (the API answers every address alike today). */
export function isUserNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
