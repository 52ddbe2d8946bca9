import { ApiError } from '../../../lib/api-client.ts';

/** Cognito names a wrong password differently (and cognito-local differs again): all mean bad credentials. */
const credentialErrors = new Set([
  'NotAuthorizedException',
  'InvalidPasswordException',
  'UserNotFoundException',
  'UserNotConfirmedException',
]);

export function isCredentialError(error: unknown): boolean {
  return !(error instanceof ApiError) && error instanceof Error && credentialErrors.has(error.name);
}

export function isUserNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'UserNotFoundException';
}
