/**
 * AI prompts (SPEC 3 "AI prompt"): a tenant's assistants, a handful per company.
 *
 *   prompt  pk = C#<cid>   sk = PROMPT#<padded id>   { the record below }
 *           -> one Query reads the tenant's set; ids are per company like tags and quick messages
 *
 * The API key is stored sealed (commons/secrets.ts) with its hint beside it, so listing the page
 * never opens a secret. Only the bot's turn (domain/bots) opens it.
 */
import { tenantRecords } from './tenant-records.ts';

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

const records = tenantRecords<PromptRecord, PromptPatch>({ prefix: 'PROMPT', counter: 'PROMPT', entity: 'prompt' });

export const newPromptId = records.newId;
export const getPrompt = records.get;
export const listPrompts = records.list;
export const createPrompt = records.create;
export const updatePrompt = records.update;
export const deletePrompt = records.remove;
