/**
 * Plans (SPEC 3 "Plan"): super users manage them; the public list feeds the signup form. A plan in
 * use by a company cannot be deleted, so no company is ever left pointing at nothing.
 */

import { ConflictError, NotFoundError } from '#commons/errors';
import { type Plan, type PlanInput, type PublicPlan, planFlags } from '#contracts/plans';
import { changesOf, recordAudit } from '#domain/audit/record';
import * as companies from '#storage/companies/companies';
import * as plans from '#storage/plans/plans';

export function toPublicPlan(plan: Plan): PublicPlan {
  const flags = Object.fromEntries(planFlags.map((flag) => [flag, plan[flag]])) as Pick<Plan, (typeof planFlags)[number]>;
  return {
    id: plan.id,
    name: plan.name,
    users: plan.users,
    connections: plan.connections,
    queues: plan.queues,
    value: plan.value,
    ...flags,
  };
}

const byId = (a: Plan, b: Plan): number => a.id - b.id;

export async function listPublicPlans(): Promise<PublicPlan[]> {
  return (await plans.listPlans()).sort(byId).map(toPublicPlan);
}

export async function listAllPlans(): Promise<Plan[]> {
  return (await plans.listPlans()).sort(byId);
}

export async function getPlanById(id: number): Promise<Plan> {
  const plan = await plans.getPlan(id);
  if (!plan) throw new NotFoundError('ERR_NO_PLAN_FOUND');
  return plan;
}

export async function createPlan(input: PlanInput, now = new Date()): Promise<Plan> {
  const at = now.toISOString();
  const plan: Plan = { ...input, id: await plans.newPlanId(), createdAt: at, updatedAt: at };
  await plans.createPlan(plan);
  await recordAudit({ action: 'plan.create', targetType: 'plan', targetId: plan.id, changes: changesOf(null, { ...plan }) });
  return plan;
}

export async function updatePlan(id: number, input: PlanInput, now = new Date()): Promise<Plan> {
  const before = await getPlanById(id);
  const after = await plans.updatePlan(id, { ...input, updatedAt: now.toISOString() });
  await recordAudit({ action: 'plan.update', targetType: 'plan', targetId: id, changes: changesOf({ ...before }, { ...after }) });
  return after;
}

export async function deletePlan(id: number): Promise<void> {
  const before = await getPlanById(id);
  const inUse = (await companies.listCompanies()).some((company) => company.planId === id);
  if (inUse) throw new ConflictError('ERR_PLAN_IN_USE');
  await plans.deletePlan(id);
  await recordAudit({ action: 'plan.delete', targetType: 'plan', targetId: id, changes: changesOf({ ...before }, null, ['name']) });
}
