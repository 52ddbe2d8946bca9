/**
 * The second factor (issue 21 part 2), through the real route handlers against cognito-local and
 * DynamoDB Local: codes are computed from the secret the setup route hands out, with the same
 * library an authenticator app's algorithm matches (otplib).
 */
import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as auth } from '../src/handlers/http/auth.ts';
import { handler as tickets } from '../src/handlers/http/tickets.ts';
import { listAuditEntries } from '../src/storage/audit/entries.ts';
import { putSetting } from '../src/storage/settings.ts';
import { getMfaChallenge, putMfaChallenge } from '../src/storage/users/mfa.ts';
import { getUser } from '../src/storage/users/users.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { type EventOptions, httpEvent, parseResponse } from './support/events.ts';
import { createTestUser, signIn, TEST_PASSWORD, type TestUser } from './support/tenants.ts';

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

const call = async (key: string, options: EventOptions = {}) => parseResponse(await auth(httpEvent(key, options)));
const listTickets = async (token: string) => parseResponse(await tickets(httpEvent('GET /tickets', { token })));

/** The code an authenticator shows `steps` 30 s steps from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Codes are per 30 s step: a check must not straddle a step's end between computing and sending. */
async function awayFromStepEdge(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 26_000) await new Promise((resolve) => setTimeout(resolve, 30_500 - intoStep));
}

let ddb: DynamoDbLocal;
let cognito: CognitoLocal;
beforeAll(async () => {
  [ddb, cognito] = await Promise.all([startDynamoDbLocal(), startCognitoLocal()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([ddb?.stop(), cognito?.stop()]);
});

/** A user with the factor on: setup with its token, verified with the current code. Answers the secret and recovery codes. */
async function enrolled(options: Parameters<typeof createTestUser>[0] = {}) {
  const member = await createTestUser(options);
  await call('POST /auth/session', { token: member.idToken, body: { refreshToken: member.refreshToken } });
  const setup = await call('POST /auth/mfa/setup', { token: member.idToken });
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  await awayFromStepEdge();
  const verified = await call('POST /auth/mfa/verify', { token: member.idToken, body: { code: await codeAt(secret) } });
  expect(verified.status).toBe(200);
  return { member, secret, recoveryCodes: verified.body.recoveryCodes as string[] };
}

const login = (member: TestUser) => call('POST /auth/login', { body: { email: member.email, password: TEST_PASSWORD } });

describe('enrolment and sign-in with a second factor', () => {
  it('setup -> verify -> login answers a challenge and no token -> the code answers what login answers', async () => {
    // Prepare
    const member = await createTestUser({ companyId: 2101 });
    await call('POST /auth/session', { token: member.idToken, body: { refreshToken: member.refreshToken } });

    // Act: setup
    const setup = await call('POST /auth/mfa/setup', { token: member.idToken });

    // Assess: the secret and an otpauth URL an app reads; the stored secret is sealed
    expect(setup.status).toBe(200);
    const secret = setup.body.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(decodeURIComponent(setup.body.otpauthUrl as string)).toContain(member.email);
    const stored = await getUser(2101, member.user.id);
    expect(stored?.mfaPendingSecret).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored?.mfaEnabled).toBeFalsy();

    // Act: verify
    await awayFromStepEdge();
    const verified = await call('POST /auth/mfa/verify', { token: member.idToken, body: { code: await codeAt(secret) } });

    // Assess: ten one-time codes, stored hashed; the session that enrolled keeps working
    expect(verified.status).toBe(200);
    const recoveryCodes = verified.body.recoveryCodes as string[];
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const enabled = await getUser(2101, member.user.id);
    expect(enabled?.mfaEnabled).toBe(true);
    expect(enabled?.mfaRecoveryHashes).toHaveLength(10);
    expect(JSON.stringify(enabled)).not.toContain(recoveryCodes[0]);
    expect((await call('GET /auth/mfa', { token: member.idToken })).body).toEqual({ enabled: true, required: false });
    expect((await listTickets(member.idToken)).status).toBe(200);

    // Act: a new sign-in by password
    const first = await login(member);

    // Assess: a challenge, no token
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfaRequired: true, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    // Act: the next step's code (the enrolment spent this one)
    const passed = await call('POST /auth/mfa/challenge', { body: { challenge: first.body.challenge, code: await codeAt(secret, 1) } });

    // Assess: login's answer, and the token reads the inbox
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), user: { id: member.user.id } });
    expect((await listTickets(passed.body.token as string)).status).toBe(200);
    // The challenge is used once.
    const again = await call('POST /auth/mfa/challenge', { body: { challenge: first.body.challenge, code: await codeAt(secret) } });
    expect(again).toMatchObject({ status: 400, body: { error: 'ERR_MFA_CHALLENGE_EXPIRED' } });
  });

  it('never accepts the same code twice, accepts the previous and next step, refuses two steps away', async () => {
    // Prepare: enrolment spent the current step
    const { member, secret } = await enrolled({ companyId: 2101 });
    const challenge = async () => (await login(member)).body.challenge as string;
    const answer = async (id: string, code: string) => call('POST /auth/mfa/challenge', { body: { challenge: id, code } });

    // Act + Assess: the enrolment's own code is refused
    await awayFromStepEdge();
    const id = await challenge();
    expect(await answer(id, await codeAt(secret))).toMatchObject({ status: 400, body: { error: 'ERR_MFA_INVALID_CODE' } });
    // two steps either way are refused
    expect((await answer(id, await codeAt(secret, 2))).status).toBe(400);
    expect((await answer(id, await codeAt(secret, -2))).status).toBe(400);
    // the next step passes
    expect((await answer(id, await codeAt(secret, 1))).status).toBe(200);

    // Act + Assess: that code again, on a new challenge, is refused
    const second = await challenge();
    expect(await answer(second, await codeAt(secret, 1))).toMatchObject({ status: 400, body: { error: 'ERR_MFA_INVALID_CODE' } });
  });

  it('accepts the previous step once the clock is there (a slow phone)', async () => {
    // Prepare: enrolled with the previous step's code
    const member = await createTestUser({ companyId: 2101 });
    await call('POST /auth/session', { token: member.idToken, body: { refreshToken: member.refreshToken } });
    const secret = (await call('POST /auth/mfa/setup', { token: member.idToken })).body.secret as string;
    await awayFromStepEdge();

    // Act
    const tooOld = await call('POST /auth/mfa/verify', { token: member.idToken, body: { code: await codeAt(secret, -2) } });
    const previous = await call('POST /auth/mfa/verify', { token: member.idToken, body: { code: await codeAt(secret, -1) } });

    // Assess
    expect(tooOld).toMatchObject({ status: 400, body: { error: 'ERR_MFA_INVALID_CODE' } });
    expect(previous.status).toBe(200);
  });

  it('burns a challenge after 5 wrong codes: the right code then finds it gone', async () => {
    // Prepare
    const { member, secret } = await enrolled({ companyId: 2101 });
    await awayFromStepEdge();
    const id = (await login(member)).body.challenge as string;

    // Act
    const wrong = [];
    for (let i = 0; i < 5; i += 1) wrong.push(await call('POST /auth/mfa/challenge', { body: { challenge: id, code: '000000' } }));
    const right = await call('POST /auth/mfa/challenge', { body: { challenge: id, code: await codeAt(secret, 1) } });

    // Assess
    for (const res of wrong) expect(res).toMatchObject({ status: 400, body: { error: 'ERR_MFA_INVALID_CODE' } });
    expect(right).toMatchObject({ status: 400, body: { error: 'ERR_MFA_CHALLENGE_EXPIRED' } });
  });

  it('takes a recovery code once', async () => {
    // Prepare
    const { member, recoveryCodes } = await enrolled({ companyId: 2101 });
    const [code = ''] = recoveryCodes;

    // Act: typed in capitals and without the dash, as people do
    const first = await call('POST /auth/mfa/challenge', {
      body: { challenge: (await login(member)).body.challenge, code: code.toUpperCase().replace('-', '') },
    });
    const second = await call('POST /auth/mfa/challenge', { body: { challenge: (await login(member)).body.challenge, code } });

    // Assess
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 400, body: { error: 'ERR_MFA_INVALID_CODE' } });
    expect((await getUser(2101, member.user.id))?.mfaRecoveryHashes).toHaveLength(9);
  });

  it('a Cognito token obtained directly opens nothing until its challenge passes (the web sign-in path)', async () => {
    // Prepare
    const { member, secret } = await enrolled({ companyId: 2101 });
    // A later second than the enrolling session's, so only the second factor can refuse the token.
    await new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000)));
    const direct = await signIn(member.email);

    // Act: the web app claims the session with it
    const claimed = await call('POST /auth/session', { token: direct.idToken, body: { refreshToken: direct.refreshToken } });

    // Assess: a challenge, and the token reads nothing meanwhile
    expect(claimed.body).toEqual({ mfaRequired: true, challenge: expect.any(String) });
    expect(await listTickets(direct.idToken)).toMatchObject({ status: 401, body: { error: 'ERR_MFA_REQUIRED' } });
    expect((await call('GET /auth/me', { token: direct.idToken })).status).toBe(401);
    expect((await call('POST /auth/refresh_token', { token: direct.idToken })).status).toBe(401);
    expect((await call('POST /auth/mfa/setup', { token: direct.idToken })).status).toBe(401);

    // Act: the code
    await awayFromStepEdge();
    const passed = await call('POST /auth/mfa/challenge', { body: { challenge: claimed.body.challenge, code: await codeAt(secret, 1) } });

    // Assess: the same token is the session now
    expect(passed).toMatchObject({ status: 200, body: { token: direct.idToken, user: { id: member.user.id } } });
    expect((await listTickets(direct.idToken)).status).toBe(200);
    // Claiming again with the verified token (a reload) needs no new code.
    expect((await call('POST /auth/session', { token: direct.idToken })).body).toMatchObject({ token: direct.idToken });
    // The enrolling session's token was replaced by the new sign-in.
    expect((await listTickets(member.idToken)).status).toBe(401);
  });

  it('turns off with a code, and not without one', async () => {
    // Prepare
    const { member, secret } = await enrolled({ companyId: 2101 });

    // Act
    const refused = await call('DELETE /auth/mfa', { token: member.idToken, body: { code: '123456' } });
    await awayFromStepEdge();
    const off = await call('DELETE /auth/mfa', { token: member.idToken, body: { code: await codeAt(secret, 1) } });

    // Assess
    expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_MFA_INVALID_CODE' } });
    expect(off.status).toBe(204);
    expect((await login(member)).body).toMatchObject({ token: expect.any(String) });
    // Both acts are in the company's audit trail, by the user.
    const trail = await listAuditEntries({ companyId: 2101, userId: member.user.id }, 50);
    const mine = trail.filter((entry) => entry.targetId === String(member.user.id)).map((entry) => entry.action);
    expect(mine).toEqual(expect.arrayContaining(['mfa.enabled', 'mfa.disabled']));
  });
});

describe('company setting mfaRequired', () => {
  it('everyone: a user without the factor gets a session that can only enrol, then everything', async () => {
    // Prepare
    await putSetting(2102, 'mfaRequired', 'everyone');
    const member = await createTestUser({ companyId: 2102, signIn: false });

    // Act
    const signedIn = await login(member);
    const token = signedIn.body.token as string;

    // Assess: sent to enrolment; nothing else answers
    expect(signedIn.body).toMatchObject({ token: expect.any(String), mfaEnrolmentRequired: true });
    expect(await listTickets(token)).toMatchObject({ status: 403, body: { error: 'ERR_MFA_ENROLMENT_REQUIRED' } });
    expect((await call('GET /auth/mfa', { token })).body).toEqual({ enabled: false, required: true });
    expect((await call('GET /auth/me', { token })).status).toBe(200);

    // Act: enrol
    const secret = (await call('POST /auth/mfa/setup', { token })).body.secret as string;
    await awayFromStepEdge();
    expect((await call('POST /auth/mfa/verify', { token, body: { code: await codeAt(secret) } })).status).toBe(200);

    // Assess: the session is whole, and the factor cannot be turned off while required
    expect((await listTickets(token)).status).toBe(200);
    expect(await call('DELETE /auth/mfa', { token, body: { code: await codeAt(secret, 1) } })).toMatchObject({
      status: 403,
      body: { error: 'ERR_MFA_REQUIRED_BY_COMPANY' },
    });
  });

  it('admins: plain users are not asked; admins are', async () => {
    // Prepare
    await putSetting(2103, 'mfaRequired', 'admins');
    const plain = await createTestUser({ companyId: 2103, signIn: false });
    const admin = await createTestUser({ companyId: 2103, profile: 'admin', signIn: false });

    // Act
    const plainIn = await login(plain);
    const adminIn = await login(admin);

    // Assess
    expect(plainIn.body).not.toHaveProperty('mfaEnrolmentRequired');
    expect((await listTickets(plainIn.body.token as string)).status).toBe(200);
    expect(adminIn.body).toMatchObject({ mfaEnrolmentRequired: true });
    expect((await listTickets(adminIn.body.token as string)).status).toBe(403);
  });
});

describe('DELETE /users/{id}/mfa', () => {
  it("the company's admin resets a user's factor: the user signs in without it and must enrol again", async () => {
    // Prepare
    const { member } = await enrolled({ companyId: 2104 });
    const admin = await createTestUser({ companyId: 2104, profile: 'admin' });
    await call('POST /auth/session', { token: admin.idToken });

    // Act
    const reset = await call('DELETE /users/{id}/mfa', { token: admin.idToken, pathParameters: { id: String(member.user.id) } });

    // Assess
    expect(reset.status).toBe(204);
    const stored = await getUser(2104, member.user.id);
    expect(stored).toMatchObject({ mfaEnabled: false });
    expect(stored).not.toHaveProperty('mfaSecret');
    expect((await login(member)).body).toMatchObject({ token: expect.any(String) });
    const [resetEntry] = await listAuditEntries({ companyId: 2104, action: 'mfa.reset' }, 10);
    expect(resetEntry).toMatchObject({ userId: admin.user.id, targetType: 'user', targetId: String(member.user.id) });
  });

  it("another company's admin cannot reset my factor, nor can a plain user of mine; garbage ids are 400", async () => {
    // Prepare: ids are per company; two colleagues first, so my id is no user of the outsider's company
    await Promise.all([createTestUser({ companyId: 2105, signIn: false }), createTestUser({ companyId: 2105, signIn: false })]);
    const { member } = await enrolled({ companyId: 2105 });
    const outsider = await createTestUser({ companyId: 2106, profile: 'admin' });
    const colleague = await createTestUser({ companyId: 2105 });
    await call('POST /auth/session', { token: outsider.idToken });
    await call('POST /auth/session', { token: colleague.idToken });
    const path = { id: String(member.user.id) };

    // Act
    const fromOutsider = await call('DELETE /users/{id}/mfa', { token: outsider.idToken, pathParameters: path });
    const withCompany = await call('DELETE /users/{id}/mfa', {
      token: outsider.idToken,
      pathParameters: path,
      query: { companyId: '2105' },
    });
    const fromColleague = await call('DELETE /users/{id}/mfa', { token: colleague.idToken, pathParameters: path });
    const garbage = await call('DELETE /users/{id}/mfa', { token: outsider.idToken, pathParameters: { id: 'abc' } });

    // Assess
    expect(fromOutsider.status).toBe(404);
    expect(withCompany.status).toBe(404);
    expect(fromColleague).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect(garbage.status).toBe(400);
    expect((await getUser(2105, member.user.id))?.mfaEnabled).toBe(true);
  });
});

describe('bad input', () => {
  it('answers 400, never 500, to garbage codes and challenges; a forged or expired challenge is refused', async () => {
    // Prepare
    const { member, secret } = await enrolled({ companyId: 2107 });
    const id = (await login(member)).body.challenge as string;
    const forged = randomBytes(32).toString('base64url');

    // Act + Assess: garbage
    for (const body of [
      {},
      { challenge: id },
      { challenge: id, code: 'abc' },
      { challenge: id, code: 123456 },
      { challenge: id, code: null },
      { challenge: id, code: 'x'.repeat(5000) },
      { challenge: 'short', code: '123456' },
      { challenge: { $ne: null }, code: '123456' },
      { challenge: id, code: ['123456'] },
    ])
      expect((await call('POST /auth/mfa/challenge', { body })).status).toBe(400);
    expect((await call('POST /auth/mfa/challenge', { rawBody: '{not json' })).status).toBe(400);
    for (const code of ['', 'abcdef', '12345', { a: 1 }])
      expect((await call('POST /auth/mfa/verify', { token: member.idToken, body: { code } })).status).toBeGreaterThanOrEqual(400);

    // Act + Assess: a forged challenge
    await awayFromStepEdge();
    expect(await call('POST /auth/mfa/challenge', { body: { challenge: forged, code: await codeAt(secret, 1) } })).toMatchObject({
      status: 400,
      body: { error: 'ERR_MFA_CHALLENGE_EXPIRED' },
    });

    // Act + Assess: an expired one (its five minutes passed)
    const record = await getMfaChallenge(id, 0);
    if (!record) throw new Error('challenge not stored');
    await putMfaChallenge(id, { ...record, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect(await call('POST /auth/mfa/challenge', { body: { challenge: id, code: await codeAt(secret, 1) } })).toMatchObject({
      status: 400,
      body: { error: 'ERR_MFA_CHALLENGE_EXPIRED' },
    });
  });

  it('setup is refused while the factor is on; verify without setup is 400; routes need a token', async () => {
    // Prepare
    const { member } = await enrolled({ companyId: 2107 });
    const fresh = await createTestUser({ companyId: 2107 });
    await call('POST /auth/session', { token: fresh.idToken });

    // Act + Assess
    expect(await call('POST /auth/mfa/setup', { token: member.idToken })).toMatchObject({
      status: 409,
      body: { error: 'ERR_MFA_ALREADY_ENABLED' },
    });
    expect(await call('POST /auth/mfa/verify', { token: fresh.idToken, body: { code: '123456' } })).toMatchObject({
      status: 400,
      body: { error: 'ERR_MFA_SETUP_REQUIRED' },
    });
    expect((await call('POST /auth/mfa/setup')).status).toBe(401);
    expect((await call('POST /auth/mfa/setup', { token: 'forged.token.here' })).status).toBe(401);
    expect((await call('DELETE /users/{id}/mfa', { pathParameters: { id: '1' } })).status).toBe(401);
  });
});
