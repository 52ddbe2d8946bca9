/**
 * Campaigns (SPEC 3 "Campaign", 4 "Campaign").
 *
 *   campaign  pk = C#<cid>   sk = CAMPAIGN#<padded id>   { id, name, status, scheduledAt, messages..., revision, ... }
 *             -> one Query reads the tenant's campaigns (bounded by the plan's `campaigns` limit; the
 *                page searches and pages them in memory, as schedules do); one GetItem by id
 *
 * `revision` counts writes: every change is conditioned on the revision it read and bumps it, so a
 * person's edit and the engine starting or finishing the campaign never overwrite each other (the
 * later one is told, 409). The shipping engine (issue 10's next step) keeps its own records per
 * (campaign, contact) and a due index for PROGRAMADA campaigns; nothing of it lives here yet.
 * `mediaPath` is a media bucket key under `<cid>/campaigns/<id>/`, '' without one.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#commons/errors';
import type { Campaign } from '#contracts/campaigns';
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
import { type LimitClaim, putCountedRecord } from './plan-limits.ts';
import { pad, tenantPk } from './table.ts';

/**
 * A campaign as stored: the contract's fields without what is read at answer time (list and
 * connection names, `editable`), with the media's bucket key instead of its route, its author and
 * the revision every write is conditioned on.
 */
export type CampaignRecord = Omit<Campaign, 'contactList' | 'whatsapp' | 'editable' | 'mediaPath' | 'mediaName'> & {
  mediaPath: string;
  mediaName: string;
  userId: number;
  revision: number;
};

export type CampaignPatch = Partial<Omit<CampaignRecord, 'id' | 'companyId' | 'userId' | 'revision' | 'createdAt' | 'updatedAt'>>;

const SK_PREFIX = 'CAMPAIGN#';
const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `${SK_PREFIX}${pad(id)}` });

export const newCampaignId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'CAMPAIGN');

export const getCampaign = (companyId: number, id: number): Promise<CampaignRecord | undefined> =>
  getItem<CampaignRecord>(key(companyId, id).pk, key(companyId, id).sk);

export const listCampaigns = (companyId: number): Promise<CampaignRecord[]> =>
  queryAll<CampaignRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': SK_PREFIX },
  });

/** Puts a new campaign; with the plan limit's claim, only if no other create committed since the count. */
export async function createCampaign(record: CampaignRecord, claim?: LimitClaim): Promise<CampaignRecord> {
  const put = {
    TableName: table(),
    Item: { ...key(record.companyId, record.id), entity: 'campaign', ...record },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
  await putCountedRecord(put, claim);
  return record;
}

const changed = () => new ConflictError('ERR_CAMPAIGN_NOT_EDITABLE');

/** Applies `patch` to the campaign as read at `revision`: 409 when it changed (or went) since. */
export async function updateCampaign(companyId: number, id: number, revision: number, patch: CampaignPatch): Promise<CampaignRecord> {
  const set = updateExpression({ ...patch, updatedAt: new Date().toISOString() });
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: `${set.UpdateExpression}, #revision = :next`,
        ConditionExpression: '#revision = :read',
        ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#revision': 'revision' },
        ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':read': revision, ':next': revision + 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<CampaignRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw changed();
    throw error;
  }
}

/** Deletes the campaign as read at `revision`: 409 when it changed since (the engine started it, say). */
export async function deleteCampaign(companyId: number, id: number, revision: number): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: table(),
              Key: key(companyId, id),
              ConditionExpression: '#revision = :read',
              ExpressionAttributeNames: { '#revision': 'revision' },
              ExpressionAttributeValues: { ':read': revision },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw changed();
    throw error;
  }
}
