import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import {
  createCompany,
  deleteCompany,
  getCompany,
  listCompanies,
  newCompanyId,
  updateCompany,
} from '../src/storage/companies/companies.ts';
import { table } from '../src/storage/db.ts';
import { createPlan, getPlan, listPlans, newPlanId, updatePlan } from '../src/storage/plans/plans.ts';
import { getSetting, listSettings, putSetting } from '../src/storage/settings.ts';
import { pad } from '../src/storage/table.ts';
import {
  claimSession,
  countUsers,
  createUser,
  deleteUser,
  ENDED_ORIGINS_KEPT,
  getUser,
  getUserByEmail,
  listUserNamesCached,
  listUsers,
  newUserId,
  updateUser,
} from '../src/storage/users/users.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { companyFixture, planFixture, userFixture } from './support/fixtures.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

describe('companies', () => {
  it('creates, lists, renames and deletes a company, keeping names unique', async () => {
    // Prepare
    const id = await newCompanyId();
    const other = await newCompanyId();
    await createCompany(companyFixture({ id, name: 'Acme' }));
    await createCompany(companyFixture({ id: other, name: 'Globex' }));

    // Act + Assess: a duplicate name (any case) is a 409, and nothing half-written remains
    const duplicate = await newCompanyId();
    await expect(createCompany(companyFixture({ id: duplicate, name: ' acme ' }))).rejects.toMatchObject({
      code: 'ERR_COMPANY_NAME_EXISTS',
      status: 409,
    });
    expect(await getCompany(duplicate)).toBeUndefined();

    expect((await listCompanies()).map((c) => c.name).sort()).toEqual(['Acme', 'Globex']);

    await expect(updateCompany(id, { name: 'Globex' })).rejects.toMatchObject({ code: 'ERR_COMPANY_NAME_EXISTS' });
    expect((await getCompany(id))?.name).toBe('Acme');

    const renamed = await updateCompany(id, { name: 'Acme Two', dueDate: '2030-01-01' });
    expect(renamed).toMatchObject({ id, name: 'Acme Two', dueDate: '2030-01-01' });
    // The old name is free again, the new one taken
    const reuse = await newCompanyId();
    await createCompany(companyFixture({ id: reuse, name: 'Acme' }));
    await expect(createCompany(companyFixture({ id: await newCompanyId(), name: 'ACME TWO' }))).rejects.toMatchObject({
      code: 'ERR_COMPANY_NAME_EXISTS',
    });

    await deleteCompany(id);
    expect(await getCompany(id)).toBeUndefined();
    await createCompany(companyFixture({ id: await newCompanyId(), name: 'Acme Two' }));
    await expect(updateCompany(999_999, { name: 'x' })).rejects.toMatchObject({ code: 'ERR_NO_COMPANY_FOUND', status: 404 });
  });
});

describe('plans', () => {
  it('creates with unique names and updates', async () => {
    const id = await newPlanId();
    await createPlan(planFixture({ id, name: 'Basic' }));
    await expect(createPlan(planFixture({ id: await newPlanId(), name: 'basic' }))).rejects.toMatchObject({ code: 'ERR_PLAN_NAME_EXISTS' });
    const updated = await updatePlan(id, { users: 5, useKanban: false });
    expect(updated).toMatchObject({ id, users: 5, useKanban: false, useCampaigns: true });
    expect(await getPlan(id)).toMatchObject({ users: 5 });
    expect((await listPlans()).map((p) => p.name)).toContain('Basic');
    await expect(updatePlan(424242, { users: 1 })).rejects.toMatchObject({ code: 'ERR_NO_PLAN_FOUND' });
  });
});

describe('users', () => {
  it('keeps emails unique platform-wide and finds users by email', async () => {
    // Prepare: two tenants
    const a = await newUserId(10);
    await createUser(userFixture({ companyId: 10, id: a, email: 'Joe@Example.com' }));

    // Act + Assess
    await expect(createUser(userFixture({ companyId: 11, id: await newUserId(11), email: 'joe@example.com' }))).rejects.toMatchObject({
      code: 'ERR_EMAIL_ALREADY_EXISTS',
    });
    expect(await countUsers(11)).toBe(0);
    expect(await getUserByEmail('JOE@example.com')).toMatchObject({ companyId: 10, id: a, email: 'joe@example.com' });
    expect(await getUser(11, a)).toBeUndefined();
  });

  it('moves the email guard on change and frees it on delete', async () => {
    const id = await newUserId(20);
    await createUser(userFixture({ companyId: 20, id, email: 'old@example.com' }));
    const other = await newUserId(20);
    await createUser(userFixture({ companyId: 20, id: other, email: 'taken@example.com' }));

    await expect(updateUser(20, id, { email: 'taken@example.com' })).rejects.toMatchObject({ code: 'ERR_EMAIL_ALREADY_EXISTS' });
    const moved = await updateUser(20, id, { email: 'new@example.com', name: 'Renamed', profile: undefined });
    expect(moved).toMatchObject({ email: 'new@example.com', name: 'Renamed', profile: 'admin' });
    expect(await getUserByEmail('old@example.com')).toBeUndefined();
    expect((await getUserByEmail('new@example.com'))?.id).toBe(id);
    expect((await listUsers(20)).map((u) => u.id)).toEqual([id, other]);
    expect(await countUsers(20)).toBe(2);

    await deleteUser(20, id);
    expect(await getUserByEmail('new@example.com')).toBeUndefined();
    await createUser(userFixture({ companyId: 21, id: 1, email: 'new@example.com' }));
    await expect(deleteUser(20, id)).rejects.toMatchObject({ code: 'ERR_NO_USER_FOUND' });
  });

  it('keeps the cached attendant names through presence updates and drops them on a rename', async () => {
    const id = await newUserId(40);
    await createUser(userFixture({ companyId: 40, id, email: 'names@example.com', name: 'Ana' }));
    expect(await listUserNamesCached(40)).toEqual([{ id, name: 'Ana' }]);
    // A write around the storage module: only a re-read would see it.
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: 'C#40', sk: `USER#${pad(id)}` },
        UpdateExpression: 'SET #name = :name',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': 'Written around' },
      }),
    );
    await updateUser(40, id, { online: true });
    expect(await listUserNamesCached(40)).toEqual([{ id, name: 'Ana' }]);
    await updateUser(40, id, { name: 'Ana Maria' });
    expect(await listUserNamesCached(40)).toEqual([{ id, name: 'Ana Maria' }]);
  });

  it('claims the session only forwards in time and returns the token to revoke', async () => {
    const id = await newUserId(30);
    await createUser(userFixture({ companyId: 30, id, email: 'session@example.com' }));
    expect(await claimSession(30, id, { sessionIat: 100, refreshToken: 'rt-1' })).toEqual({ previousRefreshToken: null });
    expect(await claimSession(30, id, { sessionIat: 200, refreshToken: 'rt-2' })).toEqual({ previousRefreshToken: 'rt-1' });
    expect(await claimSession(30, id, { sessionIat: 150, refreshToken: 'rt-old' })).toBe(false);
    expect(await getUser(30, id)).toMatchObject({ sessionIat: 200, sessionRefreshToken: 'rt-2' });
  });

  it('never lets an ended or replaced sign-in claim again, even within its own second', async () => {
    const id = await newUserId(30);
    await createUser(userFixture({ companyId: 30, id, email: 'ended-session@example.com' }));
    expect(await claimSession(30, id, { sessionIat: 100, refreshToken: 'rt-a', sessionOrigin: 'sign-in-a' })).toBeTruthy();
    // A logout at second 100 (what endSession stores), with the caller's own sign-in named too
    const end = { sessionIat: 100, refreshToken: null, sessionJti: 'session-ended', sessionOrigin: 'session-ended' };
    expect(await claimSession(30, id, { ...end, ended: ['sign-in-a'] })).toBeTruthy();
    // The ended sign-in's token of that same second is refused; a new sign-in of that second is not
    expect(await claimSession(30, id, { sessionIat: 100, refreshToken: 'rt-a', sessionOrigin: 'sign-in-a' })).toBe(false);
    expect(await claimSession(30, id, { sessionIat: 100, refreshToken: 'rt-b', sessionOrigin: 'sign-in-b' })).toBeTruthy();
    // A newer sign-in in the same second replaces b: b cannot take the session back
    expect(await claimSession(30, id, { sessionIat: 100, refreshToken: 'rt-c', sessionOrigin: 'sign-in-c' })).toBeTruthy();
    expect(await claimSession(30, id, { sessionIat: 101, refreshToken: 'rt-b', sessionOrigin: 'sign-in-b' })).toBe(false);
    // c re-claiming its own session (a reload) still works
    expect(await claimSession(30, id, { sessionIat: 101, refreshToken: 'rt-c', sessionOrigin: 'sign-in-c' })).toBeTruthy();
    expect(await getUser(30, id)).toMatchObject({ sessionOrigin: 'sign-in-c', endedOrigins: ['sign-in-a', 'sign-in-b'] });
  });

  it('remembers a bounded number of ended sign-ins', async () => {
    const id = await newUserId(30);
    await createUser(userFixture({ companyId: 30, id, email: 'many-sessions@example.com' }));
    for (let n = 0; n <= ENDED_ORIGINS_KEPT + 5; n += 1)
      await claimSession(30, id, { sessionIat: n, refreshToken: null, sessionOrigin: `s-${n}` });
    const { endedOrigins } = (await getUser(30, id)) ?? {};
    expect(endedOrigins).toHaveLength(ENDED_ORIGINS_KEPT);
    expect(endedOrigins?.at(-1)).toBe(`s-${ENDED_ORIGINS_KEPT + 4}`);
  });
});

describe('settings', () => {
  it('lists every key with defaults and stores values per tenant', async () => {
    await putSetting(40, 'userRating', 'enabled');
    const settings = await listSettings(40);
    expect(settings.find((s) => s.key === 'userRating')?.value).toBe('enabled');
    expect(settings.find((s) => s.key === 'call')?.value).toBe('enabled');
    expect(await getSetting(41, 'userRating')).toBe('disabled');
    expect(await getSetting(40, 'userRating')).toBe('enabled');
  });
});
