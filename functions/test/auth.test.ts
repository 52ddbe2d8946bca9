import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../src/handlers/http/auth.ts';
import { updateCompany } from '../src/storage/companies/companies.ts';
import { getUser } from '../src/storage/users/users.ts';
import { findConnection, putConnection } from '../src/storage/ws-connections.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { type EventOptions, httpEvent, parseResponse } from './support/events.ts';
import { startTestMailSink, type TestMailSink } from './support/mail-sink.ts';
import { createTestUser, signIn, TEST_PASSWORD } from './support/tenants.ts';

// Reset codes are stored as a digest keyed with the region's key (commons/secrets.ts).
process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

const call = async (key: string, options: EventOptions = {}) => parseResponse(await handler(httpEvent(key, options)));
const claimOf = (token: string, claim: string): unknown =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())[claim];
const iatOf = (token: string): number => claimOf(token, 'iat') as number;
/** Tokens carry whole-second `iat`s: a newer session must start in a later second. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1100 - (Date.now() % 1000)));

let ddb: DynamoDbLocal;
let cognito: CognitoLocal;
let mail: TestMailSink;
/** Stands in for API Gateway's @connections endpoint: records what the publisher posts. */
let sockets: Server;
const posted: { connectionId: string; body: unknown }[] = [];
/** Sockets closed from the server side (DELETE @connections/{id}). */
const closedSockets: string[] = [];

beforeAll(async () => {
  [ddb, cognito, mail] = await Promise.all([startDynamoDbLocal(), startCognitoLocal(), startTestMailSink()]);
  sockets = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => {
      if (req.method === 'DELETE') {
        closedSockets.push(decodeURIComponent(req.url?.split('/').pop() ?? ''));
        res.writeHead(204).end();
        return;
      }
      posted.push({ connectionId: decodeURIComponent(req.url?.split('/').pop() ?? ''), body: JSON.parse(data || 'null') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => sockets.listen(0, '127.0.0.1', resolve));
  const address = sockets.address();
  process.env.WS_MANAGEMENT_URL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);
afterAll(async () => {
  sockets?.close();
  await Promise.all([ddb?.stop(), cognito?.stop(), mail?.stop()]);
});

describe('POST /auth/login', () => {
  it('signs in, claims the session and answers the spec shape without secrets', async () => {
    // Prepare
    const member = await createTestUser({ companyId: 1, profile: 'admin', signIn: false });

    // Act
    const res = await call('POST /auth/login', { body: { email: member.email.toUpperCase(), password: TEST_PASSWORD } });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token: expect.any(String),
      refreshToken: expect.any(String),
      user: {
        id: member.user.id,
        companyId: 1,
        profile: 'admin',
        queues: [],
        company: { id: 1, dueDate: null, settings: expect.any(Array) },
      },
    });
    const user = res.body.user as Record<string, unknown>;
    for (const secret of ['cognitoSub', 'sessionIat', 'sessionRefreshToken']) expect(user).not.toHaveProperty(secret);
    const stored = await getUser(1, member.user.id);
    expect(stored).toMatchObject({ sessionIat: iatOf(res.body.token as string), sessionRefreshToken: res.body.refreshToken });
  });

  it('refuses wrong credentials with 401 and bad input with 400 naming the field', async () => {
    const member = await createTestUser({ companyId: 1, signIn: false });
    expect(await call('POST /auth/login', { body: { email: member.email, password: 'Wrong1234' } })).toMatchObject({
      status: 401,
      body: { error: 'ERR_INVALID_CREDENTIALS' },
    });
    expect(await call('POST /auth/login', { body: { email: 'nobody@example.com', password: 'Wrong1234' } })).toMatchObject({ status: 401 });
    expect(await call('POST /auth/login', { body: { email: 'not-an-email', password: 'x' } })).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION', field: 'email', message: 'Invalid email' },
    });
    expect(await call('POST /auth/login', { body: { email: member.email } })).toMatchObject({
      status: 400,
      body: { field: 'password', message: 'Required' },
    });
  });

  it('blocks an expired company with the Spanish message, except super users; warns under 5 days', async () => {
    // Prepare
    const member = await createTestUser({ companyId: 2, profile: 'admin', signIn: false });
    const superUser = await createTestUser({ companyId: 2, profile: 'admin', super: true, signIn: false });
    await updateCompany(2, { dueDate: '2021-12-31' });

    // Act
    const blocked = await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } });
    const superLogin = await call('POST /auth/login', { body: { email: superUser.email, password: TEST_PASSWORD } });

    // Assess
    expect(blocked).toMatchObject({
      status: 402,
      body: {
        error: 'ERR_COMPANY_EXPIRED',
        dueDate: '2021-12-31',
        message: '¡Opss! Tu suscripción venció el 31/12/2021. Para más información, contacta al soporte técnico.',
      },
    });
    expect((await getUser(2, member.user.id))?.sessionIat).toBe(0);
    expect(superLogin.status).toBe(200);

    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await updateCompany(2, { dueDate: inThreeDays });
    const warned = await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } });
    expect(warned).toMatchObject({ status: 200, body: { dueDateWarning: { days: 3, dueDate: inThreeDays } } });
  });

  it('the web app’s sign-in (web: true) lets an expired company’s admin in to pay, not its plain user, and answers the access token', async () => {
    // Prepare: the web app signs in through this route (issue 21), as POST /auth/session answered it before
    const admin = await createTestUser({ companyId: 42, profile: 'admin', signIn: false });
    const member = await createTestUser({ companyId: 42, signIn: false });
    await updateCompany(42, { dueDate: '2022-01-15' });
    // Act
    const adminIn = await call('POST /auth/login', { body: { email: admin.email, password: TEST_PASSWORD, web: true } });
    const memberIn = await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD, web: true } });
    // Assess: the admin gets a session with the tokens Amplify's store needs; the plain user the Spanish refusal
    expect(adminIn).toMatchObject({
      status: 200,
      body: { token: expect.any(String), accessToken: expect.any(String), refreshToken: expect.any(String), user: { id: admin.user.id } },
    });
    expect(JSON.parse(Buffer.from((adminIn.body.accessToken as string).split('.')[1] ?? '', 'base64url').toString())).toMatchObject({
      token_use: 'access',
    });
    expect(memberIn).toMatchObject({ status: 402, body: { error: 'ERR_COMPANY_EXPIRED' } });
    expect(await call('POST /auth/login', { body: { email: admin.email, password: TEST_PASSWORD, web: 'yes' } })).toMatchObject({
      status: 400,
    });
  });
});

describe('single session', () => {
  it('a new login ends the older one: old token 401, old refresh token refused, event sent to the old socket', async () => {
    // Prepare: a first session with an open socket
    const member = await createTestUser({ companyId: 3, profile: 'user', signIn: false });
    const first = await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } });
    await putConnection({
      connectionId: 'old-tab',
      companyId: 3,
      userId: member.user.id,
      profile: 'user',
      super: false,
      queueIds: [],
      allTicket: 'desabled',
      tokenExpiresAt: Math.floor(Date.now() / 1000) + 3600,
      tokenIssuedAt: Math.floor(Date.now() / 1000),
      tokenJti: 'old-tab-token',
      tokenOrigin: '',
    });
    expect((await call('GET /auth/me', { token: first.body.token as string })).status).toBe(200);
    await nextSecond();

    // Act
    const second = await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } });

    // Assess
    expect(second.status).toBe(200);
    expect(await call('GET /auth/me', { token: first.body.token as string })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_EXPIRED' },
    });
    expect(await call('GET /auth/me', { token: second.body.token as string })).toMatchObject({ status: 200, body: { id: member.user.id } });
    expect(await call('POST /auth/refresh_token', { body: { refreshToken: first.body.refreshToken } })).toMatchObject({ status: 401 });
    expect(posted).toContainEqual({
      connectionId: 'old-tab',
      body: {
        event: 'company-3-auth',
        data: {
          action: 'update',
          user: { id: member.user.id },
          sessionIat: iatOf(second.body.token as string),
          sessionJti: claimOf(second.body.token as string, 'jti'),
        },
      },
    });
    // The old tab's socket is closed by the server, not left to a client that may ignore the event.
    expect(closedSockets).toContain('old-tab');
    expect(await findConnection('old-tab', 1)).toBeUndefined();
  });

  it('two sign-ins within the same second: the later one wins, the earlier is refused', async () => {
    const member = await createTestUser({ companyId: 3, signIn: false });
    // Both logins land in one second often enough; the rule must hold either way.
    const [first, second] = [
      await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } }),
      await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } }),
    ];
    expect(await call('GET /auth/me', { token: second.body.token as string })).toMatchObject({ status: 200 });
    expect(await call('GET /auth/me', { token: first.body.token as string })).toMatchObject({ status: 401 });
  });

  it('POST /auth/session claims the session for a client that signed in to Cognito directly', async () => {
    const member = await createTestUser({ companyId: 3, signIn: false });
    const apiLogin = await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } });
    await nextSecond();
    const amplify = await signIn(member.email);

    const claimed = await call('POST /auth/session', { token: amplify.idToken, body: { refreshToken: amplify.refreshToken } });

    expect(claimed).toMatchObject({ status: 200, body: { token: amplify.idToken, user: { id: member.user.id } } });
    expect(await getUser(3, member.user.id)).toMatchObject({
      sessionIat: iatOf(amplify.idToken),
      sessionRefreshToken: amplify.refreshToken,
    });
    expect((await call('GET /auth/me', { token: apiLogin.body.token as string })).status).toBe(401);
  });

  it('POST /auth/session refuses an expired company with the Spanish message', async () => {
    const member = await createTestUser({ companyId: 4 });
    await updateCompany(4, { dueDate: '2022-01-15' });
    const res = await call('POST /auth/session', { token: member.idToken, body: {} });
    expect(res).toMatchObject({ status: 402, body: { error: 'ERR_COMPANY_EXPIRED', message: expect.stringContaining('15/01/2022') } });
  });

  it('GET /auth/me refuses a plain user of a company that expired since the sign-in, and answers its admin (to pay)', async () => {
    const member = await createTestUser({ companyId: 41 });
    const admin = await createTestUser({ companyId: 41, profile: 'admin' });
    expect((await call('GET /auth/me', { token: member.idToken })).status).toBe(200);
    await updateCompany(41, { dueDate: '2022-01-15' });
    expect(await call('GET /auth/me', { token: member.idToken })).toMatchObject({
      status: 402,
      body: { error: 'ERR_COMPANY_EXPIRED', message: expect.stringContaining('15/01/2022') },
    });
    expect(await call('GET /auth/me', { token: admin.idToken })).toMatchObject({ status: 200, body: { id: admin.user.id } });
  });
});

describe('refresh, me and logout', () => {
  it('refreshes with the current refresh token and refuses it after logout', async () => {
    // Prepare
    const member = await createTestUser({ companyId: 5, profile: 'admin', signIn: false });
    const login = await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } });

    // Act + Assess
    const refreshed = await call('POST /auth/refresh_token', { body: { refreshToken: login.body.refreshToken } });
    expect(refreshed).toMatchObject({ status: 200, body: { token: expect.any(String), user: { id: member.user.id } } });
    expect((await call('GET /auth/me', { token: refreshed.body.token as string })).status).toBe(200);

    const me = await call('GET /auth/me', { token: login.body.token as string });
    expect(me.body).toMatchObject({ id: member.user.id, email: member.email, company: { id: 5, name: 'Company 5' } });

    const out = await handler(httpEvent('DELETE /auth/logout', { token: login.body.token as string }));
    expect(out.statusCode).toBe(204);
    expect((await getUser(5, member.user.id))?.sessionRefreshToken).toBeNull();
    // Every ID token of the ended session is refused, though Cognito would still accept it.
    for (const token of [login.body.token, refreshed.body.token] as string[])
      expect(await call('GET /auth/me', { token })).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
    expect(await call('POST /auth/refresh_token', { body: { refreshToken: login.body.refreshToken } })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_EXPIRED' },
    });
    expect(await call('POST /auth/refresh_token', { body: { refreshToken: 'garbage' } })).toMatchObject({ status: 401 });
    expect(await call('POST /auth/refresh_token', { body: {} })).toMatchObject({ status: 401 });
    expect(await call('GET /auth/me')).toMatchObject({ status: 401 });
  });
});

describe('password reset', () => {
  it('answers unknown addresses like known ones (auth-throttle.test.ts), then resets with the code', async () => {
    const member = await createTestUser({ companyId: 6, signIn: false });
    expect(await call('POST /forgetpassword/{email}', { pathParameters: { email: 'ghost@example.com' } })).toMatchObject({
      status: 200,
      body: { sent: true },
    });
    expect(await call('POST /forgetpassword/{email}', { pathParameters: { email: 'bad' } })).toMatchObject({
      status: 400,
      body: { field: 'email' },
    });
    expect(await call('POST /forgetpassword/{email}', { pathParameters: { email: member.email } })).toMatchObject({ status: 200 });
    const code = mail.lastCodeFor(member.email);

    const reset = (token: string, newPassword: string) =>
      call('POST /resetpasswords/{email}/{token}/{newPassword}', { pathParameters: { email: member.email, token, newPassword } });
    expect(await reset(code, 'weak')).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'newPassword' } });
    expect(await reset('99999999', 'Better123')).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
    expect(await reset(code, 'Better123')).toMatchObject({ status: 200 });
    // Single use: the same code again is refused
    expect(await reset(code, 'Better456')).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });

    expect((await call('POST /auth/login', { body: { email: member.email, password: 'Better123' } })).status).toBe(200);
    expect((await call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } })).status).toBe(401);
  });
});

describe('GET /version', () => {
  it('answers the server version', async () => {
    expect(await call('GET /version')).toEqual(expect.objectContaining({ status: 200, body: { version: '6.0.0' } }));
  });
});
