/** Companies routes over real DynamoDB Local + cognito-local (and s3rver: deleting a company empties its media): signup, super-user admin, tenancy. */
import { AdminCreateUserCommand, AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIAL_DAYS } from '#contracts/companies';
import { defaultCompanySchedules } from '#contracts/schedules';
import { addDays, addMonths, todayIso } from '#domain/companies/due-date';
import { getCompany, listCompanies } from '#storage/companies/companies';
import { getSetting } from '#storage/settings';
import { getUserByEmail, listUsers } from '#storage/users/users';
import { type Env, startEnv } from './messages-harness.ts';
import { call, PASSWORD, type Stack, seedPlan, seedTenant, signIn, type Tenant, uniq } from './users-harness.ts';

let env: Env;
let stack: Stack;
let root: Tenant;
let a: Tenant;

beforeAll(async () => {
  env = await startEnv();
  stack = env.stack;
  root = await seedTenant(stack, { super: true });
  a = await seedTenant(stack);
}, 90_000);
afterAll(async () => {
  await env?.stop();
});

const signupBody = async (overrides: Record<string, unknown> = {}) => ({
  name: uniq('Acme '),
  ownerName: uniq('Maria Owner '),
  email: `${uniq('owner')}@acme.test`,
  phone: '(11) 98765-4321',
  password: PASSWORD,
  planId: (await seedPlan()).id,
  ...overrides,
});

const cognitoHas = async (email: string): Promise<boolean> =>
  stack.cognito.client
    .send(new AdminGetUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: email }))
    .then(() => true)
    .catch(() => false);

describe('POST /companies/cadastro', () => {
  it('creates a MENSAL trial company with its settings, schedules and a signed-in admin named as the owner, not the company', async () => {
    // Prepare
    const body = await signupBody();
    const due = addDays(todayIso(), TRIAL_DAYS);
    // Act
    const res = await call('POST /companies/cadastro', { body });
    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: body.name,
      email: body.email,
      phone: '11987654321',
      planId: body.planId,
      status: true,
      dueDate: due,
      trialExpiration: due,
      recurrence: 'MENSAL',
      campaignsEnabled: true,
    });
    const id = res.body.id as number;
    expect((await getCompany(id))?.schedules).toEqual(defaultCompanySchedules);
    expect(await getSetting(id, 'campaignsEnabled')).toBe('true');
    const admin = await getUserByEmail(body.email);
    // Issue 25: greetings, signatures and "Assigned to" show the admin's name: the person's, not the company's.
    expect(admin).toMatchObject({ companyId: id, profile: 'admin', super: false, name: body.ownerName });
    const token = await signIn(stack, body.email);
    const plan = await call('GET /companies/listPlan/{companyId}', { token, params: { companyId: id } });
    expect(plan.status).toBe(200);
    expect(plan.body.plan).toMatchObject({ id: body.planId, useCampaigns: true, useKanban: true, users: 0 });
  });

  it('refuses a taken e-mail with 409 and creates no company', async () => {
    const body = await signupBody({ email: a.admin.email });
    const res = await call('POST /companies/cadastro', { body });
    expect(res).toEqual({ status: 409, body: { error: 'ERR_EMAIL_ALREADY_EXISTS' } });
    expect((await listCompanies()).some((c) => c.name === body.name)).toBe(false);
  });

  it('refuses a taken company name with 409 and leaves no user behind', async () => {
    const first = await signupBody();
    expect((await call('POST /companies/cadastro', { body: first })).status).toBe(201);
    const second = await signupBody({ name: first.name.toUpperCase() });
    const res = await call('POST /companies/cadastro', { body: second });
    expect(res).toEqual({ status: 409, body: { error: 'ERR_COMPANY_NAME_EXISTS' } });
    expect(await getUserByEmail(second.email)).toBeUndefined();
    expect(await cognitoHas(second.email)).toBe(false);
  });

  it('refuses an unknown plan with 404 ERR_NO_PLAN_FOUND', async () => {
    const res = await call('POST /companies/cadastro', { body: await signupBody({ planId: 987_654 }) });
    expect(res).toEqual({ status: 404, body: { error: 'ERR_NO_PLAN_FOUND' } });
  });

  it('undoes the company, its settings and its name when the admin cannot be created', async () => {
    // Prepare: a sign-in with this e-mail exists only in Cognito, so the admin step fails late
    const body = await signupBody();
    await stack.cognito.client.send(
      new AdminCreateUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: body.email, MessageAction: 'SUPPRESS' }),
    );
    const before = (await listCompanies()).length;
    // Act
    const res = await call('POST /companies/cadastro', { body });
    // Assess
    expect(res).toEqual({ status: 409, body: { error: 'ERR_EMAIL_ALREADY_EXISTS' } });
    expect(await listCompanies()).toHaveLength(before);
    const retry = await call('POST /companies/cadastro', { body: { ...body, email: `${uniq('retry')}@acme.test` } });
    expect(retry.status).toBe(201);
    expect(retry.body.name).toBe(body.name);
  });
});

describe('company reads are tenant-scoped', () => {
  it("answers 404 for another company's plan and record, but lets a super user read any", async () => {
    expect(await call('GET /companies/listPlan/{companyId}', { token: a.admin.token, params: { companyId: root.companyId } })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_COMPANY_FOUND' },
    });
    expect((await call('GET /companies/{id}', { token: a.admin.token, params: { id: root.companyId } })).status).toBe(404);
    const own = await call('GET /companies/{id}', { token: a.admin.token, params: { id: a.companyId } });
    expect(own.status).toBe(200);
    expect(own.body.settings).toEqual(expect.arrayContaining([{ key: 'userRating', value: 'disabled' }]));
    expect(
      (await call('GET /companies/listPlan/{companyId}', { token: root.admin.token, params: { companyId: a.companyId } })).status,
    ).toBe(200);
  });

  it('refuses the company lists to a non-super admin', async () => {
    expect((await call('GET /companies', { token: a.admin.token })).status).toBe(403);
    expect((await call('GET /companies/list', { token: a.admin.token })).status).toBe(403);
  });
});

describe('super-user company admin', () => {
  it('lists every company with its plan name, and searches and pages', async () => {
    const list = await call('GET /companies/list', { token: root.admin.token });
    expect(list.status).toBe(200);
    expect(list.body.find((c: { id: number }) => c.id === a.companyId).plan.name).toBe(a.plan.name);
    const name = (await getCompany(a.companyId))?.name as string;
    const found = await call('GET /companies', { token: root.admin.token, query: { searchParam: name.toLowerCase(), pageNumber: '1' } });
    expect(found.body).toEqual({ companies: [expect.objectContaining({ id: a.companyId })], hasMore: false });
  });

  it('creates a company with its first admin, who can sign in', async () => {
    const plan = await seedPlan();
    const email = `${uniq('first')}@acme.test`;
    const res = await call('POST /companies', {
      token: root.admin.token,
      body: { name: uniq('Made '), email, planId: plan.id, password: PASSWORD, dueDate: '2031-05-31' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ dueDate: '2031-05-31', campaignsEnabled: false });
    expect(await getSetting(res.body.id, 'campaignsEnabled')).toBe('false');
    expect(await getUserByEmail(email)).toMatchObject({ companyId: res.body.id, profile: 'admin' });
    expect(await signIn(stack, email)).toEqual(expect.any(String));
  });

  it('updates only the fields sent, and extends the due date by the recurrence', async () => {
    // Prepare
    const made = await call('POST /companies', {
      token: root.admin.token,
      body: { name: uniq('Ext '), email: `${uniq('e')}@acme.test`, planId: a.plan.id, dueDate: '2030-01-31', recurrence: 'TRIMESTRAL' },
    });
    const id = made.body.id as number;
    // Act
    const extended = await call('PUT /companies/{id}', { token: root.admin.token, params: { id }, body: { extendDueDate: true } });
    const phoned = await call('PUT /companies/{id}', {
      token: root.admin.token,
      params: { id },
      body: { phone: '555', campaignsEnabled: true },
    });
    // Assess
    expect(extended.body.dueDate).toBe(addMonths('2030-01-31', 3));
    expect(phoned.body).toMatchObject({
      phone: '555',
      dueDate: '2030-04-30',
      recurrence: 'TRIMESTRAL',
      name: made.body.name,
      campaignsEnabled: true,
    });
    expect(await getSetting(id, 'campaignsEnabled')).toBe('true');
  });

  it('refuses a far-future or malformed due date with a 400 naming dueDate, on create and update, and stores nothing', async () => {
    // Prepare: '+275760-09-13' is the last day a JS Date holds (it was stored cut to '+275760-09'),
    // the others are no calendar day at all (they were stored as null: a company that never expires).
    const bad = ['+275760-09-13', '275760-09-13', '2024-13-45', '0000-00-00', '2023-02-29', 'tomorrow', '2031-05-31junk', 20310531];
    const made = await call('POST /companies', {
      token: root.admin.token,
      body: { name: uniq('Due '), email: `${uniq('d')}@acme.test`, planId: a.plan.id, dueDate: '2031-05-31' },
    });
    const id = made.body.id as number;
    for (const dueDate of bad) {
      // Act
      const name = uniq('Bad due ');
      const created = await call('POST /companies', {
        token: root.admin.token,
        body: { name, email: `${uniq('b')}@acme.test`, planId: a.plan.id, dueDate },
      });
      const updated = await call('PUT /companies/{id}', { token: root.admin.token, params: { id }, body: { dueDate } });
      // Assess
      expect(created, String(dueDate)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'dueDate' } });
      expect(updated, String(dueDate)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'dueDate' } });
      expect((await listCompanies()).some((company) => company.name === name)).toBe(false);
    }
    expect((await getCompany(id))?.dueDate).toBe('2031-05-31');
    // A real day, a timestamp (its day is kept), and no due date at all still work.
    const leap = await call('PUT /companies/{id}', { token: root.admin.token, params: { id }, body: { dueDate: '2032-02-29' } });
    expect(leap.body.dueDate).toBe('2032-02-29');
    const stamped = await call('PUT /companies/{id}', {
      token: root.admin.token,
      params: { id },
      body: { dueDate: '2033-01-02T00:00:00.000Z' },
    });
    expect(stamped.body.dueDate).toBe('2033-01-02');
    const cleared = await call('PUT /companies/{id}', { token: root.admin.token, params: { id }, body: { dueDate: null } });
    expect(cleared.body.dueDate).toBeNull();
    const empty = await call('PUT /companies/{id}', { token: root.admin.token, params: { id }, body: { dueDate: '' } });
    expect(empty.body.dueDate).toBeNull();
  });

  it('refuses an update to an unknown plan and keeps the company', async () => {
    const res = await call('PUT /companies/{id}', { token: root.admin.token, params: { id: a.companyId }, body: { planId: 424_242 } });
    expect(res.status).toBe(404);
    expect((await getCompany(a.companyId))?.planId).toBe(a.plan.id);
  });

  it("deletes a company with its users' sign-ins and settings, but never the caller's own", async () => {
    // Prepare
    const doomed = await seedTenant(stack);
    const colleague = await doomed.addUser();
    await call('PUT /settings/{key}', { token: doomed.admin.token, params: { key: 'userRating' }, body: { value: 'enabled' } });
    // Act
    const own = await call('DELETE /companies/{id}', { token: root.admin.token, params: { id: root.companyId } });
    const res = await call('DELETE /companies/{id}', { token: root.admin.token, params: { id: doomed.companyId } });
    // Assess
    expect(own.status).toBe(403);
    expect(res.status).toBe(204);
    expect(await getCompany(doomed.companyId)).toBeUndefined();
    expect(await listUsers(doomed.companyId)).toEqual([]);
    expect(await cognitoHas(colleague.email)).toBe(false);
    expect(await cognitoHas(doomed.admin.email)).toBe(false);
    const partition = await stack.ddb.client.send(
      new QueryCommand({
        TableName: stack.ddb.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: `C#${doomed.companyId}` } },
      }),
    );
    expect(partition.Count).toBe(0);
    expect((await call('GET /companies/{id}', { token: root.admin.token, params: { id: doomed.companyId } })).status).toBe(404);
  });
});

describe('PUT /companies/{id}/schedules', () => {
  const week = defaultCompanySchedules.map((day) => (day.weekdayEn === 'saturday' ? { ...day, endTime: '14:00' } : day));

  it("lets an admin set their own company's hours", async () => {
    const res = await call('PUT /companies/{id}/schedules', {
      token: a.admin.token,
      params: { id: a.companyId },
      body: { schedules: week },
    });
    expect(res.status).toBe(200);
    expect((await getCompany(a.companyId))?.schedules.find((d) => d.weekdayEn === 'saturday')?.endTime).toBe('14:00');
  });

  it('refuses another company (404), a plain user (403) and bad hours (400)', async () => {
    const plain = await a.addUser();
    expect((await call('PUT /companies/{id}/schedules', { token: a.admin.token, params: { id: root.companyId }, body: week })).status).toBe(
      404,
    );
    expect((await call('PUT /companies/{id}/schedules', { token: plain.token, params: { id: a.companyId }, body: week })).status).toBe(403);
    const bad = await call('PUT /companies/{id}/schedules', {
      token: a.admin.token,
      params: { id: a.companyId },
      body: [{ ...week[0], startTime: '25:00' }, ...week.slice(1)],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('schedules.0.startTime');
  });
});
