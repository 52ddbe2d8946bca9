/**
 * Real users for tests: a Cognito user (in cognito-local) plus its record, signed in for an ID
 * token, so the framework's access checks run exactly as deployed. Needs startDynamoDbLocal() and
 * startCognitoLocal() first.
 */
import { AdminInitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { createCognitoUser } from '#adapters/cognito-users';
import { cognitoClient } from '../../src/commons/cognito.ts';
import { env } from '../../src/commons/env.ts';
import { type CompanyRecord, createCompany, getCompany } from '../../src/storage/companies/companies.ts';
import { createPlan, getPlan, type PlanRecord } from '../../src/storage/plans/plans.ts';
import { createUser, newUserId, type UserRecord } from '../../src/storage/users/users.ts';
import { companyFixture, planFixture, userFixture } from './fixtures.ts';

export const TEST_PASSWORD = 'Secret123';

export async function ensurePlan(overrides: Partial<PlanRecord> = {}): Promise<PlanRecord> {
  const id = overrides.id ?? 1;
  const existing = await getPlan(id);
  if (existing) return existing;
  // Tests create users in parallel: a concurrent ensurePlan may win the create.
  return createPlan(planFixture({ name: `Plan ${id}`, ...overrides, id })).catch(
    async (error) => (await getPlan(id)) ?? Promise.reject(error),
  );
}

export async function ensureCompany(overrides: Partial<CompanyRecord> = {}): Promise<CompanyRecord> {
  const id = overrides.id ?? 1;
  const existing = await getCompany(id);
  if (existing) return existing;
  await ensurePlan({ id: overrides.planId ?? 1 });
  return createCompany(companyFixture({ name: `Company ${id}`, email: `company${id}@example.com`, ...overrides, id })).catch(
    async (error) => (await getCompany(id)) ?? Promise.reject(error),
  );
}

export async function signIn(email: string, password = TEST_PASSWORD): Promise<{ idToken: string; refreshToken: string }> {
  const out = await cognitoClient().send(
    new AdminInitiateAuthCommand({
      UserPoolId: env.userPoolId,
      ClientId: env.userPoolClientId,
      AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const idToken = out.AuthenticationResult?.IdToken;
  const refreshToken = out.AuthenticationResult?.RefreshToken;
  if (!idToken || !refreshToken) throw new Error(`sign-in of ${email} returned no tokens`);
  return { idToken, refreshToken };
}

export interface TestUser {
  user: UserRecord;
  email: string;
  password: string;
  idToken: string;
  refreshToken: string;
}

/** A user of `companyId` (created with plan 1 if missing), signed in. */
export async function createTestUser(
  options: { companyId?: number; email?: string; profile?: UserRecord['profile']; super?: boolean; signIn?: boolean } = {},
): Promise<TestUser> {
  const companyId = options.companyId ?? 1;
  await ensureCompany({ id: companyId });
  const id = await newUserId(companyId);
  const email = (options.email ?? `u${companyId}-${id}-${Math.random().toString(36).slice(2, 8)}@example.com`).toLowerCase();
  const cognitoSub = await createCognitoUser({ email, password: TEST_PASSWORD, companyId, userId: id });
  const user = await createUser(
    userFixture({
      id,
      companyId,
      email,
      name: `User ${id}`,
      profile: options.profile ?? 'user',
      super: options.super ?? false,
      cognitoSub,
    }),
  );
  const tokens = options.signIn === false ? { idToken: '', refreshToken: '' } : await signIn(email);
  return { user, email, password: TEST_PASSWORD, ...tokens };
}
