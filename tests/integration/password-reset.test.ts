/**
 * Password recovery only through our API (issue 21), on the whole local stack: Cognito's own
 * ForgotPassword / ConfirmForgotPassword are refused (the pool's recovery is admin-only), and the
 * reset with the code our API mailed (SES's stand-in) changes the password, ends the session opened
 * with the old one (token, refresh token, socket) and leaves the old password refused. Then what an
 * attacker tries on the two public routes: garbage in every field, another tenant's admin, a forged
 * token, an unknown address, a code of another address.
 */
import {
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Api, createApi } from '../support/api.ts';
import { cognitoClient } from '../support/cognito.ts';
import { lastResetCode, mailsTo } from '../support/mail.ts';
import { connectSocket } from '../support/socket.ts';

let api: Api;
let cognito: CognitoIdentityProviderClient;
let victim: Awaited<ReturnType<Api['createCompanyWithAdmin']>>;
let attacker: Awaited<ReturnType<Api['createCompanyWithAdmin']>>;

beforeAll(async () => {
  api = createApi();
  cognito = cognitoClient();
  const admin = inject('admin');
  const superToken = (await api.login(admin.email, admin.password)).token;
  [victim, attacker] = await Promise.all([
    api.createCompanyWithAdmin(superToken, { label: 'reset-victim' }),
    api.createCompanyWithAdmin(superToken, { label: 'reset-attacker' }),
  ]);
});
afterAll(() => cognito?.destroy());

const forget = (email: string, headers: Record<string, string> = {}) =>
  api.call('POST', `/forgetpassword/${encodeURIComponent(email)}`, { headers });
const resetWith = (email: string, code: string, password: string, opts: { token?: string } = {}) =>
  api.call('POST', `/resetpasswords/${[email, code, password].map(encodeURIComponent).join('/')}`, opts);

describe('password recovery through our API only', () => {
  it('Cognito’s own reset is refused; ours, with the mailed code, resets, ends the other session and retires the old password', async () => {
    // Prepare: the "phone", signed in with the old password, with its socket open
    const user = await api.createUser(victim.admin.token);
    const phone = await api.login(user.email, user.password);
    const socket = await connectSocket(inject('wsUrl'), phone.token);
    const clientId = inject('cognito').clientId;

    // Act 1: Cognito's public calls, as Amplify's resetPassword / confirmResetPassword send them
    const cognitoAsked = cognito.send(new ForgotPasswordCommand({ ClientId: clientId, Username: user.email }));
    const cognitoConfirmed = cognito.send(
      new ConfirmForgotPasswordCommand({ ClientId: clientId, Username: user.email, ConfirmationCode: '123456', Password: 'Bypass123' }),
    );
    // Assess 1: refused, and nothing was mailed by anyone
    await expect(cognitoAsked).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(cognitoConfirmed).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect(await mailsTo(user.email)).toEqual([]);

    // Act 2: our reset, the browser preferring English
    const since = Date.now();
    expect(await forget(user.email, { 'accept-language': 'en-GB,en;q=0.9' })).toMatchObject({ status: 200, body: { sent: true } });
    const code = await lastResetCode(user.email, { since });
    const reset = await resetWith(user.email, code, 'Changed456');

    // Assess 2: one mail, in English, with an 8-digit code; the reset passed
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: [user.email], subject: 'Your code to reset your Conversa password' });
    expect(code).toMatch(/^\d{8}$/);
    expect(reset).toMatchObject({ status: 200, body: { reset: true } });
    // The phone's session is over everywhere
    expect(await api.call('GET', '/tickets', { token: phone.token })).toMatchObject({ status: 401 });
    expect(await api.call('POST', '/auth/refresh_token', { body: { refreshToken: phone.refreshToken } })).toMatchObject({ status: 401 });
    await socket.closed();
    // The old password is refused, the new one signs in, and the code does not work twice
    expect(await api.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })).toMatchObject({
      status: 401,
      body: { error: 'ERR_INVALID_CREDENTIALS' },
    });
    expect((await api.login(user.email, 'Changed456')).token).toBeTruthy();
    expect(await resetWith(user.email, code, 'Again4567')).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
  });

  it('garbage in every field is a 4xx naming it, never a 500; a weak password keeps the spec’s message', async () => {
    const user = await api.createUser(victim.admin.token);
    const since = Date.now();
    await forget(user.email);
    const code = await lastResetCode(user.email, { since });
    for (const email of ['not-an-email', 'a@b', '%00', '<script>@x.test', ' '])
      expect(await forget(email)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'email' } });
    expect(await resetWith('not-an-email', code, 'Changed456')).toMatchObject({ status: 400, body: { field: 'email' } });
    expect(await resetWith(user.email, 'x'.repeat(30), 'Changed456')).toMatchObject({ status: 400, body: { field: 'token' } });
    const weak = await resetWith(user.email, code, 'weak');
    expect(weak).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'newPassword' } });
    // Refused at the edge: the code was not even tried, so it still resets
    expect(await resetWith(user.email, code, 'Changed456')).toMatchObject({ status: 200 });
  });

  it('an unknown address gets the same answers and no mail; a code resets only the address it was mailed to', async () => {
    const [user, other] = await Promise.all([api.createUser(victim.admin.token), api.createUser(victim.admin.token)]);
    const unknown = `nobody-${Date.now()}@conversa.test`;
    const known = await forget(user.email);
    expect(await forget(unknown)).toEqual({ ...known, headers: expect.anything() });
    expect(await mailsTo(unknown)).toEqual([]);
    const code = await lastResetCode(user.email);
    const wrongAddress = await resetWith(other.email, code, 'Changed456');
    expect(wrongAddress).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
    expect((await resetWith(unknown, code, 'Changed456')).body).toEqual(wrongAddress.body);
    expect((await api.login(other.email, other.password)).token).toBeTruthy();
  });

  it('another tenant’s admin, or a forged token, gains nothing: the route takes no caller, only the mailed code', async () => {
    const user = await api.createUser(victim.admin.token);
    await forget(user.email);
    const code = await lastResetCode(user.email);
    const guess = code === '00000000' ? '00000001' : '00000000';
    expect(await resetWith(user.email, guess, 'Taken1234', { token: attacker.admin.token })).toMatchObject({
      status: 400,
      body: { error: 'ERR_INVALID_RESET_CODE' },
    });
    expect(await resetWith(user.email, guess, 'Taken1234', { token: 'forged.token.value' })).toMatchObject({ status: 400 });
    expect(await api.call('POST', '/auth/login', { body: { email: user.email, password: 'Taken1234' } })).toMatchObject({ status: 401 });
    expect((await api.login(user.email, user.password)).token).toBeTruthy();
  });
});
