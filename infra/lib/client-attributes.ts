/**
 * What the app client may read and write of a user, declared once for the deployed pool
 * (identity.ts) and the local Cognito proxy, which refuses other writes as Cognito does.
 *
 * The tenancy attributes (`custom:companyId`, `custom:userId`) are readable, so they ride in the ID
 * token, and never writable by the user: only the API's admin calls set them. The email is the
 * sign-in name and the email guard's key, so it changes only through the API's user edit too.
 */
export const CLIENT_READ_ATTRIBUTES = ['email', 'email_verified', 'name', 'locale', 'custom:companyId', 'custom:userId'] as const;

/** Harmless profile fields; Cognito reads an empty list as "every attribute", so this is never empty. */
export const CLIENT_WRITE_ATTRIBUTES = ['name', 'locale'] as const;
