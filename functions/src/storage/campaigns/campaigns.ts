/**
 * Campaigns (SPEC 3 "Campaign", 4 "Campaign").
 *
 *   campaign  pk = C#<cid>   sk = CAMPAIGN#<padded id>   { id, name, status, scheduledAt, messages..., revision, ... }
 *             -> one Query reads the tenant's campaigns (bounded by the plan's `campaigns` limit; the
 *                page searches and pages them in memory, as schedules do); one GetItem by id
 *
 * `revision` counts writes: every change is conditioned on the revision it read and bumps it, so a
 * person's edit and the engine starting or finishing the campaign never overwrite each other (the
 * later one is told, 409). The shipping engine keeps its own records (storage/campaigns/shipping.ts);
 * here only the due index of a PROGRAMADA campaign (gsi1 CAMPAIGN_DUE, by scheduledAt), set while it
 * is PROGRAMADA and removed by any other status, the running index of an EM_ANDAMENTO one (gsi2
 * CAMPAIGN_RUNNING, storage/campaigns/due.ts), and the engine's status moves (transitionCampaign).
 * `mediaPath` is a media bucket key under `<cid>/campaigns/<id>/`, '' without one.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#commons/errors';
import type { Campaign, CampaignStatus } from '#contracts/campaigns';
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
} from '../db.ts';
import { type LimitClaim, putCountedRecord } from '../plans/limits.ts';
import { pad, tenantPk } from '../table.ts';
import { campaignDueKeys, campaignRunningKeys } from './due.ts';

/**
 * A campaign as stored: the contract's fields without what is read at answer time (list and
 * connection names, `editable`), with the media's bucket key instead of its route, its author and
 * the revision every write is conditioned on.
 */
export type CampaignRecord = Omit<Campaign, 'contactList' | 'whatsapp' | 'editable' | 'mediaPath' | 'mediaName' | 'progress'> & {
  mediaPath: string;
  mediaName: string;
  /** The attachment's content type ('' or absent without one). */
  mediaType?: string;
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
    Item: { ...key(record.companyId, record.id), entity: 'campaign', ...dueKeysOf(record), ...record },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
  await putCountedRecord(put, claim);
  return record;
}

const changed = () => new ConflictError('ERR_CAMPAIGN_NOT_EDITABLE');

const dueKeysOf = (record: Pick<CampaignRecord, 'companyId' | 'id' | 'status' | 'scheduledAt'>) =>
  record.status === 'PROGRAMADA' && record.scheduledAt ? campaignDueKeys(record.companyId, record.id, record.scheduledAt) : {};

/** Applies `patch` to the campaign as read at `revision`: 409 when it changed (or went) since. */
export async function updateCampaign(companyId: number, id: number, revision: number, patch: CampaignPatch): Promise<CampaignRecord> {
  // The due index follows the status: set while PROGRAMADA (at its possibly new time), gone otherwise.
  const due =
    patch.status === undefined
      ? {}
      : patch.status === 'PROGRAMADA' && patch.scheduledAt
        ? campaignDueKeys(companyId, id, patch.scheduledAt)
        : undefined;
  const set = updateExpression({ ...patch, ...due, updatedAt: new Date().toISOString() });
  const remove = due === undefined ? ' REMOVE gsi1pk, gsi1sk' : '';
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: `${set.UpdateExpression}, #revision = :next${remove}`,
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

/**
 * The engine's status moves (start, cancel, restart, finish): only from one of `from`, whatever the
 * revision (a person's edit is refused once the status moved, as the revision moves too). The due
 * index goes with PROGRAMADA, the running index comes with EM_ANDAMENTO and goes with any other. Undefined when the campaign is not in one of `from` (or is gone).
 */
export async function transitionCampaign(
  companyId: number,
  id: number,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  extra: { completedAt?: string | null } = {},
): Promise<CampaignRecord | undefined> {
  const values: Record<string, unknown> = { ':to': to, ':now': new Date().toISOString(), ':one': 1 };
  for (const [i, status] of from.entries()) values[`:from${i}`] = status;
  const completed = extra.completedAt !== undefined ? ', completedAt = :completed' : '';
  if (completed) values[':completed'] = extra.completedAt;
  // The running index follows EM_ANDAMENTO (the job that revives a lost tick chain reads it).
  const running = to === 'EM_ANDAMENTO' ? campaignRunningKeys(companyId, id) : undefined;
  if (running) Object.assign(values, { ':g2pk': running.gsi2pk, ':g2sk': running.gsi2sk });
  const indexes = running ? ', gsi2pk = :g2pk, gsi2sk = :g2sk' : '';
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: `SET #status = :to, updatedAt = :now${completed}${indexes} ADD #revision :one REMOVE gsi1pk, gsi1sk${running ? '' : ', gsi2pk, gsi2sk'}`,
        ConditionExpression: `attribute_exists(pk) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status', '#revision': 'revision' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<CampaignRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}
