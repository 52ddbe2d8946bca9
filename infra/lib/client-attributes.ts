/**
 * What the app client may read and write of a user, declared once for the deployed pool
 * (identity.ts) and the local Cognito proxy, which refuses other writes as Cognito does.
 *
 * The tenancy attributes (`custom:companyId`, `custom:userId`) are readable, so they ride in the ID
 * token, and never writable by the user: only the API's admin calls set them. The email is the
 * sign-in name and the email guard's key, so it changes only through the API's user edit too.
 */
export const CLIENT_READ_ATTRIBUTES = ['email', 'email_verified', 'name', 'locale', 'custom:companyId', 'custom:userId'] as const;

/**
 * How a user may sign in through the app client (issue 21): a password only through the API's
 * AdminInitiateAuth (POST /auth/login, which counts attempts and writes the audit trail), and a
 * refresh token (always on). Cognito's public InitiateAuth with a password or SRP is refused, so no
 * client can try passwords against the pool around our throttle. As CDK's `authFlows`, and as Cognito
 * lists them (`ExplicitAuthFlows`), which the local Cognito proxy enforces.
 */
export const CLIENT_AUTH_FLOWS = { adminUserPassword: true } as const;
export const CLIENT_EXPLICIT_AUTH_FLOWS = ['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] as const;

/** Harmless profile fields; Cognito reads an empty list as "every attribute", so this is never empty. */
export const CLIENT_WRITE_ATTRIBUTES = ['name', 'locale'] as const;
