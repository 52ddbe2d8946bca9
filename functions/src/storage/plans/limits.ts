/**
 * Plan limits that hold under concurrent creates. A create counted against the plan reads the
 * company's revision of that kind of record first, counts, and commits the record on condition that
 * the revision is still the one it read, bumping it in the same transaction: of two creates that
 * counted the same records, one commits and the other counts again (and may find no room). Deletes
 * leave the revision alone: they only ever make room, so a count they race with errs on the safe side.
 */
import { PutCommand, type PutCommandInput, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, type TransactItem, table, transactionCancellationCodes } from '../db.ts';
import { tenantPk } from '../table.ts';

export type LimitedKind = 'users' | 'queues' | 'connections' | 'schedules' | 'campaigns';

/** What a create read before counting; its commit carries it as a condition. */
export interface LimitClaim {
  key: { pk: string; sk: string };
  revision: number;
}

/** Another create of the same kind committed between this one's count and its commit. */
export class LimitClaimLost extends Error {
  constructor() {
    super('another create of this kind committed first');
    this.name = 'LimitClaimLost';
  }
}

const claimKey = (companyId: number, kind: LimitedKind) => ({ pk: tenantPk(companyId), sk: `LIMIT#${kind}` });

export async function readLimitClaim(companyId: number, kind: LimitedKind): Promise<LimitClaim> {
  const key = claimKey(companyId, kind);
  const item = await getItem<{ revision?: number }>(key.pk, key.sk);
  return { key, revision: item?.revision ?? 0 };
}

/** The transaction item that commits `claim`: it fails when the revision moved since it was read. */
export function limitClaimItem(claim: LimitClaim): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: claim.key,
      UpdateExpression: 'SET #revision = :next, entity = :entity',
      ConditionExpression: claim.revision === 0 ? 'attribute_not_exists(pk)' : '#revision = :read',
      ExpressionAttributeNames: { '#revision': 'revision' },
      ExpressionAttributeValues: {
        ':next': claim.revision + 1,
        ':entity': 'limitRevision',
        ...(claim.revision === 0 ? {} : { ':read': claim.revision }),
      },
    },
  };
}

/**
 * Writes a new record alone, or, when a plan limit counted it, in one transaction with the claim:
 * LimitClaimLost when another create of that kind committed first (the caller counts again).
 */
export async function putCountedRecord(put: PutCommandInput, claim?: LimitClaim): Promise<void> {
  if (!claim) {
    await db().send(new PutCommand(put));
    return;
  }
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [{ Put: put }, limitClaimItem(claim)] }));
  } catch (error) {
    if (transactionCancellationCodes(error)?.[1] === 'ConditionalCheckFailed') throw new LimitClaimLost();
    throw error;
  }
}
