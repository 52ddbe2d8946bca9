/**
 * Cognito helpers for tests: the confirmation code cognito-local "emailed" (read from the local
 * proxy's test-only route), and a Cognito client pointed at the local endpoint.
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { inject } from 'vitest';
import { RESET_CODE_PATH } from '../../infra/local/cognito/cognito-proxy.ts';

/**
 * The last password-reset (or sign-up) code sent to this address. Pass `since` (Date.now() taken
 * before the request that sends it) to wait for that delivery rather than an older one.
 */
export async function lastResetCode(email: string, opts: { since?: number; timeoutMs?: number } = {}): Promise<string | undefined> {
  const deadline = Date.now() + (opts.timeoutMs ?? 5_000);
  const url = `${inject('cognito').endpoint}${RESET_CODE_PATH}${encodeURIComponent(email)}`;
  do {
    const res = await fetch(url);
    if (res.ok) {
      const delivery = (await res.json()) as { code: string; at: number };
      if (delivery.at >= (opts.since ?? 0)) return delivery.code;
    }
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < deadline);
  return undefined;
}

export function cognitoClient(): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    endpoint: inject('cognito').endpoint,
    region: inject('env').AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}
