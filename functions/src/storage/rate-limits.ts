/**
 * Request and attempt counters: per tenant, the external API's per-token limit and the inbound
 * message rate that decides the tenant's list shards; for the platform, the guards against guessing
 * (wrong passwords, reset codes and API tokens per account and per client address, which belong to
 * no tenant yet).
 *
 *   tenant window     pk = C#<cid>#RATE#<scope>       sk = W#<window start, epoch s>   { count, expiresAt }
 *   platform window   pk = PLATFORM#RATE#<scope>      sk = W#<window start, epoch s>   { count, expiresAt }
 *
 * One atomic ADD per request (per batch of events: addToWindow); window items expire through the
 * table's TTL a window after they end (TTL deletes lazily, so the window start in the key, not the
 * TTL, decides which counter counts). A reset code's own tries live on the code (users/reset-codes.ts).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, isConditionalCheckFailed, table } from './db.ts';
import { PLATFORM_PK, tenantPk } from './table.ts';

export interface WindowHit {
  /** Requests counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends. */
  resetInSeconds: number;
  /** The counter's key, so a caller can take the hit back (refundWindow). */
  key: { pk: string; sk: string };
}

async function hit(pk: string, windowSeconds: number, nowMs: number, by = 1): Promise<WindowHit> {
  const now = Math.floor(nowMs / 1000);
  const start = now - (now % windowSeconds);
  const end = start + windowSeconds;
  const key = { pk, sk: `W#${start}` };
  const out = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: key,
      UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :expires), entity = :entity',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': by, ':expires': end + windowSeconds, ':entity': 'rateWindow' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return { count: Number(out.Attributes?.count ?? by), resetInSeconds: Math.max(1, end - now), key };
}

export function hitWindow(companyId: number, scope: string, windowSeconds: number, nowMs = Date.now()): Promise<WindowHit> {
  return hit(`${tenantPk(companyId)}#RATE#${scope}`, windowSeconds, nowMs);
}

/** Adds `count` events at once to the tenant's window (a batch's worth): the window's total after it. */
export function addToWindow(
  companyId: number,
  scope: string,
  count: number,
  windowSeconds: number,
  nowMs = Date.now(),
): Promise<WindowHit> {
  return hit(`${tenantPk(companyId)}#RATE#${scope}`, windowSeconds, nowMs, count);
}

/** A counter of the platform (no tenant): per account, per client address. */
export function hitPlatformWindow(scope: string, windowSeconds: number, nowMs = Date.now()): Promise<WindowHit> {
  return hit(`${PLATFORM_PK}#RATE#${scope}`, windowSeconds, nowMs);
}

/** The platform counter's current window, without counting: its count so far and seconds left. */
export async function peekPlatformWindow(scope: string, windowSeconds: number, nowMs = Date.now()): Promise<Omit<WindowHit, 'key'>> {
  const now = Math.floor(nowMs / 1000);
  const start = now - (now % windowSeconds);
  const item = await getItem<{ count?: number }>(`${PLATFORM_PK}#RATE#${scope}`, `W#${start}`);
  return { count: Number(item?.count ?? 0), resetInSeconds: Math.max(1, start + windowSeconds - now) };
}

/** Takes one hit back from the window it was counted in (never creates a counter). */
export async function refundWindow(counted: WindowHit): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: counted.key,
        UpdateExpression: 'ADD #count :minus',
        ConditionExpression: 'attribute_exists(pk) AND #count > :zero',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}
