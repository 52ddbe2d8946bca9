/**
 * The second factor's state on the user record (UserMfaFields in users/users.ts), and sign-in challenges.
 *   challenge   pk = PLATFORM#MFA_CHALLENGE#<sha256 of the id>   sk = CHALLENGE   (TTL: expiresAt)
 * Only the id's hash is a key, so reading the table hands nobody a usable challenge. Every write
 * that spends something (a time step, a recovery code, a try, the challenge itself) is conditional,
 * so two parallel requests cannot both spend it.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionalCheckFailed, table, updateIf } from '../db.ts';
import { PLATFORM_PK } from '../table.ts';
import { userKey } from './users.ts';

export interface MfaChallengeRecord {
  companyId: number;
  userId: number;
  /** The sign-in's ID token and refresh token (if any), sealed: handed back once the code is right. */
  sealedToken: string;
  sealedRefreshToken: string | null;
  /** The sign-in's access token, sealed, when the sign-in had one (POST /auth/login): the web app's token store needs it. */
  sealedAccessToken?: string | null;
  /** Wrong codes so far. */
  tries: number;
  /** Epoch seconds; also the table's TTL attribute, which removes the item some time after. */
  expiresAt: number;
}

const challengeKey = (id: string) => ({
  pk: `${PLATFORM_PK}#MFA_CHALLENGE#${createHash('sha256').update(id).digest('base64url')}`,
  sk: 'CHALLENGE',
});

export async function putMfaChallenge(id: string, record: MfaChallengeRecord): Promise<void> {
  await db().send(new PutCommand({ TableName: table(), Item: { ...challengeKey(id), entity: 'mfaChallenge', ...record } }));
}

/** The challenge, if it exists and has not expired. */
export async function getMfaChallenge(id: string, nowSeconds: number): Promise<MfaChallengeRecord | undefined> {
  // Read whole: getItem strips `expiresAt` as a storage key, and it is the challenge's lifetime here.
  const out = await db().send(new GetCommand({ TableName: table(), Key: challengeKey(id), ConsistentRead: true }));
  const item = out.Item as (MfaChallengeRecord & { pk: string }) | undefined;
  if (!item || !(item.expiresAt > nowSeconds)) return undefined;
  const { companyId, userId, sealedToken, sealedRefreshToken, sealedAccessToken, tries, expiresAt } = item;
  return { companyId, userId, sealedToken, sealedRefreshToken, sealedAccessToken: sealedAccessToken ?? null, tries, expiresAt };
}

/** Counts one try; false when the challenge is gone, expired or has used up its `maxTries`. */
export async function countMfaChallengeTry(id: string, maxTries: number, nowSeconds: number): Promise<number | false> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: challengeKey(id),
        UpdateExpression: 'ADD tries :one',
        ConditionExpression: 'attribute_exists(pk) AND tries < :max AND expiresAt > :now',
        ExpressionAttributeValues: { ':one': 1, ':max': maxTries, ':now': nowSeconds },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.tries ?? maxTries);
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Deletes the challenge; true only for the one caller that removed it (a challenge is used once). */
export async function takeMfaChallenge(id: string): Promise<boolean> {
  try {
    await db().send(new DeleteCommand({ TableName: table(), Key: challengeKey(id), ConditionExpression: 'attribute_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Setup: a new pending secret replaces any earlier one; refused (false) once the factor is on. */
export const setPendingMfaSecret = (companyId: number, userId: number, sealed: string): Promise<boolean> =>
  updateIf({
    Key: userKey(companyId, userId),
    UpdateExpression: 'SET mfaPendingSecret = :sealed',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(mfaEnabled) OR mfaEnabled = :off)',
    ExpressionAttributeValues: { ':sealed': sealed, ':off': false },
  });

/** Enrolment succeeded: the pending secret (as read) becomes the secret. False if it changed meanwhile. */
export const enableMfa = (
  companyId: number,
  userId: number,
  input: { pendingSecret: string; step: number; recoveryHashes: string[]; origin: string | null },
): Promise<boolean> =>
  updateIf({
    Key: userKey(companyId, userId),
    UpdateExpression:
      'SET mfaEnabled = :on, mfaSecret = :secret, mfaLastStep = :step, mfaRecoveryHashes = :hashes, mfaOrigin = :origin REMOVE mfaPendingSecret',
    ConditionExpression: 'mfaPendingSecret = :secret',
    ExpressionAttributeValues: {
      ':on': true,
      ':secret': input.pendingSecret,
      ':step': input.step,
      ':hashes': input.recoveryHashes,
      ':origin': input.origin,
    },
  });

/** Turns the second factor off (the user with a code, or an admin's reset): every trace of it goes. */
export const clearMfa = (companyId: number, userId: number): Promise<boolean> =>
  updateIf({
    Key: userKey(companyId, userId),
    UpdateExpression: 'SET mfaEnabled = :off REMOVE mfaSecret, mfaPendingSecret, mfaLastStep, mfaRecoveryHashes, mfaOrigin',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':off': false },
  });

/** Spends a TOTP time step: true only if it is later than every step accepted before (no replay). */
export const useMfaStep = (companyId: number, userId: number, step: number): Promise<boolean> =>
  updateIf({
    Key: userKey(companyId, userId),
    UpdateExpression: 'SET mfaLastStep = :step',
    ConditionExpression:
      'mfaEnabled = :on AND (attribute_not_exists(mfaLastStep) OR attribute_type(mfaLastStep, :null) OR mfaLastStep < :step)',
    ExpressionAttributeValues: { ':step': step, ':on': true, ':null': 'NULL' },
  });

/** Spends the recovery code at `index` if it is still the one read. */
export const useRecoveryCode = (companyId: number, userId: number, index: number, hash: string): Promise<boolean> =>
  updateIf({
    Key: userKey(companyId, userId),
    UpdateExpression: `REMOVE mfaRecoveryHashes[${index}]`,
    ConditionExpression: `mfaEnabled = :on AND mfaRecoveryHashes[${index}] = :hash`,
    ExpressionAttributeValues: { ':hash': hash, ':on': true },
  });

/** The sign-in that passed the second factor: its tokens are the ones let in. */
export const setMfaOrigin = (companyId: number, userId: number, origin: string): Promise<boolean> =>
  updateIf({
    Key: userKey(companyId, userId),
    UpdateExpression: 'SET mfaOrigin = :origin',
    ConditionExpression: 'mfaEnabled = :on',
    ExpressionAttributeValues: { ':origin': origin, ':on': true },
  });
