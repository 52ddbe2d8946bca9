/** The Cognito user pools client, created on first use (see dynamodb.ts for why one module per client). */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { env } from './env.ts';

let cognito: CognitoIdentityProviderClient | undefined;

export function cognitoClient(): CognitoIdentityProviderClient {
  cognito ??= new CognitoIdentityProviderClient({ region: env.region, endpoint: env.cognitoEndpoint });
  return cognito;
}
