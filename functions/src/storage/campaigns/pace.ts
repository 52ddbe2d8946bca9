/**
 * The campaign engine's pace records (storage/campaigns/shipping.ts "pace"): one per connection, its
 * chain of tick messages (domain/campaigns/engine.ts).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, isConditionalCheckFailed, table } from '../db.ts';
import { type PaceRecord, paceKey, withNames } from './shipping.ts';

function toPace(item: Record<string, unknown>): PaceRecord {
  const set = item.campaigns as Set<number> | number[] | undefined;
  return {
    seq: Number(item.seq ?? 0),
    campaigns: [...(set ?? [])].map(Number).sort((a, b) => a - b),
    turn: Number(item.turn ?? 0),
    sinceLong: Number(item.sinceLong ?? 0),
    idle: item.idle !== false,
    targetAt: Number(item.targetAt ?? 0),
    lastBatch: item.lastBatch as PaceRecord['lastBatch'],
  };
}

export async function getPace(companyId: number, connectionId: number): Promise<PaceRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(paceKey(companyId, connectionId).pk, paceKey(companyId, connectionId).sk);
  return item ? toPace(item) : undefined;
}

/**
 * Adds a running campaign to its connection's chain and wakes the chain when it sleeps: returns the
 * seq of the tick to enqueue, or undefined when the chain is running (its next tick finds the campaign).
 */
export async function joinPace(companyId: number, connectionId: number, campaignId: number, nowMs: number): Promise<number | undefined> {
  const key = paceKey(companyId, connectionId);
  await db().send(
    new UpdateCommand(
      withNames({
        TableName: table(),
        Key: key,
        UpdateExpression: 'ADD #campaigns :id SET #idle = if_not_exists(#idle, :true), #seq = if_not_exists(#seq, :zero)',
        ExpressionAttributeValues: { ':id': new Set([campaignId]), ':true': true, ':zero': 0 },
      }),
    ),
  );
  try {
    const out = await db().send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: key,
          UpdateExpression: 'SET #idle = :false, #targetAt = :now, #sinceLong = :zero ADD #seq :one',
          ConditionExpression: '#idle = :true',
          ExpressionAttributeValues: { ':false': false, ':true': true, ':now': nowMs, ':zero': 0, ':one': 1 },
          ReturnValues: 'ALL_NEW' as const,
        }),
      ),
    );
    return Number(out.Attributes?.seq);
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/** The chain sleeps when no campaign runs on the connection any more (a start in between keeps it awake). */
export async function sleepPace(companyId: number, connectionId: number, seq: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: paceKey(companyId, connectionId),
          UpdateExpression: 'SET #idle = :true',
          ConditionExpression: '#seq = :seq AND attribute_not_exists(#campaigns)',
          ExpressionAttributeValues: { ':true': true, ':seq': seq },
        }),
      ),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Takes a campaign off the chain (cancelled, finished, walked to the end) as tick `seq`; false when the tick is stale. */
export async function leavePace(companyId: number, connectionId: number, campaignId: number, seq: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: paceKey(companyId, connectionId),
          UpdateExpression: 'DELETE #campaigns :id SET #seq = :next, #lastBatch = :batch',
          ConditionExpression: '#seq = :seq',
          ExpressionAttributeValues: {
            ':id': new Set([campaignId]),
            ':seq': seq,
            ':next': seq + 1,
            ':batch': { seq, campaignId, itemIds: [] },
          },
        }),
      ),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Drops a campaign from its connection's set without a tick (cancel): its next tick finds it gone. */
export async function dropFromPace(companyId: number, connectionId: number, campaignId: number): Promise<void> {
  await db()
    .send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: paceKey(companyId, connectionId),
          UpdateExpression: 'DELETE #campaigns :id',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':id': new Set([campaignId]) },
        }),
      ),
    )
    .catch((error: unknown) => {
      if (!isConditionalCheckFailed(error)) throw error;
    });
}
