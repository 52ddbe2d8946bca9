/**
 * Plans (platform-wide, edited by super users).
 *   plan record   pk = PLATFORM                         sk = PLAN#<padded id>
 *   name guard    pk = PLATFORM#PLAN_NAME#<lower name>  sk = GUARD   { planId }
 * Listing is one query on the PLATFORM partition; plans are few.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import type { Plan } from '#contracts/plans';
import {
  db,
  getItem,
  isConditionalCheckFailed,
  nextId,
  queryAll,
  stripKeys,
  table,
  transactionCancellationCodes,
  updateExpression,
} from './db.ts';
import { PLATFORM_PK, pad } from './table.ts';

export type PlanRecord = Plan;
export type PlanPatch = Partial<Omit<PlanRecord, 'id' | 'createdAt'>>;

const planKey = (id: number) => ({ pk: PLATFORM_PK, sk: `PLAN#${pad(id)}` });
const nameGuardKey = (name: string) => ({ pk: `${PLATFORM_PK}#PLAN_NAME#${name.trim().toLowerCase()}`, sk: 'GUARD' });

export const newPlanId = (): Promise<number> => nextId(PLATFORM_PK, 'PLAN');

export const getPlan = (id: number): Promise<PlanRecord | undefined> => getItem<PlanRecord>(PLATFORM_PK, `PLAN#${pad(id)}`);

export function listPlans(): Promise<PlanRecord[]> {
  return queryAll<PlanRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': PLATFORM_PK, ':prefix': 'PLAN#' },
    ConsistentRead: true,
  });
}

export async function createPlan(record: PlanRecord): Promise<PlanRecord> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: { ...planKey(record.id), entity: 'plan', ...record },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: table(),
              Item: { ...nameGuardKey(record.name), entity: 'planNameGuard', planId: record.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (transactionCancellationCodes(error)?.[1] === 'ConditionalCheckFailed') throw new ConflictError('ERR_PLAN_NAME_EXISTS');
    throw error;
  }
  return record;
}

export async function updatePlan(id: number, patch: PlanPatch): Promise<PlanRecord> {
  const current = await getPlan(id);
  if (!current) throw new NotFoundError('ERR_NO_PLAN_FOUND');
  const changes = { ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() };
  const update = updateExpression(changes);
  const renamed = patch.name !== undefined && patch.name.trim().toLowerCase() !== current.name.trim().toLowerCase();

  if (!renamed) {
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: planKey(id),
          ...update,
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<PlanRecord>(out.Attributes ?? {});
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NO_PLAN_FOUND');
      throw error;
    }
  }

  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: planKey(id),
              ...update,
              ConditionExpression: 'attribute_exists(pk) AND #oldName = :oldName',
              ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#oldName': 'name' },
              ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':oldName': current.name },
            },
          },
          { Delete: { TableName: table(), Key: nameGuardKey(current.name) } },
          {
            Put: {
              TableName: table(),
              Item: { ...nameGuardKey(patch.name as string), entity: 'planNameGuard', planId: id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (codes?.[2] === 'ConditionalCheckFailed') throw new ConflictError('ERR_PLAN_NAME_EXISTS');
    if (codes?.[0] === 'ConditionalCheckFailed') throw new NotFoundError('ERR_NO_PLAN_FOUND');
    throw error;
  }
  return { ...current, ...(Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as PlanPatch) };
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
}
