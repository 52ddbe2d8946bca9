/**
 * The Cognito adapters, loaded on their first call. Most of the users Lambda's calls (listing,
 * reading, presence) never reach Cognito, and the SDK's client took its cold start to the 500 KB
 * line (infra/test/bundling.test.ts): behind `await import()`, esbuild puts the adapters and the SDK
 * in a chunk that loads when a user is created, edited, deleted or signed out. The auth Lambda signs
 * in with Cognito on every call and imports cognito-auth statically anyway.
 */
export const cognitoUsers = () => import('./cognito-users.ts');
export const cognitoAuth = () => import('./cognito-auth.ts');
