/**
 * Idempotency keys of the external messages API (issue 23 §3): a developer's `Idempotency-Key`,
 * claimed before the send and then holding its answer, so one key sends once whatever the retries
 * and races (domain/external-api/idempotency.ts tells the rules).
 *
 *   key   pk = C#<cid>#IDEM#<sha256 of the key>   sk = K
 *         { bodyHash, claimId, lockedUntil, status?, answer?, expiresAt }
 *
 * One partition per key rather than under C#<cid>: a busy integration's keys spread instead of
 * heating the tenant's partition, and the company in the key keeps tenants apart. The key is
 * hashed: 255 characters of anything become a bounded key. `status` and `answer` (the JSON body as
 * text) appear once the send has answered; until then `lockedUntil` says how long the claim holds.
 * `expiresAt` is the table's TTL; TTL deletes lazily, so the claim's own condition also takes over
 * an item past it.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, isConditionalCheckFailed, table } from './db.ts';
import { tenantPk } from './table.ts';

export interface IdempotencyRecord {
  bodyHash: string;
  claimId: string;
  /** Epoch seconds: an unanswered claim older than this may be taken over by the same body. */
  lockedUntil?: number;
  status?: number;
  answer?: string;
}

export interface IdempotencyClaim {
  bodyHash: string;
  claimId: string;
  lockedUntil: number;
  expiresAt: number;
}

const keyOf = (companyId: number, keyHash: string) => ({ pk: `${tenantPk(companyId)}#IDEM#${keyHash}`, sk: 'K' });

/**
 * One conditional put: the key is ours when it is new, past its expiresAt, or an unanswered claim of
 * the same body whose lock has run out (its request died). Otherwise the record that holds it.
 */
export async function claimIdempotencyKey(
  companyId: number,
  keyHash: string,
  claim: IdempotencyClaim,
  nowSeconds: number,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
  const key = keyOf(companyId, keyHash);
  // A record deleted between our put and our read (a failed send released it) is claimed again.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db().send(
        new PutCommand({
          TableName: table(),
          Item: { ...key, entity: 'idempotencyKey', ...claim },
          ConditionExpression:
            'attribute_not_exists(pk) OR expiresAt <= :now OR (attribute_not_exists(#status) AND lockedUntil <= :now AND bodyHash = :hash)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':hash': claim.bodyHash },
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
    const existing = await getItem<IdempotencyRecord>(key.pk, key.sk);
    if (existing) return { claimed: false, existing };
  }
  throw new Error('Idempotency key claim kept losing to releases');
}

/** Stores the first answer; only the claim's owner may (a taken-over claim's late answer is dropped). */
export async function recordIdempotentAnswer(
  companyId: number,
  keyHash: string,
  claimId: string,
  answer: { status: number; body: unknown },
): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keyOf(companyId, keyHash),
        UpdateExpression: 'SET #status = :status, answer = :answer REMOVE lockedUntil',
        ConditionExpression: 'claimId = :claim',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': answer.status, ':answer': JSON.stringify(answer.body ?? null), ':claim': claimId },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Gives the key back (the send failed on our side): the next request with it sends. */
export async function releaseIdempotencyKey(companyId: number, keyHash: string, claimId: string): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: table(),
        Key: keyOf(companyId, keyHash),
        ConditionExpression: 'claimId = :claim AND attribute_not_exists(#status)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':claim': claimId },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}
