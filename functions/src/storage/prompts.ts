/**
 * AI prompts (SPEC 3 "AI prompt"): a tenant's assistants, a handful per company.
 *
 *   prompt  pk = C#<cid>   sk = PROMPT#<padded id>   { the record below }
 *           -> one Query reads the tenant's set; ids are per company like tags and quick messages
 *
 * The API key is stored sealed (commons/secrets.ts) with its hint beside it, so listing the page
 * never opens a secret. Only the bot's turn (domain/bots) opens it.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table, updateExpression } from './db.ts';
import { pad, tenantPk } from './table.ts';

export interface PromptRecord {
  companyId: number;
  id: number;
  name: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  /** Never returned over HTTP; GET shows apiKeyHint. '' when no key is set. */
  apiKeySealed: string;
  apiKeyHint: string;
  queueId: number;
  createdAt: string;
  updatedAt: string;
}
export type PromptPatch = Partial<Omit<PromptRecord, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>>;

const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `PROMPT#${pad(id)}` });

export const newPromptId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'PROMPT');

export const getPrompt = (companyId: number, id: number): Promise<PromptRecord | undefined> =>
  getItem<PromptRecord>(key(companyId, id).pk, key(companyId, id).sk);

export const listPrompts = (companyId: number): Promise<PromptRecord[]> =>
  queryAll<PromptRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'PROMPT#' },
  });

export async function createPrompt(record: PromptRecord): Promise<PromptRecord> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...key(record.companyId, record.id), entity: 'prompt', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

export async function updatePrompt(companyId: number, id: number, patch: PromptPatch): Promise<PromptRecord> {
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
    return stripKeys<PromptRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

export async function deletePrompt(companyId: number, id: number): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: key(companyId, id) }));
}
