/**
 * The Cognito side of a user. The pool's username attribute is the email, and the tenant travels in
 * the `custom:companyId` / `custom:userId` attributes that end up in every ID token. Admin calls
 * take the email as the username (Cognito resolves the alias).
 */
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { cognitoClient } from '#commons/cognito';
import { env } from '#commons/env';
import { ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import { messages } from '#contracts/common';

export interface CognitoUserInput {
  email: string;
  password: string;
  companyId: number;
  userId: number;
}

const errorName = (error: unknown): string | undefined =>
  error && typeof error === 'object' ? (error as { name?: string }).name : undefined;

/** Cognito's own password policy refusing a password is still the user's bad input, not a 500. */
function rethrowPasswordError(error: unknown, field: string): never {
  if (errorName(error) === 'InvalidPasswordException') throw new ValidationError(field, messages.weakPassword);
  throw error;
}

const tenantAttributes = (companyId: number, userId: number): AttributeType[] => [
  { Name: 'custom:companyId', Value: String(companyId) },
  { Name: 'custom:userId', Value: String(userId) },
];

function subOf(attributes: AttributeType[] | undefined): string | undefined {
  return attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
}

/**
 * Creates a confirmed user with a permanent password and returns its `sub`. No invitation email:
 * the admin who creates the user sets the password.
 */
export async function createCognitoUser(input: CognitoUserInput): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const out = await cognitoClient().send(
    new AdminCreateUserCommand({
      UserPoolId: env.userPoolId,
      Username: email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
        ...tenantAttributes(input.companyId, input.userId),
      ],
    }),
  );
  try {
    await setCognitoPassword(email, input.password);
  } catch (error) {
    // Leave no half-made Cognito user behind a refused password.
    await deleteCognitoUser(email).catch(() => undefined);
    throw error;
  }
  const sub = subOf(out.User?.Attributes) ?? (await getCognitoSub(email));
  if (!sub) throw new Error('Cognito returned no sub for the new user');
  return sub;
}

export async function getCognitoSub(email: string): Promise<string | undefined> {
  try {
    const out = await cognitoClient().send(new AdminGetUserCommand({ UserPoolId: env.userPoolId, Username: email }));
    return subOf(out.UserAttributes);
  } catch (error) {
    if (errorName(error) === 'UserNotFoundException') return undefined;
    throw error;
  }
}

/** Points an existing Cognito user at a tenant record (seed repair of a half-finished run). */
export async function setCognitoTenant(email: string, companyId: number, userId: number): Promise<void> {
  await cognitoClient().send(
    new AdminUpdateUserAttributesCommand({
      UserPoolId: env.userPoolId,
      Username: email,
      UserAttributes: tenantAttributes(companyId, userId),
    }),
  );
}

/** Idempotent: a user already gone is fine. */
export async function deleteCognitoUser(email: string): Promise<void> {
  try {
    await cognitoClient().send(new AdminDeleteUserCommand({ UserPoolId: env.userPoolId, Username: email }));
  } catch (error) {
    if (errorName(error) !== 'UserNotFoundException') throw error;
  }
}

export async function setCognitoPassword(email: string, password: string, field = 'password'): Promise<void> {
  try {
    await cognitoClient().send(
      new AdminSetUserPasswordCommand({ UserPoolId: env.userPoolId, Username: email, Password: password, Permanent: true }),
    );
  } catch (error) {
    rethrowPasswordError(error, field);
  }
}

/**
 * Revokes every refresh token of the user (and the access tokens minted from them). The ID tokens
 * Cognito would still honour until they expire are refused by our own session check
 * (domain/auth/session.ts endUserSessions), which runs first. Best effort, like revoking one token:
 * our table already refuses every token of the ended session, so a failure here is logged, not raised.
 */
export async function signOutEverywhere(email: string): Promise<void> {
  try {
    await cognitoClient().send(new AdminUserGlobalSignOutCommand({ UserPoolId: env.userPoolId, Username: email }));
  } catch (error) {
    if (errorName(error) !== 'UserNotFoundException') logger.warn('AdminUserGlobalSignOut failed', { error: error as Error });
  }
}

/** The new email is marked verified: an admin changed it, and sign-in must keep working. */
export async function updateCognitoEmail(oldEmail: string, newEmail: string): Promise<void> {
  await cognitoClient().send(
    new AdminUpdateUserAttributesCommand({
      UserPoolId: env.userPoolId,
      Username: oldEmail,
      UserAttributes: [
        { Name: 'email', Value: newEmail.trim().toLowerCase() },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
}
