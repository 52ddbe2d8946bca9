import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as auth } from '../src/handlers/http/auth.ts';
import { handler } from '../src/handlers/triggers/post-confirmation.ts';
import { getUser } from '../src/storage/users/users.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { type EventOptions, httpEvent, parseResponse } from './support/events.ts';
import { createTestUser, type TestUser } from './support/tenants.ts';

const call = async (key: string, options: EventOptions = {}) => parseResponse(await auth(httpEvent(key, options)));

/** The event Cognito sends after a confirmation (AWS's shape, as cognito-local builds it too). */
function confirmationEvent(member: TestUser, source: string, overrides: Record<string, string> = {}): PostConfirmationTriggerEvent {
  return {
    version: '1',
    region: 'us-east-1',
    userPoolId: 'us-east-1_test',
    userName: member.user.cognitoSub,
    callerContext: { awsSdkVersion: 'test', clientId: 'client' },
    triggerSource: source as PostConfirmationTriggerEvent['triggerSource'],
    request: {
      userAttributes: {
        sub: member.user.cognitoSub,
        email: member.email,
        'custom:companyId': String(member.user.companyId),
        'custom:userId': String(member.user.id),
        ...overrides,
      },
    },
    response: {},
  };
}

let ddb: DynamoDbLocal;
let cognito: CognitoLocal;
beforeAll(async () => {
  [ddb, cognito] = await Promise.all([startDynamoDbLocal(), startCognitoLocal()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([ddb?.stop(), cognito?.stop()]);
});

describe('post-confirmation trigger', () => {
  it('a confirmed reset by code ends the session: its token and refresh token are refused', async () => {
    // Prepare: a session claimed through the API
    const member = await createTestUser({ companyId: 71 });
    const login = await call('POST /auth/login', { body: { email: member.email, password: member.password } });
    const token = login.body.token as string;
    expect((await call('GET /auth/me', { token })).status).toBe(200);
    // Act
    const event = confirmationEvent(member, 'PostConfirmation_ConfirmForgotPassword');
    // Assess: Cognito gets its event back; the session is over (a claim in the reset's own second is
    // refused by origin_jti, which this Cognito stand-in does not mint: security-sessions covers it)
    expect(await handler(event)).toEqual(event);
    expect(await call('GET /auth/me', { token })).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
    expect((await call('POST /auth/refresh_token', { body: { refreshToken: login.body.refreshToken } })).status).toBe(401);
  });

  it('ends nothing for a sign-up confirmation or a Cognito user that is not the stored one', async () => {
    const member = await createTestUser({ companyId: 72 });
    const login = await call('POST /auth/login', { body: { email: member.email, password: member.password } });
    const before = await getUser(72, member.user.id);
    await handler(confirmationEvent(member, 'PostConfirmation_ConfirmSignUp'));
    await handler(confirmationEvent(member, 'PostConfirmation_ConfirmForgotPassword', { sub: 'someone-else' }));
    await handler(confirmationEvent(member, 'PostConfirmation_ConfirmForgotPassword', { 'custom:userId': 'x' }));
    expect(await getUser(72, member.user.id)).toMatchObject({
      sessionIat: before?.sessionIat,
      sessionRefreshToken: before?.sessionRefreshToken,
    });
    expect((await call('GET /auth/me', { token: login.body.token as string })).status).toBe(200);
  });
});
