/**
 * A Cognito client pointed at the local endpoint (the proxy in front of cognito-local). A password-reset
 * code is ours, not Cognito's: tests read it from the mail (mail.ts).
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { inject } from 'vitest';

export function cognitoClient(): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    endpoint: inject('cognito').endpoint,
    region: inject('env').AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}
