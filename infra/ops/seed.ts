/**
 * First-start data for a fresh stack: plan 1, company 1 and a super admin who can create the rest.
 * Idempotent and safe to re-run after a partial failure: each piece is looked up before it is made,
 * and a Cognito user left over from an interrupted run is adopted instead of failing.
 *
 * An operator's tool, not request-serving code: the local stack runs it on first start, and
 * `npm run bootstrap-region` runs it once against a deployed region's table and user pool. No Lambda
 * bundles it.
 */

import { createCognitoUser, getCognitoSub, setCognitoPassword, setCognitoTenant } from '@conversa/functions/adapters/cognito-users';
import { defaultCompanySchedules } from '@conversa/functions/contracts/schedules';
import { settingDefaults, settingKeys } from '@conversa/functions/contracts/settings';
import { createCompany, getCompany, listCompanies, newCompanyId } from '@conversa/functions/storage/companies/companies';
import { createPlan, getPlan, listPlans, newPlanId, type PlanRecord } from '@conversa/functions/storage/plans/plans';
import { putSetting } from '@conversa/functions/storage/settings';
import { createUser, getUserByEmail, newUserId } from '@conversa/functions/storage/users/users';

export interface SeedInput {
  adminEmail: string;
  adminPassword: string;
  companyName?: string;
  /** An admin that exists already gets `adminPassword` too (the local start lost the old one). */
  resetPassword?: boolean;
}

export interface SeedResult {
  created: boolean;
  companyId: number;
  userId: number;
}

const SEED_PLAN_NAME = 'Plano 1';

async function ensurePlan(now: string): Promise<PlanRecord> {
  const existing = (await getPlan(1)) ?? (await listPlans()).find((plan) => plan.name === SEED_PLAN_NAME);
  if (existing) return existing;
  return createPlan({
    id: await newPlanId(),
    name: SEED_PLAN_NAME,
    users: 50,
    connections: 10,
    queues: 50,
    campaigns: 0,
    schedules: 0,
    value: 0,
    useCampaigns: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    createdAt: now,
    updatedAt: now,
  });
}

async function ensureCompany(name: string, email: string, planId: number, now: string): Promise<number> {
  const existing = (await getCompany(1)) ?? (await listCompanies()).find((company) => company.name === name);
  if (existing) return existing.id;
  const id = await newCompanyId();
  await createCompany({
    id,
    name,
    email,
    phone: '',
    planId,
    status: true,
    dueDate: null,
    trialExpiration: null,
    recurrence: 'MENSAL',
    campaignsEnabled: true,
    addressZipCode: '',
    addressStreet: '',
    addressState: '',
    addressCity: '',
    addressDistrict: '',
    schedules: defaultCompanySchedules,
    createdAt: now,
    updatedAt: now,
  });
  for (const key of settingKeys) await putSetting(id, key, settingDefaults[key]);
  return id;
}

export async function seedPlatform(input: SeedInput): Promise<SeedResult> {
  const email = input.adminEmail.trim().toLowerCase();
  const existingUser = await getUserByEmail(email);
  if (existingUser) {
    if (input.resetPassword) await setCognitoPassword(email, input.adminPassword);
    return { created: false, companyId: existingUser.companyId, userId: existingUser.id };
  }

  const now = new Date().toISOString();
  const plan = await ensurePlan(now);
  const companyId = await ensureCompany(input.companyName ?? 'Empresa 1', email, plan.id, now);
  const userId = await newUserId(companyId);

  let cognitoSub = await getCognitoSub(email);
  if (cognitoSub) {
    await setCognitoTenant(email, companyId, userId);
    await setCognitoPassword(email, input.adminPassword);
  } else {
    cognitoSub = await createCognitoUser({ email, password: input.adminPassword, companyId, userId });
  }

  await createUser({
    id: userId,
    companyId,
    name: 'Admin',
    email,
    profile: 'admin',
    super: true,
    allTicket: 'enabled',
    whatsappId: null,
    queueIds: [],
    online: false,
    cognitoSub,
    sessionIat: 0,
    createdAt: now,
    updatedAt: now,
  });
  return { created: true, companyId, userId };
}
