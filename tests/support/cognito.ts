/**
 * Cognito helpers for tests: the confirmation code cognito-local "emailed" (read from the local
 * proxy's test-only route), and a Cognito client pointed at the local endpoint.
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { inject } from 'vitest';
import { RESET_CODE_PATH } from '../../infra/local/cognito/cognito-proxy.ts';

/**
 * The last password-reset (or sign-up) code sent to this address. Pass `since` (Date.now() taken
 * before the request that sends it) to wait for that delivery rather than an older one. cognito-local
 * "emails" by printing, and the stack reads its output: on a loaded 2-core machine that line can come
 * seconds after Cognito answered, so the wait is generous, and running out of it says what was seen.
 */
export async function lastResetCode(email: string, opts: { since?: number; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  const url = `${inject('cognito').endpoint}${RESET_CODE_PATH}${encodeURIComponent(email)}`;
  let seen: { code: string; at: number } | undefined;
  do {
    const res = await fetch(url);
    if (res.ok) {
      seen = (await res.json()) as { code: string; at: number };
      if (seen.at >= (opts.since ?? 0)) return seen.code;
    }
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < deadline);
  const last = seen ? `the last one was read at ${new Date(seen.at).toISOString()}` : 'none was ever read';
  throw new Error(`no code for ${email} since ${new Date(opts.since ?? 0).toISOString()}; ${last}`);
}

export function cognitoClient(): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    endpoint: inject('cognito').endpoint,
    region: inject('env').AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}
