import { Amplify } from 'aws-amplify';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import type { KeyValueStorageInterface } from 'aws-amplify/utils';
import type { RuntimeConfig } from '../../config/runtime-config.ts';

/**
 * Amplify keeps its tokens in this storage (localStorage underneath, SPEC 4 "the token is kept in
 * local storage"). Wrapping it is the supported way to read the refresh token, which the web app
 * hands to `POST /auth/session` to claim the single session.
 */
const REFRESH_SUFFIX = '.refreshToken';

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

  refreshToken(clientId: string): string | undefined {
    const key = this.amplifyKeys().find((k) => k.startsWith(`CognitoIdentityServiceProvider.${clientId}.`) && k.endsWith(REFRESH_SUFFIX));
    return (key && window.localStorage.getItem(key)) || undefined;
  }
}

export const tokenStorage = new TokenStorage();
let clientId = '';

export function configureAmplify(config: RuntimeConfig): void {
  clientId = config.userPoolClientId;
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

export function currentRefreshToken(): string | undefined {
  return tokenStorage.refreshToken(clientId);
}
