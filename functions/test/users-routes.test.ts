/** Users routes over real DynamoDB Local + cognito-local, driven through the handler. */
import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionUser } from '#domain/users/provision';
import { createUser, getUser, newUserId } from '#storage/users/users';
import { userFixture } from './support/fixtures.ts';
import { call, PASSWORD, type Stack, seedTenant, signIn, startStack, type Tenant, uniq } from './users-harness.ts';

let stack: Stack;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  stack = await startStack();
  a = await seedTenant(stack);
  b = await seedTenant(stack);
  // Company B has more users than A, so B's highest ids do not exist in A.
  await b.addUser();
  await b.addUser();
  await b.addUser();
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const cognitoHas = async (email: string): Promise<boolean> =>
  stack.cognito.client
    .send(new AdminGetUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: email }))
    .then(() => true)
    .catch(() => false);

describe('listing users', () => {
  it('pages and searches the caller company only, without Cognito or session fields', async () => {
    // Prepare
    const named = await a.addUser();
    // Act
    const all = await call('GET /users', { token: a.admin.token });
    const found = await call('GET /users', { token: a.admin.token, query: { searchParam: named.email.toUpperCase() } });
    const names = await call('GET /users/list', { token: a.admin.token });
    // Assess
    expect(all.status).toBe(200);
    expect(all.body.hasMore).toBe(false);
    expect(all.body.users.map((u: { companyId: number }) => u.companyId)).toEqual(all.body.users.map(() => a.companyId));
    expect(all.body.users[0]).not.toHaveProperty('cognitoSub');
    expect(all.body.users[0]).not.toHaveProperty('sessionIat');
    expect(found.body.users.map((u: { id: number }) => u.id)).toEqual([named.id]);
    expect(names.body).toEqual(expect.arrayContaining([{ id: named.id, name: expect.any(String), queueIds: expect.any(Array) }]));
    expect(Object.keys(names.body[0]).sort()).toEqual(['id', 'name', 'queueIds']);
    expect(names.body).toHaveLength(all.body.users.length);
  });

  it('refuses the paged list to a plain user', async () => {
    const plain = await a.addUser();
    expect((await call('GET /users', { token: plain.token })).status).toBe(403);
  });
});

describe('reading one user', () => {
  it('lets a plain user read themselves but not a colleague', async () => {
    const plain = await a.addUser();
    expect((await call('GET /users/{id}', { token: plain.token, params: { id: plain.id } })).body.email).toBe(plain.email);
    expect((await call('GET /users/{id}', { token: plain.token, params: { id: a.admin.id } })).status).toBe(403);
  });

  it('answers 404 for an id that only exists in another company', async () => {
    const res = await call('GET /users/{id}', { token: a.admin.token, params: { id: 999 } });
    expect(res).toEqual({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
  });
});

describe('creating users', () => {
  it('creates a user who can sign in, and never returns the password', async () => {
    // Prepare
    const email = `${uniq('new')}@acme.test`;
    // Act
    const res = await call('POST /users', {
      token: a.admin.token,
      body: { name: 'Nuevo', email, password: PASSWORD, profile: 'user', queueIds: [] },
    });
    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Nuevo', email, profile: 'user', companyId: a.companyId, allTicket: 'desabled', super: false });
    expect(res.body).not.toHaveProperty('password');
    expect(await signIn(stack, email)).toEqual(expect.any(String));
  });

  it("shows a user's queues with their names and colours, in the user, the list and the session", async () => {
    // Prepare
    const queue = await call('POST /queue', { token: a.admin.token, body: { name: uniq('Vendas '), color: '#12AB34' } });
    const email = `${uniq('queued')}@acme.test`;
    // Act
    const created = await call('POST /users', {
      token: a.admin.token,
      body: { name: 'Queued', email, password: PASSWORD, profile: 'user', queueIds: [queue.body.id] },
    });
    // Assess
    const expected = [{ id: queue.body.id, name: queue.body.name, color: '#12AB34' }];
    expect(created.body.queues).toEqual(expected);
    const listed = await call('GET /users', { token: a.admin.token, query: { searchParam: 'Queued' } });
    expect(listed.body.users.find((u: { id: number }) => u.id === created.body.id)?.queues).toEqual(expected);
    const me = await call('GET /auth/me', { token: await signIn(stack, email) });
    expect(me.body.queues).toEqual(expected);
  });

  it('refuses an e-mail already used in another company with 409 and touches nothing', async () => {
    const before = (await call('GET /users/list', { token: a.admin.token })).body.length;
    const res = await call('POST /users', { token: a.admin.token, body: { name: 'Dup', email: b.admin.email, password: PASSWORD } });
    expect(res).toEqual({ status: 409, body: { error: 'ERR_EMAIL_ALREADY_EXISTS' } });
    expect((await call('GET /users/list', { token: a.admin.token })).body).toHaveLength(before);
    expect(await signIn(stack, b.admin.email)).toEqual(expect.any(String));
  });

  it('enforces the plan user limit with 403 ERR_PLAN_LIMIT_USERS', async () => {
    // Prepare: a plan of 2 users, the admin is one
    const small = await seedTenant(stack, { plan: { users: 2 } });
    const first = await call('POST /users', {
      token: small.admin.token,
      body: { name: 'Second', email: `${uniq('s')}@acme.test`, password: PASSWORD },
    });
    // Act
    const third = await call('POST /users', {
      token: small.admin.token,
      body: { name: 'Third', email: `${uniq('t')}@acme.test`, password: PASSWORD },
    });
    // Assess
    expect(first.status).toBe(201);
    expect(third.status).toBe(403);
    expect(third.body.error).toBe('ERR_PLAN_LIMIT_USERS');
  });

  it('holds the plan user limit when creates race, leaving no sign-in behind for the refused', async () => {
    // Prepare: a plan of 3 users, the admin is one
    const small = await seedTenant(stack, { plan: { users: 3 } });
    const emails = Array.from({ length: 6 }, () => `${uniq('race')}@acme.test`);
    // Act
    const results = await Promise.all(
      emails.map((email) => call('POST /users', { token: small.admin.token, body: { name: 'Racer', email, password: PASSWORD } })),
    );
    // Assess
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(new Set(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.error}`))).toEqual(
      new Set(['403 ERR_PLAN_LIMIT_USERS']),
    );
    expect((await call('GET /users/list', { token: small.admin.token })).body).toHaveLength(3);
    const refused = emails.filter((_, i) => results[i]?.status !== 201);
    for (const email of refused) await expect(signIn(stack, email)).rejects.toThrow();
  });

  it('removes the Cognito user again when the record cannot be written', async () => {
    // Prepare: occupy the id the counter hands out next, so the record write fails after Cognito
    const nextFree = (await newUserId(a.companyId)) + 1;
    await createUser(userFixture({ id: nextFree, companyId: a.companyId, email: `${uniq('squat')}@acme.test` }));
    const email = `${uniq('rollback')}@acme.test`;
    // Act
    await expect(provisionUser(a.companyId, { name: 'Rolled', email, password: PASSWORD, profile: 'user' })).rejects.toThrow();
    // Assess
    expect(await cognitoHas(email)).toBe(false);
    expect((await getUser(a.companyId, nextFree))?.email).not.toBe(email);
  });
});

describe('updating users', () => {
  it('lets a plain user rename themselves but not change their profile or queues', async () => {
    const plain = await a.addUser();
    const renamed = await call('PUT /users/{id}', {
      token: plain.token,
      params: { id: plain.id },
      body: { name: 'Renamed', profile: 'user' },
    });
    const promoted = await call('PUT /users/{id}', { token: plain.token, params: { id: plain.id }, body: { profile: 'admin' } });
    const queued = await call('PUT /users/{id}', { token: plain.token, params: { id: plain.id }, body: { queueIds: [1] } });
    const other = await call('PUT /users/{id}', { token: plain.token, params: { id: a.admin.id }, body: { name: 'Hacked' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    expect(promoted.status).toBe(403);
    expect(queued.status).toBe(403);
    expect(other.status).toBe(403);
    expect((await getUser(a.companyId, plain.id))?.profile).toBe('user');
  });

  it('lets an admin change e-mail and password, and sign-in follows', async () => {
    const user = await a.addUser();
    const email = `${uniq('moved')}@acme.test`;
    const res = await call('PUT /users/{id}', {
      token: a.admin.token,
      params: { id: user.id },
      body: { email, password: 'NewSecret9', profile: 'admin', allTicket: 'enabled' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, profile: 'admin', allTicket: 'enabled' });
    expect(await signIn(stack, email, 'NewSecret9')).toEqual(expect.any(String));
    await expect(signIn(stack, email, PASSWORD)).rejects.toThrow();
  });

  it('refuses a taken e-mail with 409 and keeps the record as it was', async () => {
    const user = await a.addUser();
    const res = await call('PUT /users/{id}', { token: a.admin.token, params: { id: user.id }, body: { email: b.admin.email } });
    expect(res.status).toBe(409);
    expect((await getUser(a.companyId, user.id))?.email).toBe(user.email);
  });

  it("refuses queueIds of another company's queue (or none) with a 400 naming queueIds, on create and update", async () => {
    // Prepare: queue ids count per company, so take one of B's that A does not have.
    for (let i = 0; i < 3; i++)
      await call('POST /queue', { token: b.admin.token, body: { name: uniq('B queue '), color: `#0000${i}${i}` } });
    const mine = (await call('GET /queue', { token: a.admin.token })).body.map((q: { id: number }) => q.id) as number[];
    const theirs = ((await call('GET /queue', { token: b.admin.token })).body as { id: number }[]).find((q) => !mine.includes(q.id));
    expect(theirs).toBeDefined();
    const foreign = theirs?.id as number;
    const refused = { status: 400, body: { error: 'ERR_VALIDATION', field: 'queueIds' } };
    const email = `${uniq('foreignq')}@acme.test`;
    // Act
    const created = await call('POST /users', {
      token: a.admin.token,
      body: { name: 'Foreign Queue', email, password: PASSWORD, profile: 'user', queueIds: [foreign] },
    });
    const user = await a.addUser();
    const updated = await call('PUT /users/{id}', { token: a.admin.token, params: { id: user.id }, body: { queueIds: [foreign] } });
    const unknown = await call('PUT /users/{id}', { token: a.admin.token, params: { id: user.id }, body: { queueIds: [987_654] } });
    // Assess: nothing written, no sign-in left behind.
    expect(created).toMatchObject(refused);
    expect(await cognitoHas(email)).toBe(false);
    expect(updated).toMatchObject(refused);
    expect(unknown).toMatchObject(refused);
    expect((await getUser(a.companyId, user.id))?.queueIds).toEqual([]);
    // A queue of the company is still taken.
    const own = await call('POST /queue', { token: a.admin.token, body: { name: uniq('A queue '), color: '#0A0B0C' } });
    const ok = await call('PUT /users/{id}', { token: a.admin.token, params: { id: user.id }, body: { queueIds: [own.body.id] } });
    expect(ok.status).toBe(200);
    expect(ok.body.queueIds).toEqual([own.body.id]);
  });

  it("never touches another company's user", async () => {
    const target = await b.addUser();
    const res = await call('PUT /users/{id}', { token: a.admin.token, params: { id: 999 }, body: { name: 'Hijack' } });
    expect(res.status).toBe(404);
    expect((await getUser(b.companyId, target.id))?.name).not.toBe('Hijack');
  });
});

describe('deleting users', () => {
  it('deletes the record and the sign-in', async () => {
    const user = await a.addUser();
    const res = await call('DELETE /users/{id}', { token: a.admin.token, params: { id: user.id } });
    expect(res.status).toBe(204);
    expect(await getUser(a.companyId, user.id)).toBeUndefined();
    expect(await cognitoHas(user.email)).toBe(false);
  });

  it('refuses deleting yourself, a plain user deleting, and ids of another company', async () => {
    const plain = await a.addUser();
    expect((await call('DELETE /users/{id}', { token: a.admin.token, params: { id: a.admin.id } })).status).toBe(403);
    expect((await call('DELETE /users/{id}', { token: plain.token, params: { id: a.admin.id } })).status).toBe(403);
    expect((await call('DELETE /users/{id}', { token: a.admin.token, params: { id: 999 } })).body).toEqual({ error: 'ERR_NO_USER_FOUND' });
    expect(await getUser(a.companyId, a.admin.id)).toBeDefined();
  });

  it('answers a non-numeric id with 400', async () => {
    const res = await call('DELETE /users/{id}', { token: a.admin.token, params: { id: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('id');
  });
});
