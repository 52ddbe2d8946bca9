/**
 * Fixed-window request counters (the external API's per-token limit).
 *
 *   window   pk = C#<cid>#RATE#<scope>   sk = W#<window start, epoch s>   { count, expiresAt }
 *
 * One atomic ADD per request; the item expires through the table's TTL a window after it ends
 * (TTL deletes lazily, so the window start in the key, not the TTL, decides which counter counts).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from './db.ts';
import { tenantPk } from './table.ts';

export interface WindowHit {
  /** Requests counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends. */
  resetInSeconds: number;
}

export async function hitWindow(companyId: number, scope: string, windowSeconds: number, nowMs = Date.now()): Promise<WindowHit> {
  const now = Math.floor(nowMs / 1000);
  const start = now - (now % windowSeconds);
  const end = start + windowSeconds;
  const out = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: `${tenantPk(companyId)}#RATE#${scope}`, sk: `W#${start}` },
      UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :expires), entity = :entity',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':expires': end + windowSeconds, ':entity': 'rateWindow' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return { count: Number(out.Attributes?.count ?? 1), resetInSeconds: Math.max(1, end - now) };
}
