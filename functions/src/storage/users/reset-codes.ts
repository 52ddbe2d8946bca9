/**
 * Password-reset codes of our own (issue 21; domain/auth/password-reset.ts), one item per address:
 *
 *   reset code   pk = PLATFORM#RESET_CODE#<sha256 of the lower-cased e-mail>   sk = CODE   (TTL: expiresAt)
 *                { codeHash, tries, expiresAt, companyId, userId }
 *
 * Why these keys: a code is asked for and checked by e-mail before anyone is signed in, so the address
 * is the only key there is, and it belongs to no tenant yet: the platform partition, like the sign-in
 * counters (rate-limits.ts). Only the address's hash is a key, so the table lists no addresses.
 * The code itself is never stored, only its keyed digest (commons/secrets keyedDigest): a copy of the
 * table cannot try the codes offline without the region's key. `companyId`/`userId` name the user the
 * code was mailed to, so a code outlives no change of who owns the address.
 *
 * A new request replaces the item (a Put): only the latest code works, and its tries start at 0.
 * Every write that spends something (a try, the code itself) is conditional, so parallel requests
 * cannot both spend it. The table's TTL only sweeps: reads check `expiresAt` themselves, as TTL
 * deletes lazily.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionalCheckFailed, table } from '../db.ts';
import { PLATFORM_PK } from '../table.ts';

export interface ResetCodeRecord {
  /** keyedDigest of the address and the code (domain/auth/password-reset.ts), hex. */
  codeHash: string;
  /** Tries of this code so far, the right one included. */
  tries: number;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
  companyId: number;
  userId: number;
}

const resetCodeKey = (email: string) => ({
  pk: `${PLATFORM_PK}#RESET_CODE#${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`,
  sk: 'CODE',
});

const recordOf = (item: Record<string, unknown> | undefined): ResetCodeRecord | undefined =>
  item
    ? {
        codeHash: String(item.codeHash),
        tries: Number(item.tries ?? 0),
        expiresAt: Number(item.expiresAt),
        companyId: Number(item.companyId),
        userId: Number(item.userId),
      }
    : undefined;

/** Stores the address's code, replacing any earlier one. */
export async function putResetCode(email: string, record: ResetCodeRecord): Promise<void> {
  await db().send(new PutCommand({ TableName: table(), Item: { ...resetCodeKey(email), entity: 'resetCode', ...record } }));
}

/** The address's code, if there is one and it has not expired. */
export async function getResetCode(email: string, nowSeconds: number): Promise<ResetCodeRecord | undefined> {
  // Read whole: getItem strips `expiresAt` as a storage key, and it is the code's lifetime here.
  const out = await db().send(new GetCommand({ TableName: table(), Key: resetCodeKey(email), ConsistentRead: true }));
  const record = recordOf(out.Item);
  return record && record.expiresAt > nowSeconds ? record : undefined;
}

/**
 * Counts one try of the address's code before it is checked; the code as it is after the count, or
 * undefined when there is none, it expired, or it has used up its `maxTries`.
 */
export async function countResetCodeTry(email: string, maxTries: number, nowSeconds: number): Promise<ResetCodeRecord | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: resetCodeKey(email),
        UpdateExpression: 'ADD tries :one',
        ConditionExpression: 'attribute_exists(pk) AND tries < :max AND expiresAt > :now',
        ExpressionAttributeValues: { ':one': 1, ':max': maxTries, ':now': nowSeconds },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOf(out.Attributes);
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/** Spends the code (single use): true for the one request that deleted it while it was still this code. */
export async function spendResetCode(email: string, codeHash: string): Promise<boolean> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: table(),
        Key: resetCodeKey(email),
        ConditionExpression: 'codeHash = :hash',
        ExpressionAttributeValues: { ':hash': codeHash },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
