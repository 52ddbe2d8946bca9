/**
 * Guessing is throttled (issue 9): wrong passwords per account and per client address, reset codes
 * burnt after a few wrong tries, and POST /forgetpassword answering known and unknown addresses
 * alike. Over DynamoDB Local and cognito-local, through the auth handler as API Gateway invokes it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_PASSWORD_LIMIT,
  ADDRESS_SECRET_LIMIT,
  ATTEMPT_WINDOW_SECONDS,
  addressKey,
  RESET_CODE_ATTEMPTS,
} from '../src/domain/auth/attempt-limits.ts';
import { RESET_REQUEST_MIN_MS } from '../src/domain/auth/password-reset.ts';
import { handler } from '../src/handlers/http/auth.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { type EventOptions, httpEvent, parseResponse } from './support/events.ts';
import { startTestMailSink, type TestMailSink } from './support/mail-sink.ts';
import { createTestUser, TEST_PASSWORD } from './support/tenants.ts';

// Reset codes are stored as a digest keyed with the region's key (commons/secrets.ts).
process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

let ddb: DynamoDbLocal;
let cognito: CognitoLocal;
let mail: TestMailSink;

beforeAll(async () => {
  [ddb, cognito, mail] = await Promise.all([startDynamoDbLocal(), startCognitoLocal(), startTestMailSink()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([ddb?.stop(), cognito?.stop(), mail?.stop()]);
});

/** Each test calls from addresses of its own, as separate clients would. */
let lastOctet = 10;
const newAddress = () => `198.51.100.${lastOctet++}`;

const call = async (key: string, sourceIp: string, options: EventOptions = {}) => {
  const event = httpEvent(key, options);
  event.requestContext.http.sourceIp = sourceIp;
  return parseResponse(await handler(event));
};
const login = (sourceIp: string, email: string, password: string) => call('POST /auth/login', sourceIp, { body: { email, password } });

describe('wrong passwords', () => {
  it(`locks an account after ${ACCOUNT_PASSWORD_LIMIT} wrong passwords, even for the right one, from any address`, async () => {
    const member = await createTestUser({ companyId: 1, signIn: false });
    const other = await createTestUser({ companyId: 1, signIn: false });
    const address = newAddress();
    for (let i = 0; i < ACCOUNT_PASSWORD_LIMIT; i++)
      expect(await login(address, member.email, `Wrong${i}234`)).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_CREDENTIALS' } });

    const locked = await login(newAddress(), member.email, TEST_PASSWORD);
    expect(locked).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_ATTEMPTS' } });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(ATTEMPT_WINDOW_SECONDS);
    expect(locked.body.retryAfter).toBe(retryAfter);
    // The address is not locked by one account's lockout, nor is another account.
    expect((await login(address, other.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('does not count right passwords, and parallel guesses cannot slip past the limit together', async () => {
    const member = await createTestUser({ companyId: 1, signIn: false });
    const address = newAddress();
    for (let i = 0; i < 3; i++) expect((await login(address, member.email, TEST_PASSWORD)).status).toBe(200);

    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => login(newAddress(), member.email, `Guess${i}234`)));
    const statuses = burst.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ACCOUNT_PASSWORD_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - ACCOUNT_PASSWORD_LIMIT);
  });

  it(`locks a client address after ${ADDRESS_SECRET_LIMIT} wrong passwords over any accounts, known or not`, async () => {
    const member = await createTestUser({ companyId: 1, signIn: false });
    const address = newAddress();
    // Four per account stays under the account limit: only the address limit can stop this.
    for (let i = 0; i < ADDRESS_SECRET_LIMIT; i++) {
      const email = i % 2 ? `ghost-${Math.floor(i / 4)}@example.com` : `spray-${Math.floor(i / 4)}@example.com`;
      expect((await login(address, email, 'Wrong1234')).status).toBe(401);
    }
    expect(await login(address, member.email, TEST_PASSWORD)).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_ATTEMPTS' } });
    expect((await login(newAddress(), member.email, TEST_PASSWORD)).status).toBe(200);
  }, 60_000);

  it('counts an IPv6 client by its /64', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  });
});

describe('password reset', () => {
  it('answers a known and an unknown address the same, in no less than the same time', async () => {
    const member = await createTestUser({ companyId: 2, signIn: false });
    const timed = async (email: string) => {
      const started = Date.now();
      const res = await call('POST /forgetpassword/{email}', newAddress(), { pathParameters: { email } });
      return { status: res.status, body: res.body, ms: Date.now() - started };
    };
    const known = await timed(member.email);
    const unknown = await timed('nobody-here@example.com');
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known).toMatchObject({ status: 200, body: { sent: true } });
    // Only the known address got a mail
    expect(mail.mailsTo(member.email)).toHaveLength(1);
    expect(mail.mailsTo('nobody-here@example.com')).toHaveLength(0);
    expect(known.ms).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 5);
    expect(unknown.ms).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 5);
  });

  it(`burns the code after ${RESET_CODE_ATTEMPTS} wrong ones: the right code then fails until a new one is requested`, async () => {
    const member = await createTestUser({ companyId: 2, signIn: false });
    const address = newAddress();
    const reset = (token: string, newPassword: string) =>
      call('POST /resetpasswords/{email}/{token}/{newPassword}', address, { pathParameters: { email: member.email, token, newPassword } });
    expect((await call('POST /forgetpassword/{email}', address, { pathParameters: { email: member.email } })).status).toBe(200);
    const burnt = mail.lastCodeFor(member.email);
    for (let i = 0; i < RESET_CODE_ATTEMPTS; i++)
      expect(await reset(`9999999${i}`, 'Better123')).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });

    expect(await reset(burnt, 'Better123')).toMatchObject({
      status: 400,
      body: { error: 'ERR_INVALID_RESET_CODE', field: 'token' },
    });
    expect((await login(newAddress(), member.email, 'Better123')).status).toBe(401);

    // A new code has a full budget.
    expect((await call('POST /forgetpassword/{email}', address, { pathParameters: { email: member.email } })).status).toBe(200);
    expect((await reset(mail.lastCodeFor(member.email), 'Better123')).status).toBe(200);
    expect((await login(newAddress(), member.email, 'Better123')).status).toBe(200);
  }, 30_000);

  it('answers a reset for an unknown address like a wrong code', async () => {
    const member = await createTestUser({ companyId: 2, signIn: false });
    const reset = (email: string) =>
      call('POST /resetpasswords/{email}/{token}/{newPassword}', newAddress(), {
        pathParameters: { email, token: '99999999', newPassword: 'Better123' },
      });
    const known = await reset(member.email);
    const unknown = await reset('nobody-here@example.com');
    expect(known).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
  });
});
