/**
 * Companies (tenants): public signup, the super users' company admin, and what a company may read
 * of itself. A company of someone else is "not found" unless the caller is a super user.
 */

import { cognitoUsers } from '#adapters/cognito-lazy';
import { ConflictError, ForbiddenError, NotFoundError } from '#commons/errors';
import { channels } from '#contracts/channels';
import type { Company, CompanyInput, CompanyUpdateInput, SignupInput } from '#contracts/companies';
import type { Plan } from '#contracts/plans';
import type { ScheduleEntry } from '#contracts/schedules';
import { changesOf, recordAudit } from '#domain/audit/record';
import { deleteTenantMedia } from '#domain/media/bucket';
import { getCompanySetting, listCompanySettings } from '#domain/settings/settings';
import { byName, matchesSearch, pageOf } from '#domain/users/paging';
import type { Actor } from '#domain/users/permissions';
import * as companies from '#storage/companies/companies';
import { purgeTenantData } from '#storage/companies/tenant-data';
import * as plans from '#storage/plans/plans';
import { putSetting } from '#storage/settings';
import * as users from '#storage/users/users';
import { extendDueDate, todayIso, trialDueDate } from './due-date.ts';
import { toCompany } from './present.ts';
import { provisionCompany } from './provision.ts';
import { publishToCompany } from './publish.ts';

async function requirePlan(planId: number): Promise<Plan> {
  const plan = await plans.getPlan(planId);
  if (!plan) throw new NotFoundError('ERR_NO_PLAN_FOUND');
  return plan;
}

async function requireCompany(id: number): Promise<companies.CompanyRecord> {
  const company = await companies.getCompany(id);
  if (!company) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
  return company;
}

/** Own company, or any company for a super user; anything else is not found (never revealed). */
async function visibleCompany(actor: Actor, id: number): Promise<companies.CompanyRecord> {
  if (!actor.super && actor.companyId !== id) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
  return requireCompany(id);
}

async function assertEmailFree(email: string): Promise<void> {
  if (await users.getUserByEmail(email)) throw new ConflictError('ERR_EMAIL_ALREADY_EXISTS');
}

const campaignsOn = async (companyId: number): Promise<boolean> => (await getCompanySetting(companyId, 'campaignsEnabled')) === 'true';

/** POST /companies/cadastro: a MENSAL trial of TRIAL_DAYS with its admin, named as the owner and mailed as the company. */
export async function signup(input: SignupInput, now = new Date()): Promise<Company> {
  const plan = await requirePlan(input.planId);
  await assertEmailFree(input.email);
  const dueDate = trialDueDate(todayIso(now));
  const record = await provisionCompany(
    {
      name: input.name,
      email: input.email,
      phone: input.phone,
      planId: plan.id,
      status: true,
      dueDate,
      trialExpiration: dueDate,
      recurrence: 'MENSAL',
      campaignsEnabled: true,
      addressZipCode: '',
      addressStreet: '',
      addressState: '',
      addressCity: '',
      addressDistrict: '',
    },
    { name: input.ownerName, email: input.email, password: input.password },
    now,
  );
  // The new company's trail starts with its own sign-up (a public route: nobody signed in did it).
  await recordAudit({
    companyId: record.id,
    userId: null,
    userName: input.ownerName,
    action: 'company.create',
    targetType: 'company',
    targetId: record.id,
    changes: changesOf(null, { name: record.name, email: record.email, planId: record.planId, dueDate: record.dueDate }),
  });
  return toCompany(record, plan, true);
}

async function withPlans(records: companies.CompanyRecord[]): Promise<Company[]> {
  const planById = new Map((await plans.listPlans()).map((plan) => [plan.id, plan]));
  return Promise.all(records.map(async (record) => toCompany(record, planById.get(record.planId), await campaignsOn(record.id))));
}

/** GET /companies/list: every company with its plan (super users). */
export async function listAllCompanies(): Promise<Company[]> {
  return withPlans((await companies.listCompanies()).sort(byName));
}

/** GET /companies: searchable, paged (super users). */
export async function listCompaniesPage(query: {
  searchParam: string;
  pageNumber: number;
}): Promise<{ companies: Company[]; hasMore: boolean }> {
  const matching = (await companies.listCompanies())
    .filter((c) => matchesSearch(query.searchParam, [c.name, c.email, c.phone]))
    .sort(byName);
  const page = pageOf(matching, query.pageNumber);
  return { companies: await withPlans(page.items), hasMore: page.hasMore };
}

export async function getCompanyFor(actor: Actor, id: number): Promise<Company> {
  const record = await visibleCompany(actor, id);
  const [plan, settings] = await Promise.all([plans.getPlan(record.planId), listCompanySettings(id)]);
  return {
    ...toCompany(
      record,
      plan,
      settings.some((s) => s.key === 'campaignsEnabled' && s.value === 'true'),
    ),
    settings,
  };
}

/** GET /companies/listPlan/{companyId}: the company with its whole plan (limits and use* flags). */
export async function getCompanyPlanFor(actor: Actor, id: number): Promise<Company & { plan: Plan }> {
  const record = await visibleCompany(actor, id);
  const plan = await requirePlan(record.planId);
  return { ...toCompany(record, plan, await campaignsOn(id)), plan };
}

/** POST /companies (super): with `password`, the company's first admin is created too. */
export async function createCompanyBySuper(input: CompanyInput, now = new Date()): Promise<Company> {
  const plan = await requirePlan(input.planId);
  const { password, extendDueDate: _ignored, ...fields } = input;
  if (password) await assertEmailFree(input.email);
  const record = await provisionCompany(fields, password ? { name: input.name, email: input.email, password } : undefined, now);
  await recordAudit({
    action: 'company.create',
    targetType: 'company',
    targetId: record.id,
    changes: changesOf(null, { ...fields, password }),
  });
  return toCompany(record, plan, input.campaignsEnabled);
}

/** PUT /companies/{id} (super): only the fields sent change; `extendDueDate` adds one recurrence period. */
export async function updateCompanyBySuper(id: number, input: CompanyUpdateInput, now = new Date()): Promise<Company> {
  const current = await requireCompany(id);
  const { extendDueDate: extend, campaignsEnabled, ...patch } = input;
  const plan = await requirePlan(patch.planId ?? current.planId);
  const recurrence = patch.recurrence ?? current.recurrence;
  if (extend) patch.dueDate = extendDueDate(patch.dueDate === undefined ? current.dueDate : patch.dueDate, recurrence, todayIso(now));

  const updated = await companies.updateCompany(id, {
    ...patch,
    ...(campaignsEnabled === undefined ? {} : { campaignsEnabled }),
    updatedAt: now.toISOString(),
  });
  if (campaignsEnabled !== undefined) await putSetting(id, 'campaignsEnabled', String(campaignsEnabled));
  await recordAudit({ action: 'company.update', targetType: 'company', targetId: id, changes: changesOf({ ...current }, { ...updated }) });
  const company = toCompany(updated, plan, campaignsEnabled ?? (await campaignsOn(id)));
  await publishToCompany(id, channels.company(id), { action: 'update', company });
  return company;
}

/**
 * DELETE /companies/{id} (super): its users leave Cognito first, so no login outlives the company;
 * then every item of the tenant (every partition under C#<id>, the audit trail and invoices
 * included: nothing in the spec asks to keep them) and every object under `<id>/` (media, export
 * zips). The company record goes last, so a retry after a crash half way finds it and finishes.
 */
export async function deleteCompanyBySuper(actor: Actor, id: number): Promise<void> {
  if (id === actor.companyId) throw new ForbiddenError('ERR_NO_PERMISSION');
  const current = await requireCompany(id);
  const { deleteCognitoUser } = await cognitoUsers();
  for (const user of await users.listUsers(id)) {
    await deleteCognitoUser(user.email);
    await users.deleteUser(id, user.id);
  }
  await purgeTenantData(id);
  await deleteTenantMedia(id);
  await companies.deleteCompany(id);
  await recordAudit({
    action: 'company.delete',
    targetType: 'company',
    targetId: id,
    changes: changesOf({ ...current }, null, ['name', 'email']),
  });
}

/** PUT /companies/{id}/schedules: an admin sets their own company's opening hours. */
export async function updateCompanySchedules(actor: Actor, id: number, schedules: ScheduleEntry[], now = new Date()): Promise<Company> {
  if (actor.companyId !== id) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
  const before = await requireCompany(id);
  const updated = await companies.updateCompany(id, { schedules, updatedAt: now.toISOString() });
  await recordAudit({
    action: 'company.update',
    targetType: 'company',
    targetId: id,
    changes: changesOf({ ...before }, { ...updated }, ['schedules']),
  });
  const company = toCompany(updated, await plans.getPlan(updated.planId), await campaignsOn(id));
  await publishToCompany(id, channels.company(id), { action: 'update', company });
  return company;
}
