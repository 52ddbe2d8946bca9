import { Amplify } from 'aws-amplify';
import { decodeJWT } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import type { KeyValueStorageInterface } from 'aws-amplify/utils';
import type { RuntimeConfig } from '../../config/runtime-config.ts';

/**
 * Amplify keeps its tokens in this storage (localStorage underneath, SPEC 4 "the token is kept in
 * local storage"); a sign-out clears Amplify's keys only.
 */
class TokenStorage implements KeyValueStorageInterface {
  async setItem(key: string, value: string): Promise<void> {
    window.localStorage.setItem(key, value);
  }
  async getItem(key: string): Promise<string | null> {
    return window.localStorage.getItem(key);
  }
  async removeItem(key: string): Promise<void> {
    window.localStorage.removeItem(key);
  }
  async clear(): Promise<void> {
    for (const key of this.amplifyKeys()) window.localStorage.removeItem(key);
  }

  /** Only Amplify's own keys: preferences (theme, language, volume) outlive a sign-out. */
  amplifyKeys(): string[] {
    const keys: string[] = [];
    for (let i = 0; i < window.localStorage.length; i += 1) {
      const key = window.localStorage.key(i);
      if (key?.startsWith('CognitoIdentityServiceProvider.')) keys.push(key);
    }
    return keys;
  }
}

export const tokenStorage = new TokenStorage();

export function configureAmplify(config: RuntimeConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
  cognitoUserPoolsTokenProvider.setKeyValueStorage(tokenStorage);
}

/**
 * The tokens of a sign-in made through our API (POST /auth/login, issue 21) become Amplify's, as if
 * Amplify had signed in itself: fetchAuthSession reads them and refreshes them straight with Cognito.
 * The access token must be there (Amplify keys its session on it), though it opens nothing.
 */
export async function storeSignInTokens(tokens: { idToken: string; accessToken: string; refreshToken: string }, email: string) {
  const accessToken = decodeJWT(tokens.accessToken);
  const issuedAtMs = (accessToken.payload.iat ?? 0) * 1000;
  await cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokens({
    tokens: {
      accessToken,
      idToken: decodeJWT(tokens.idToken),
      refreshToken: tokens.refreshToken,
      clockDrift: issuedAtMs > 0 ? issuedAtMs - Date.now() : 0,
      username: String(accessToken.payload.username ?? email),
      signInDetails: { loginId: email, authFlowType: 'USER_PASSWORD_AUTH' },
    },
  });
}
