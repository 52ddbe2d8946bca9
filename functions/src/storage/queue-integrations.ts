/**
 * Queue integrations (SPEC 3 "Queue integration"): a tenant's bot integrations, a small set per company.
 *
 *   integration  pk = C#<cid>   sk = QI#<padded id>   { the record below }
 *                -> one Query reads the tenant's set (the page's search and pages work on it); ids are
 *                   per company like tags and quick messages
 *
 * Secrets are stored sealed (commons/secrets.ts): the Dialogflow service account and the n8n/webhook
 * signing key. Only the domain opens them.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table, updateExpression } from './db.ts';
import { pad, tenantPk } from './table.ts';

export type IntegrationType = 'dialogflow' | 'n8n' | 'webhook' | 'typebot';

export interface QueueIntegrationRecord {
  companyId: number;
  id: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  /** Dialogflow service-account JSON, sealed ('' when none); HTTP shows only whether it is set. */
  jsonContentSealed: string;
  /** pt-BR | en | es */
  language: string;
  /** The URL for n8n, webhook AND typebot (Typebot's base URL). */
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  /** n8n/webhook: HMAC key generated at creation, sealed; GET returns it to the admin. */
  signingSecretSealed: string;
  createdAt: string;
  updatedAt: string;
}
export type QueueIntegrationPatch = Partial<Omit<QueueIntegrationRecord, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>>;

const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `QI#${pad(id)}` });

export const newQueueIntegrationId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'QUEUE_INTEGRATION');

export const getQueueIntegration = (companyId: number, id: number): Promise<QueueIntegrationRecord | undefined> =>
  getItem<QueueIntegrationRecord>(key(companyId, id).pk, key(companyId, id).sk);

export const listQueueIntegrations = (companyId: number): Promise<QueueIntegrationRecord[]> =>
  queryAll<QueueIntegrationRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'QI#' },
  });

export async function createQueueIntegration(record: QueueIntegrationRecord): Promise<QueueIntegrationRecord> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...key(record.companyId, record.id), entity: 'queueIntegration', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

export async function updateQueueIntegration(companyId: number, id: number, patch: QueueIntegrationPatch): Promise<QueueIntegrationRecord> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        ...updateExpression({ ...patch, updatedAt: new Date().toISOString() }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<QueueIntegrationRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

export async function deleteQueueIntegration(companyId: number, id: number): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: key(companyId, id) }));
}
