/**
 * Plans (platform-wide, edited by super users).
 *   plan record   pk = PLATFORM                         sk = PLAN#<padded id>
 *   name guard    pk = PLATFORM#PLAN_NAME#<lower name>  sk = GUARD   { planId }
 * Listing is one query on the PLATFORM partition; plans are few.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import type { Plan } from '#contracts/plans';
import { db, getItem, nextId, queryAll, table } from '../db.ts';
import { REFERENCE_TTL_MS, readCache } from '../read-cache.ts';
import { PLATFORM_PK, pad } from '../table.ts';
import { putGuarded, type UniqueGuard, updateGuarded } from '../unique-guard.ts';

export type PlanRecord = Plan;
export type PlanPatch = Partial<Omit<PlanRecord, 'id' | 'createdAt'>>;

const planKey = (id: number) => ({ pk: PLATFORM_PK, sk: `PLAN#${pad(id)}` });
const nameGuardKey = (name: string) => ({ pk: `${PLATFORM_PK}#PLAN_NAME#${name.trim().toLowerCase()}`, sk: 'GUARD' });

export const newPlanId = (): Promise<number> => nextId(PLATFORM_PK, 'PLAN');

export const getPlan = (id: number): Promise<PlanRecord | undefined> => getItem<PlanRecord>(PLATFORM_PK, `PLAN#${pad(id)}`);

const planCache = readCache(getPlan, { ttlMs: REFERENCE_TTL_MS });

/**
 * getPlan through this container's read cache (read-cache.ts): every request's feature flags, up
 * to 5 s stale after a super user's edit made in another container.
 */
export const getPlanCached = (id: number): Promise<PlanRecord | undefined> => planCache.get(id);

export function listPlans(): Promise<PlanRecord[]> {
  return queryAll<PlanRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': PLATFORM_PK, ':prefix': 'PLAN#' },
    ConsistentRead: true,
  });
}

const nameGuard = (planId: number): UniqueGuard<PlanRecord> => ({
  field: 'name',
  keyOf: nameGuardKey,
  item: { entity: 'planNameGuard', planId },
  conflict: () => new ConflictError('ERR_PLAN_NAME_EXISTS'),
});

export async function createPlan(record: PlanRecord): Promise<PlanRecord> {
  await putGuarded({ item: { ...planKey(record.id), entity: 'plan', ...record }, guards: [nameGuard(record.id)] });
  planCache.forget(record.id);
  return record;
}

export async function updatePlan(id: number, patch: PlanPatch): Promise<PlanRecord> {
  const current = await getPlan(id);
  if (!current) throw new NotFoundError('ERR_NO_PLAN_FOUND');
  const updated = await updateGuarded({
    key: planKey(id),
    current,
    changes: { ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() },
    guards: [nameGuard(id)],
    notFound: () => new NotFoundError('ERR_NO_PLAN_FOUND'),
  });
  planCache.forget(id);
  return updated;
}

/** Whether companies still use the plan is the caller's rule (ERR_PLAN_IN_USE); this only removes it. */
export async function deletePlan(id: number): Promise<void> {
  const current = await getPlan(id);
  if (!current) throw new NotFoundError('ERR_NO_PLAN_FOUND');
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table(), Key: planKey(id) } },
        { Delete: { TableName: table(), Key: nameGuardKey(current.name) } },
      ],
    }),
  );
  planCache.forget(id);
}
