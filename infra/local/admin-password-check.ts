/**
 * Whether the admin password `npm start` is about to print still signs in. It is saved in
 * .data/local.json when first generated; a developer who then changes it in the app (the profile, or
 * "Forgot password" and the mailed code) would otherwise be shown a password that no longer works.
 * Asked of Cognito directly (ADMIN_USER_PASSWORD_AUTH, the app client's flow), not of our API, so no
 * session of the admin's is claimed or ended by the check.
 */
import { AdminInitiateAuthCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';

export interface LocalCognito {
  endpoint: string;
  userPoolId: string;
  clientId: string;
}

/** `unknown` when Cognito could not say (not a wrong password): nothing is worth claiming then. */
export async function adminPasswordWorks(
  cognito: LocalCognito,
  region: string,
  admin: { email: string; password: string },
): Promise<boolean | 'unknown'> {
  const client = new CognitoIdentityProviderClient({
    endpoint: cognito.endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(
      new AdminInitiateAuthCommand({
        UserPoolId: cognito.userPoolId,
        ClientId: cognito.clientId,
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: admin.email, PASSWORD: admin.password },
      }),
    );
    return true;
  } catch (error) {
    return (error as { name?: string }).name === 'NotAuthorizedException' ? false : 'unknown';
  } finally {
    client.destroy();
  }
}
