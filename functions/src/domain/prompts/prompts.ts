/**
 * AI prompts of a company (SPEC 3 "AI prompt", 5, 7; issue 13). Admin-only routes behind the
 * useOpenAi plan flag (routes.ts). An id of another company is "not found".
 *
 * The API key and the voice key are sealed at rest (commons/secrets.ts) and only their hints
 * ("sk-…a1b2") are ever returned; a PUT that sends a hint back, or omits the field, keeps the stored
 * key, and '' removes it. A voice key stored in plain before it was sealed shows as its hint and is
 * sealed by the prompt's next update.
 * The queue must be one of the company's own (400 'Informe o setor' otherwise, SPEC 5): a prompt
 * naming another tenant's queue would transfer that tenant's tickets.
 *
 * The prompt's queue and that queue's prompt are one link (queue-link.ts): setting the Queue field
 * here sets the queue's Prompt too, and the queue the prompt named before lets it go.
 *
 * Deleting a prompt another queue or a connection still points at is refused (409 ERR_PROMPT_IN_USE,
 * naming them), as for queue integrations: clearing the reference silently would switch that bot off
 * behind the admin's back. Its own queue, the one its row and dialog show, lets it go with it.
 * Changes are published on `company-{id}-prompt` with the id only.
 */

import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import { sealSecret, secretHint } from '#commons/secrets';
import { channels } from '#contracts/channels';
import {
  type CreatePromptInput,
  looksLikeHint,
  type Prompt,
  type PromptEvent,
  promptMessages,
  type UpdatePromptInput,
} from '#contracts/prompts';
import { changesOf, recordAudit } from '#domain/audit/record';
import { publishToCompany } from '#realtime/publisher';
import { listConnections } from '#storage/connections';
import * as store from '#storage/prompts';
import { getQueue, listQueues } from '#storage/queues/queues';
import { linkQueueToPrompt, unlinkPromptQueue } from './queue-link.ts';

const publishChange = (companyId: number, event: PromptEvent) => publishToCompany(companyId, channels.prompt(companyId), event);

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export function present(record: store.PromptRecord, queueName: string | undefined): Prompt {
  const { apiKeySealed: _sealed, apiKeyHint, voiceKey: legacyVoiceKey, voiceKeySealed: _voiceSealed, voiceKeyHint, ...rest } = record;
  return {
    ...rest,
    apiKey: apiKeyHint,
    voiceKey: voiceKeyHint || secretHint(legacyVoiceKey ?? ''),
    queue: queueName === undefined ? null : { id: record.queueId, name: queueName },
  };
}

async function findPrompt(companyId: number, id: number): Promise<store.PromptRecord> {
  const record = await store.getPrompt(companyId, id);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

/** The queue's name; 400 when it is not one of the company's queues. */
async function ownQueueName(companyId: number, queueId: number): Promise<string> {
  const queue = await getQueue(companyId, queueId);
  if (!queue || queue.companyId !== companyId) throw new ValidationError('queueId', promptMessages.queue);
  return queue.name;
}

const queueNameOf = async (companyId: number, queueId: number) => (await getQueue(companyId, queueId))?.name;

/** '' clears a key; anything else is sealed. A hint is never a key (it would seal "sk-…a1b2"). */
async function sealed(plain: string): Promise<{ sealed: string; hint: string }> {
  if (!plain) return { sealed: '', hint: '' };
  return { sealed: await sealSecret(plain), hint: secretHint(plain) };
}

async function sealedKey(apiKey: string): Promise<Pick<store.PromptRecord, 'apiKeySealed' | 'apiKeyHint'>> {
  const key = await sealed(apiKey);
  return { apiKeySealed: key.sealed, apiKeyHint: key.hint };
}

/** The voice key sealed; the legacy plain attribute is emptied in the same write. */
async function sealedVoiceKey(voiceKey: string): Promise<Pick<store.PromptRecord, 'voiceKey' | 'voiceKeySealed' | 'voiceKeyHint'>> {
  const key = await sealed(voiceKey);
  return { voiceKey: '', voiceKeySealed: key.sealed, voiceKeyHint: key.hint };
}

export async function listPromptsFor(companyId: number, searchParam: string): Promise<{ prompts: Prompt[] }> {
  const needle = fold(searchParam);
  const [records, queues] = await Promise.all([store.listPrompts(companyId), listQueues(companyId)]);
  const names = new Map(queues.map((queue) => [queue.id, queue.name]));
  const prompts = records
    .filter((record) => !needle || fold(record.name).includes(needle))
    .sort((a, b) => fold(a.name).localeCompare(fold(b.name)) || a.id - b.id)
    .map((record) => present(record, names.get(record.queueId)));
  return { prompts };
}

export async function getPromptFor(companyId: number, id: number): Promise<Prompt> {
  const record = await findPrompt(companyId, id);
  return present(record, await queueNameOf(companyId, record.queueId));
}

export async function createPromptFor(companyId: number, input: CreatePromptInput): Promise<Prompt> {
  const { apiKey, voiceKey, ...fields } = input;
  if (looksLikeHint(apiKey)) throw new ValidationError('apiKey', promptMessages.apiKey);
  if (looksLikeHint(voiceKey)) throw new ValidationError('voiceKey', promptMessages.apiKey);
  const queueName = await ownQueueName(companyId, fields.queueId);
  const at = new Date().toISOString();
  const { voiceKey: _legacy, ...voice } = await sealedVoiceKey(voiceKey);
  const record = await store.createPrompt({
    ...fields,
    ...(await sealedKey(apiKey)),
    ...voice,
    id: await store.newPromptId(companyId),
    companyId,
    createdAt: at,
    updatedAt: at,
  });
  await linkQueueToPrompt(companyId, record.id, record.queueId);
  await recordAudit({ action: 'prompt.create', targetType: 'prompt', targetId: record.id, changes: changesOf(null, { ...record }) });
  await publishChange(companyId, { action: 'create', id: record.id });
  return present(record, queueName);
}

export async function updatePromptFor(companyId: number, id: number, input: UpdatePromptInput): Promise<Prompt> {
  const before = await findPrompt(companyId, id);
  const { apiKey, voiceKey, ...fields } = input;
  const patch: store.PromptPatch = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const queueName = await ownQueueName(companyId, patch.queueId ?? before.queueId).catch((error: unknown) => {
    // A prompt whose queue was deleted since still saves its other fields; a new queueId must be valid.
    if (patch.queueId === undefined) return undefined;
    throw error;
  });
  // The hint sent back unchanged (or no apiKey) keeps the stored key.
  if (apiKey !== undefined && !looksLikeHint(apiKey)) Object.assign(patch, await sealedKey(apiKey));
  if (voiceKey !== undefined && !looksLikeHint(voiceKey)) Object.assign(patch, await sealedVoiceKey(voiceKey));
  // A voice key stored in plain before sealing (kept by this update) is sealed now.
  else if (before.voiceKey) Object.assign(patch, await sealedVoiceKey(before.voiceKey));
  if (!Object.keys(patch).length) return present(before, queueName);
  const record = await store.updatePrompt(companyId, id, patch);
  if (patch.queueId !== undefined) await linkQueueToPrompt(companyId, id, record.queueId, before.queueId);
  await recordAudit({ action: 'prompt.update', targetType: 'prompt', targetId: id, changes: changesOf({ ...before }, { ...record }) });
  await publishChange(companyId, { action: 'update', id });
  return present(record, queueName);
}

export async function deletePromptFor(companyId: number, id: number): Promise<{ message: string }> {
  const record = await findPrompt(companyId, id);
  const [queues, connections] = await Promise.all([listQueues(companyId), listConnections(companyId)]);
  const queueIds = queues.filter((queue) => queue.promptId === id && queue.id !== record.queueId).map((queue) => queue.id);
  const connectionIds = connections.filter((connection) => connection.promptId === id).map((connection) => connection.id);
  if (queueIds.length || connectionIds.length) throw new ConflictError('ERR_PROMPT_IN_USE', { queueIds, connectionIds });
  await unlinkPromptQueue(companyId, id, record.queueId);
  await store.deletePrompt(companyId, id);
  await recordAudit({ action: 'prompt.delete', targetType: 'prompt', targetId: id, changes: changesOf({ ...record }, null, ['name']) });
  await publishChange(companyId, { action: 'delete', id });
  return { message: 'Prompt deleted' };
}
