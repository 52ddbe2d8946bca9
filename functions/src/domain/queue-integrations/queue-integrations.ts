/**
 * Queue integrations of a company (SPEC 3 "Queue integration", 5, 7; issue 13). Admin-only routes
 * behind the useIntegrations plan flag (routes.ts). An id of another company is "not found".
 *
 * Secrets: the Dialogflow service account is sealed at rest and never returned (the answer says only
 * that it is set); n8n and webhook integrations get a random signing key at creation, sealed at rest
 * and shown to the company's admins, who need it to verify X-Conversa-Signature on their side.
 *
 * Deleting an integration a queue or connection still points at is refused (409
 * ERR_INTEGRATION_IN_USE, naming them): silently clearing the reference would switch a queue's bot
 * off behind the admin's back, and the admin may rather re-point it first.
 * Changes are published on `company-{id}-queueIntegration` with the id only.
 */

import { createPrivateKey, randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import { openSecret, sealSecret } from '#commons/secrets';
import { channels } from '#contracts/channels';
import {
  type CreateIntegrationInput,
  checkIntegration,
  integrationMessages,
  parseServiceAccount,
  type QueueIntegration,
  type QueueIntegrationEvent,
  type UpdateIntegrationInput,
} from '#contracts/queue-integrations';
import { changesOf, recordAudit } from '#domain/audit/record';
import { publishToCompany } from '#realtime/publisher';
import { listConnections } from '#storage/connections';
import * as store from '#storage/queue-integrations';
import { listQueues } from '#storage/queues/queues';

export const INTEGRATIONS_PAGE_SIZE = 20;

const publishChange = (companyId: number, event: QueueIntegrationEvent) =>
  publishToCompany(companyId, channels.queueIntegration(companyId), event);

const signs = (type: store.IntegrationType) => type === 'n8n' || type === 'webhook';

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** The signing key for the admin, or '' when it cannot be opened (sealed under another key): the page still loads. */
async function openSigningSecret(record: store.QueueIntegrationRecord): Promise<string> {
  if (!signs(record.type) || !record.signingSecretSealed) return '';
  try {
    return await openSecret(record.signingSecretSealed);
  } catch (error) {
    logger.error('queue integration signing key cannot be opened', {
      companyId: record.companyId,
      integrationId: record.id,
      error: error as Error,
    });
    return '';
  }
}

export async function present(record: store.QueueIntegrationRecord): Promise<QueueIntegration> {
  const { jsonContentSealed, signingSecretSealed, ...rest } = record;
  return { ...rest, jsonContentSet: Boolean(jsonContentSealed), signingSecret: await openSigningSecret(record) };
}

export async function findIntegration(companyId: number, id: number): Promise<store.QueueIntegrationRecord> {
  const record = await store.getQueueIntegration(companyId, id);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

/** The service account JSON, checked to be one whose key node can load (Dialogflow's token exchange signs with it). */
export function checkServiceAccount(json: string, field = 'jsonContent'): string {
  const account = parseServiceAccount(json);
  if (!account) throw new ValidationError(field, integrationMessages.credentials);
  try {
    createPrivateKey(account.private_key);
  } catch {
    throw new ValidationError(field, integrationMessages.credentials);
  }
  return json.trim();
}

function assertWhole(shape: Parameters<typeof checkIntegration>[0]): void {
  const problem = checkIntegration(shape);
  if (problem) throw new ValidationError(problem.field, problem.message);
}

const newSigningSecret = () => sealSecret(`whsec_${randomBytes(32).toString('base64url')}`);

export async function listIntegrationsFor(
  companyId: number,
  searchParam: string,
  pageNumber: number,
): Promise<{ queueIntegrations: QueueIntegration[]; hasMore: boolean }> {
  const needle = fold(searchParam.trim());
  const all = (await store.listQueueIntegrations(companyId))
    .filter((record) => !needle || fold(record.name).includes(needle))
    .sort((a, b) => fold(a.name).localeCompare(fold(b.name)) || a.id - b.id);
  const start = (pageNumber - 1) * INTEGRATIONS_PAGE_SIZE;
  const page = all.slice(start, start + INTEGRATIONS_PAGE_SIZE);
  return { queueIntegrations: await Promise.all(page.map(present)), hasMore: all.length > start + INTEGRATIONS_PAGE_SIZE };
}

export const getIntegrationFor = async (companyId: number, id: number): Promise<QueueIntegration> =>
  present(await findIntegration(companyId, id));

export async function createIntegrationFor(companyId: number, input: CreateIntegrationInput): Promise<QueueIntegration> {
  const { jsonContent, ...fields } = input;
  const dialogflow = input.type === 'dialogflow';
  // SPEC 5: the other types take their name as project name.
  const projectName = dialogflow ? input.projectName : input.name;
  assertWhole({ ...input, projectName, hasCredentials: dialogflow && jsonContent.trim() !== '' });
  const credentials = dialogflow ? checkServiceAccount(jsonContent) : '';
  const at = new Date().toISOString();
  const record = await store.createQueueIntegration({
    ...fields,
    projectName,
    companyId,
    id: await store.newQueueIntegrationId(companyId),
    jsonContentSealed: credentials ? await sealSecret(credentials) : '',
    signingSecretSealed: signs(input.type) ? await newSigningSecret() : '',
    createdAt: at,
    updatedAt: at,
  });
  await recordAudit({
    action: 'integration.create',
    targetType: 'integration',
    targetId: record.id,
    changes: changesOf(null, { ...record }),
  });
  await publishChange(companyId, { action: 'create', id: record.id });
  return present(record);
}

export async function updateIntegrationFor(companyId: number, id: number, input: UpdateIntegrationInput): Promise<QueueIntegration> {
  const before = await findIntegration(companyId, id);
  const { jsonContent, ...fields } = input;
  const merged = { ...before, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
  const dialogflow = merged.type === 'dialogflow';
  const given = dialogflow && jsonContent !== undefined && jsonContent.trim() !== '';
  const projectName = dialogflow ? merged.projectName : merged.name;
  assertWhole({ ...merged, projectName, hasCredentials: given || (dialogflow && before.jsonContentSealed !== '') });

  const patch: store.QueueIntegrationPatch = { ...fields, projectName };
  if (given) patch.jsonContentSealed = await sealSecret(checkServiceAccount(jsonContent));
  // Credentials of a type the integration no longer has are not kept around.
  if (!dialogflow && before.jsonContentSealed) patch.jsonContentSealed = '';
  // A key that cannot be opened any more (sealed under another key) is replaced, so the admin sees a usable one.
  const secretLost = signs(merged.type) && before.signingSecretSealed !== '' && (await openSigningSecret(before)) === '';
  if (signs(merged.type) && (!before.signingSecretSealed || secretLost)) patch.signingSecretSealed = await newSigningSecret();
  if (!signs(merged.type) && before.signingSecretSealed) patch.signingSecretSealed = '';
  const record = await store.updateQueueIntegration(companyId, id, patch);
  await recordAudit({
    action: 'integration.update',
    targetType: 'integration',
    targetId: id,
    changes: changesOf({ ...before }, { ...record }),
  });
  await publishChange(companyId, { action: 'update', id });
  return present(record);
}

export async function deleteIntegrationFor(companyId: number, id: number): Promise<void> {
  const before = await findIntegration(companyId, id);
  const [queues, connections] = await Promise.all([listQueues(companyId), listConnections(companyId)]);
  const queueIds = queues.filter((queue) => queue.integrationId === id).map((queue) => queue.id);
  const connectionIds = connections.filter((connection) => connection.integrationId === id).map((connection) => connection.id);
  if (queueIds.length || connectionIds.length) throw new ConflictError('ERR_INTEGRATION_IN_USE', { queueIds, connectionIds });
  await store.deleteQueueIntegration(companyId, id);
  await recordAudit({
    action: 'integration.delete',
    targetType: 'integration',
    targetId: id,
    changes: changesOf({ ...before }, null, ['name', 'type']),
  });
  await publishChange(companyId, { action: 'delete', id });
}

/** The sealed service account of a stored Dialogflow integration (testSession while editing). */
export async function storedCredentials(companyId: number, id: number): Promise<string> {
  const record = await findIntegration(companyId, id);
  if (record.type !== 'dialogflow' || !record.jsonContentSealed) throw new ValidationError('jsonContent', integrationMessages.required);
  try {
    return await openSecret(record.jsonContentSealed);
  } catch {
    // Sealed under another key: the admin pastes the JSON again (a 400 on the field, not a 500).
    throw new ValidationError('jsonContent', integrationMessages.required);
  }
}
