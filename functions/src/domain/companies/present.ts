/** API shapes of a company: the record joined with its plan (and, for one company, its settings). */
import type { Company } from '#contracts/companies';
import { type Plan, planFlags } from '#contracts/plans';
import type { CompanyRecord } from '#storage/companies/companies';

export type CompanyPlanSummary = NonNullable<Company['plan']>;

export function planSummary(plan: Plan): CompanyPlanSummary {
  const flags = Object.fromEntries(planFlags.map((flag) => [flag, plan[flag]])) as Pick<Plan, (typeof planFlags)[number]>;
  return { id: plan.id, name: plan.name, ...flags };
}

export function toCompany(record: CompanyRecord, plan: Plan | undefined, campaignsEnabled: boolean): Company {
  const { listShards: _platformOnly, routingSwitchedOnAt: _sweepsOnly, ...company } = record;
  return { ...company, campaignsEnabled, ...(plan ? { plan: planSummary(plan) } : {}) };
}
