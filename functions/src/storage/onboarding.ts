/**
 * The first day's checklist of a company (issue 25), one small item:
 *   pk = C#<companyId>   sk = ONBOARDING   { done: string set of step keys, dismissed, updatedAt }
 * `done` remembers each step the checklist has once seen done, so the probe behind it (a Query of
 * the tenant's queues, users...) never runs again for that step; once every step is in it (or the
 * checklist was dismissed), reading the checklist is this one GetItem.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OnboardingStepKey } from '#contracts/onboarding';
import { db, getItem, table } from './db.ts';
import { tenantPk } from './table.ts';

export interface OnboardingRecord {
  done: Set<OnboardingStepKey>;
  dismissed: boolean;
}

const ONBOARDING_SK = 'ONBOARDING';
const key = (companyId: number) => ({ pk: tenantPk(companyId), sk: ONBOARDING_SK });

export async function getOnboarding(companyId: number): Promise<OnboardingRecord> {
  const item = await getItem<{ done?: Set<OnboardingStepKey>; dismissed?: boolean }>(tenantPk(companyId), ONBOARDING_SK);
  return { done: new Set(item?.done ?? []), dismissed: item?.dismissed ?? false };
}

/** Adds `steps` to the ticked ones (a string set: ADD is idempotent, two readers ticking at once both win). */
export async function markOnboardingDone(companyId: number, steps: OnboardingStepKey[]): Promise<void> {
  if (!steps.length) return;
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: key(companyId),
      UpdateExpression: 'ADD #done :steps SET entity = :entity, updatedAt = :now',
      ExpressionAttributeNames: { '#done': 'done' },
      ExpressionAttributeValues: { ':steps': new Set(steps), ':entity': 'onboarding', ':now': new Date().toISOString() },
    }),
  );
}

export async function setOnboardingDismissed(companyId: number, dismissed: boolean): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: key(companyId),
      UpdateExpression: 'SET dismissed = :dismissed, entity = :entity, updatedAt = :now',
      ExpressionAttributeValues: { ':dismissed': dismissed, ':entity': 'onboarding', ':now': new Date().toISOString() },
    }),
  );
}
