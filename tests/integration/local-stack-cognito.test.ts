/**
 * The local Cognito endpoint (cognito-local behind the gap-filling proxy) behaves as AWS Cognito
 * where the product and Amplify depend on it: refresh through GetTokensFromRefreshToken, revoked
 * refresh tokens refused, global sign-out, the wrong-password error, CORS, the pool's admin-only
 * recovery (ForgotPassword and ConfirmForgotPassword refused), and access tokens without the
 * self-service scope (the pool's pre token generation trigger) refused. And `npm start`'s check that
 * the admin password it prints still signs in.
 */
import { randomUUID } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminInitiateAuthCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  ChangePasswordCommand,
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminPasswordWorks } from '../../infra/local/admin-password-check.ts';
import { ADMIN_ONLY_RECOVERY_MESSAGE } from '../../infra/local/cognito/account-recovery.ts';
import { cognitoClient } from '../support/cognito.ts';

const PASSWORD = 'Segura123';
let cognito: CognitoIdentityProviderClient;
let userPoolId: string;
let clientId: string;

async function newUser(): Promise<string> {
  const email = `cognito-${randomUUID().slice(0, 8)}@conversa.test`;
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: email, Password: PASSWORD, Permanent: true }));
  return email;
}

async function signIn(email: string, password = PASSWORD) {
  const out = await cognito.send(
    new AdminInitiateAuthCommand({
      UserPoolId: userPoolId,
      ClientId: clientId,
      AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const result = out.AuthenticationResult;
  if (!result?.RefreshToken || !result.AccessToken || !result.IdToken) throw new Error('sign-in returned no tokens');
  return { refreshToken: result.RefreshToken, accessToken: result.AccessToken, idToken: result.IdToken };
}

const refreshViaInitiateAuth = (refreshToken: string) =>
  cognito.send(
    new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: refreshToken } }),
  );
const refreshLikeAmplify = (refreshToken: string) =>
  cognito.send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId, RefreshToken: refreshToken }));

const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

async function errorName(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return (error as Error).name;
  }
}

beforeAll(() => {
  cognito = cognitoClient();
  ({ userPoolId, clientId } = inject('cognito'));
});

afterAll(() => cognito.destroy());

describe('local Cognito endpoint', () => {
  it('refreshes through GetTokensFromRefreshToken (Amplify 6.22) with a fresh ID token for the same user', async () => {
    const email = await newUser();
    const session = await signIn(email);
    const out = await refreshLikeAmplify(session.refreshToken);
    const idToken = out.AuthenticationResult?.IdToken ?? '';
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      email: string;
      token_use: string;
    };
    expect(claims).toMatchObject({ email, token_use: 'id' });
    expect(out.AuthenticationResult?.AccessToken).toBeTruthy();
    expect(out.AuthenticationResult?.ExpiresIn).toBeGreaterThan(0);
  });

  it('answers a wrong password with NotAuthorizedException, as AWS does', async () => {
    const email = await newUser();
    expect(await errorName(signIn(email, 'Wrong-Password-1'))).toBe('NotAuthorizedException');
  });

  it('locks a user out after five wrong passwords in a row, as Cognito does, even for the right one', async () => {
    // Prepare
    const email = await newUser();
    for (let attempt = 1; attempt <= 5; attempt++) await errorName(signIn(email, `Wrong-Password-${attempt}`));
    // Act
    const locked = signIn(email);
    // Assess: refused with Cognito's message while locked (1 s after the fifth), then open again
    await expect(locked).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Password attempts exceeded' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await signIn(email)).idToken).toBeTruthy();
  });

  it('refuses a revoked refresh token on both refresh calls, and revoking twice succeeds', async () => {
    const email = await newUser();
    const session = await signIn(email);
    const other = await signIn(email);
    await cognito.send(new RevokeTokenCommand({ ClientId: clientId, Token: session.refreshToken }));
    await cognito.send(new RevokeTokenCommand({ ClientId: clientId, Token: session.refreshToken }));
    expect(await errorName(refreshLikeAmplify(session.refreshToken))).toBe('NotAuthorizedException');
    expect(await errorName(refreshViaInitiateAuth(session.refreshToken))).toBe('NotAuthorizedException');
    // Only that token: the user's other session still refreshes.
    expect(await errorName(refreshLikeAmplify(other.refreshToken))).toBe('no error');
  });

  it('refuses every self-service call with the pool’s access tokens, which carry no self-service scope, as Cognito does', async () => {
    // The pool's version 2 pre token generation trigger takes aws.cognito.signin.user.admin out of
    // every access token (issue 21): Cognito then refuses ChangePassword, GetUser, GlobalSignOut...
    const email = await newUser();
    const session = await signIn(email);
    const refreshed = (await refreshLikeAmplify(session.refreshToken)).AuthenticationResult?.AccessToken ?? '';
    for (const accessToken of [session.accessToken, refreshed]) {
      expect(claimsOf(accessToken).scope).toBeUndefined();
      await expect(
        cognito.send(new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: PASSWORD, ProposedPassword: 'Outra1234' })),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Access Token does not have required scopes' });
      expect(await errorName(cognito.send(new GetUserCommand({ AccessToken: accessToken })))).toBe('NotAuthorizedException');
      expect(await errorName(cognito.send(new GlobalSignOutCommand({ AccessToken: accessToken })))).toBe('NotAuthorizedException');
    }
    // Nothing changed: the password still signs in and the session still refreshes.
    expect(await errorName(signIn(email))).toBe('no error');
    expect(await errorName(refreshLikeAmplify(session.refreshToken))).toBe('no error');
  });

  it('refuses a forged access token on a self-service call (cognito-local only decodes it)', async () => {
    // Prepare: the attacker's own token, its claims rewritten to name the victim and carry the scope
    const attacker = await newUser();
    const victim = await newUser();
    const { accessToken } = await signIn(attacker);
    const victimName = claimsOf((await signIn(victim)).accessToken).username;
    const [header, , signature] = accessToken.split('.');
    const forgedClaims = { ...claimsOf(accessToken), username: victimName, scope: 'aws.cognito.signin.user.admin' };
    const forged = `${header}.${Buffer.from(JSON.stringify(forgedClaims)).toString('base64url')}.${signature}`;
    // Act
    const attempt = cognito.send(
      new ChangePasswordCommand({ AccessToken: forged, PreviousPassword: PASSWORD, ProposedPassword: 'Outra1234' }),
    );
    // Assess: refused, and the victim's password is unchanged
    await expect(attempt).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Invalid Access Token' });
    expect(await errorName(signIn(victim))).toBe('no error');
  });

  it('AdminUserGlobalSignOut by email ends that user sessions only', async () => {
    const email = await newUser();
    const bystander = await newUser();
    const session = await signIn(email);
    const untouched = await signIn(bystander);
    await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: email }));
    expect(await errorName(refreshLikeAmplify(session.refreshToken))).toBe('NotAuthorizedException');
    expect(await errorName(refreshLikeAmplify(untouched.refreshToken))).toBe('no error');
  });

  it('lets the browser call it: CORS preflight allows the SDK headers', async () => {
    const res = await fetch(inject('cognito').endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: inject('webUrl'),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-amz-target,x-amz-user-agent',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(inject('webUrl'));
    expect(res.headers.get('access-control-allow-headers')).toContain('x-amz-target');
  });

  it('npm start can tell whether the password it prints still signs in (it may have been changed in the app)', async () => {
    // Prepare: a user whose password is then changed, as a reset through the app does
    const email = await newUser();
    await cognito.send(
      new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: email, Password: 'Trocada-456', Permanent: true }),
    );
    const local = inject('cognito');
    const region = inject('env').AWS_REGION as string;
    // Act + Assess: the seeded admin's saved password works, the old one no longer, an unreachable endpoint says nothing
    expect(await adminPasswordWorks(local, region, inject('admin'))).toBe(true);
    expect(await adminPasswordWorks(local, region, { email, password: PASSWORD })).toBe(false);
    expect(await adminPasswordWorks(local, region, { email, password: 'Trocada-456' })).toBe(true);
    expect(await adminPasswordWorks({ ...local, endpoint: 'http://127.0.0.1:9' }, region, { email, password: PASSWORD })).toBe('unknown');
  });

  it('refuses ForgotPassword and ConfirmForgotPassword as an admin-only pool does (infra/lib/account-recovery.ts)', async () => {
    // Prepare
    const email = await newUser();
    // Act: what Amplify's resetPassword and confirmResetPassword send with the public app client
    const asked = cognito.send(new ForgotPasswordCommand({ ClientId: clientId, Username: email }));
    const confirmed = cognito.send(
      new ConfirmForgotPasswordCommand({ ClientId: clientId, Username: email, ConfirmationCode: '123456', Password: 'Nueva-Clave-9' }),
    );
    // Assess: Cognito's refusal, and the password is the old one
    const refused = { name: 'NotAuthorizedException', message: ADMIN_ONLY_RECOVERY_MESSAGE };
    // Awaited together: the second refusal may land while the first is awaited (an unhandled rejection).
    await Promise.all([expect(asked).rejects.toMatchObject(refused), expect(confirmed).rejects.toMatchObject(refused)]);
    expect(await errorName(signIn(email, 'Nueva-Clave-9'))).toBe('NotAuthorizedException');
    expect(await errorName(signIn(email))).toBe('no error');
  });
});
