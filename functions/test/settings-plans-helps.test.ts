/** Settings, plans and helps routes over DynamoDB Local + cognito-local, through the handlers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingDefaults, settingKeys } from '#contracts/settings';
import { createCompany, newCompanyId } from '#storage/companies/companies';
import { getPlan } from '#storage/plans/plans';
import { companyFixture } from './support/fixtures.ts';
import { call, type Stack, seedPlan, seedTenant, startStack, type Tenant, uniq } from './users-harness.ts';

let stack: Stack;
let root: Tenant;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  stack = await startStack();
  root = await seedTenant(stack, { super: true });
  a = await seedTenant(stack);
  b = await seedTenant(stack);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

describe('settings', () => {
  it("lists every key with its default, the platform's payment key to super users only", async () => {
    const plain = await a.addUser();
    const asSuper = await call('GET /settings', { token: root.admin.token });
    const asAdmin = await call('GET /settings', { token: a.admin.token });
    const asUser = await call('GET /settings', { token: plain.token });
    expect(asSuper.body).toEqual(settingKeys.map((key) => ({ key, value: settingDefaults[key] })));
    // Issue 25: the Asaas key is the platform's account, not the tenant's; a company admin never sees it.
    expect(asAdmin.body).toEqual(settingKeys.filter((k) => k !== 'asaas').map((key) => ({ key, value: settingDefaults[key] })));
    expect(asUser.body.map((s: { key: string }) => s.key)).toEqual(settingKeys.filter((k) => k !== 'asaas'));
  });

  it("refuses the platform's payment key to a company admin, in writing and in the session user", async () => {
    const put = await call('PUT /settings/{key}', { token: a.admin.token, params: { key: 'asaas' }, body: { value: 'tok-tenant-1' } });
    expect(put).toEqual({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const me = await call('GET /auth/me', { token: a.admin.token });
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).not.toContain('"asaas"');
    // The super user still keeps the platform's key where it is managed.
    const superPut = await call('PUT /settings/{key}', {
      token: root.admin.token,
      params: { key: 'asaas' },
      body: { value: 'tok-platform-1' },
    });
    expect(superPut).toEqual({ status: 200, body: { key: 'asaas', value: 'tok-platform-1' } });
    expect((await call('GET /settings', { token: root.admin.token })).body).toContainEqual({ key: 'asaas', value: 'tok-platform-1' });
    expect(JSON.stringify((await call('GET /auth/me', { token: root.admin.token })).body)).toContain('tok-platform-1');
    expect(JSON.stringify((await call('GET /settings', { token: a.admin.token })).body)).not.toContain('tok-platform-1');
  });

  it("stores an admin's change for their company only", async () => {
    const res = await call('PUT /settings/{key}', { token: a.admin.token, params: { key: 'scheduleType' }, body: { value: 'company' } });
    expect(res).toEqual({ status: 200, body: { key: 'scheduleType', value: 'company' } });
    const mine = await call('GET /settings', { token: a.admin.token });
    const theirs = await call('GET /settings', { token: b.admin.token });
    expect(mine.body).toContainEqual({ key: 'scheduleType', value: 'company' });
    expect(theirs.body).toContainEqual({ key: 'scheduleType', value: 'disabled' });
  });

  it('answers an unknown key with 404, a bad value with 400 naming value, a plain user with 403', async () => {
    const plain = await a.addUser();
    expect(await call('PUT /settings/{key}', { token: a.admin.token, params: { key: 'nope' }, body: { value: 'x' } })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_SETTING_FOUND' },
    });
    const bad = await call('PUT /settings/{key}', { token: a.admin.token, params: { key: 'userRating' }, body: { value: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'value' });
    const missing = await call('PUT /settings/{key}', { token: a.admin.token, params: { key: 'userRating' }, body: {} });
    expect(missing.status).toBe(400);
    expect(
      (await call('PUT /settings/{key}', { token: plain.token, params: { key: 'userRating' }, body: { value: 'enabled' } })).status,
    ).toBe(403);
  });
});

describe('plans', () => {
  it('serves the public list without a token and without timestamps', async () => {
    const res = await call('GET /plans/list');
    expect(res.status).toBe(200);
    const listed = res.body.find((p: { id: number }) => p.id === a.plan.id);
    expect(listed).toEqual({
      id: a.plan.id,
      name: a.plan.name,
      users: 0,
      connections: 0,
      queues: 0,
      value: 0,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
  });

  it('keeps plan management to super users', async () => {
    expect((await call('GET /plans/all', { token: a.admin.token })).status).toBe(403);
    expect((await call('POST /plans', { token: a.admin.token, body: { name: 'Sneaky' } })).status).toBe(403);
    expect((await call('GET /plans/all', { token: root.admin.token })).status).toBe(200);
  });

  it('creates with the spec defaults, updates, refuses a duplicate name, and deletes an unused plan', async () => {
    const name = uniq('Gold ');
    const made = await call('POST /plans', { token: root.admin.token, body: { name, users: 5, value: 99.9 } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name, users: 5, connections: 0, queues: 0, value: 99.9, useKanban: true, useOpenAi: true });
    const id = made.body.id as number;
    const updated = await call('PUT /plans/{id}', { token: root.admin.token, params: { id }, body: { name, users: 7, useKanban: false } });
    expect(updated.body).toMatchObject({ id, users: 7, useKanban: false });
    expect((await call('POST /plans', { token: root.admin.token, body: { name: name.toUpperCase() } })).body).toEqual({
      error: 'ERR_PLAN_NAME_EXISTS',
    });
    expect((await call('POST /plans', { token: root.admin.token, body: { name: '' } })).body).toMatchObject({
      field: 'name',
      message: 'Required',
    });
    expect((await call('DELETE /plans/{id}', { token: root.admin.token, params: { id } })).status).toBe(204);
    expect(await call('GET /plans/{id}', { token: root.admin.token, params: { id } })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_PLAN_FOUND' },
    });
  });

  it('refuses to delete a plan a company uses (409) and keeps it', async () => {
    const plan = await seedPlan();
    await createCompany(companyFixture({ id: await newCompanyId(), name: uniq('User of plan '), planId: plan.id }));
    const res = await call('DELETE /plans/{id}', { token: root.admin.token, params: { id: plan.id } });
    expect(res).toEqual({ status: 409, body: { error: 'ERR_PLAN_IN_USE' } });
    expect(await getPlan(plan.id)).toBeDefined();
  });
});

describe('helps', () => {
  it('lets super users edit and everyone read', async () => {
    const plain = await a.addUser();
    const made = await call('POST /helps', {
      token: root.admin.token,
      body: { title: 'Primeiros passos', video: 'abc123', description: 'Intro' },
    });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    expect((await call('GET /helps/list', { token: plain.token })).body).toContainEqual(
      expect.objectContaining({ id, title: 'Primeiros passos', video: 'abc123' }),
    );
    const updated = await call('PUT /helps/{id}', { token: root.admin.token, params: { id }, body: { title: 'Conexões', video: 'xyz' } });
    expect(updated.body).toMatchObject({ id, title: 'Conexões', video: 'xyz', description: '' });
    expect((await call('GET /helps', { token: a.admin.token })).body).toContainEqual(expect.objectContaining({ id, title: 'Conexões' }));
    expect((await call('DELETE /helps/{id}', { token: root.admin.token, params: { id } })).status).toBe(204);
    expect((await call('DELETE /helps/{id}', { token: root.admin.token, params: { id } })).body).toEqual({ error: 'ERR_NO_HELP_FOUND' });
    expect((await call('PUT /helps/{id}', { token: root.admin.token, params: { id }, body: { title: 'Back' } })).status).toBe(404);
  });

  it('refuses admins and plain users on help edits, and a missing title', async () => {
    expect((await call('POST /helps', { token: a.admin.token, body: { title: 'x' } })).status).toBe(403);
    expect((await call('POST /helps', { token: root.admin.token, body: { video: 'x' } })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'title',
    });
  });
});
