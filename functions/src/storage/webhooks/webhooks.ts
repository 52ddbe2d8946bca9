/**
 * Webhook endpoints (issue 23 §2): the URLs a company's admins registered, at most
 * MAX_WEBHOOKS_PER_COMPANY a company.
 *
 *   endpoint  pk = C#<cid>   sk = WEBHOOK#<padded id>   { the record below }
 *             -> one Query reads the company's set: the page's list, and the emitters' cached list
 *
 * The signing secret is stored sealed (commons/secrets.ts); only the domain opens it (to sign a
 * delivery) and the API shows it once, when it is made. Every message, ticket and contact change
 * asks "which endpoints of this company want this event?": `listWebhooksCached` answers from the
 * container's read cache (read-cache.ts), so a company without webhooks costs one Query per 5 s per
 * container, not one per message; a write through this module forgets the entry at once.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import type { Webhook } from '#contracts/webhooks';
import { db, isConditionalCheckFailed, stripKeys, table, updateExpression } from '../db.ts';
import { REFERENCE_TTL_MS, readCache } from '../read-cache.ts';
import { pad, tenantPk } from '../table.ts';
import { tenantRecords } from '../tenant-records.ts';

/** An endpoint as the API shows it, plus its company and its sealed secret. */
export interface WebhookRecord extends Omit<Webhook, 'failingSince'> {
  companyId: number;
  /** The first failure since the last success (absent while it answers 2xx). */
  failingSince?: string;
  secretSealed: string;
}
export type WebhookPatch = Partial<Omit<WebhookRecord, 'companyId' | 'id' | 'createdAt' | 'updatedAt' | 'failingSince'>>;

const records = tenantRecords<WebhookRecord, WebhookPatch>({ prefix: 'WEBHOOK', counter: 'WEBHOOK', entity: 'webhook' });

const cache = readCache((companyId: number) => records.list(companyId), { ttlMs: REFERENCE_TTL_MS });

export const newWebhookId = records.newId;
export const getWebhook = records.get;
export const listWebhooks = records.list;
/** The company's endpoints, up to 5 s stale (another container's edit): the emitters' read. */
export const listWebhooksCached = (companyId: number): Promise<WebhookRecord[]> => cache.get(companyId);

export async function createWebhook(record: WebhookRecord): Promise<WebhookRecord> {
  cache.forget(record.companyId);
  return records.create(record);
}

/**
 * The record after the patch; NotFoundError when there is none. `restart`: the endpoint is switched
 * on again, so its failure streak starts over (failingSince removed).
 */
export async function updateWebhook(companyId: number, id: number, patch: WebhookPatch, restart = false): Promise<WebhookRecord> {
  cache.forget(companyId);
  const set = updateExpression({ ...patch, updatedAt: new Date().toISOString() });
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        ...set,
        UpdateExpression: restart ? `${set.UpdateExpression} REMOVE failingSince` : set.UpdateExpression,
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<WebhookRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

export async function deleteWebhook(companyId: number, id: number): Promise<void> {
  cache.forget(companyId);
  await records.remove(companyId, id);
}

const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `WEBHOOK#${pad(id)}` });

/** A failed delivery: failingSince is set unless it already was (the first failure counts). Undefined when the endpoint is gone. */
export async function markWebhookFailing(companyId: number, id: number, at: string): Promise<WebhookRecord | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<WebhookRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/** A 2xx: the endpoint answers again. Written only when it was failing (the caller checks its copy first). */
export async function markWebhookAnswering(companyId: number, id: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: 'REMOVE failingSince',
        ConditionExpression: 'attribute_exists(failingSince)',
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * Switches off an endpoint that failed for a whole retry window, once: true for the one call that
 * did it (it notifies the admins), false when it was already off, re-enabled meanwhile with a fresh
 * failingSince, or deleted.
 */
export async function disableFailingWebhook(companyId: number, id: number, failingSince: string, at: string): Promise<boolean> {
  cache.forget(companyId);
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: 'SET enabled = :off, disabledReason = :reason, disabledAt = :at, updatedAt = :at REMOVE failingSince',
        ConditionExpression: 'enabled = :on AND failingSince = :since',
        ExpressionAttributeValues: { ':off': false, ':on': true, ':reason': 'failing', ':at': at, ':since': failingSince },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
