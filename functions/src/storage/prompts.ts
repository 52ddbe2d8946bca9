/**
 * AI prompts (SPEC 3 "AI prompt"): a tenant's assistants, a handful per company.
 *
 *   prompt  pk = C#<cid>   sk = PROMPT#<padded id>   { the record below }
 *           -> one Query reads the tenant's set; ids are per company like tags and quick messages
 *
 * The API key and the voice key are stored sealed (commons/secrets.ts) with their hints beside them,
 * so listing the page never opens a secret. Only the bot's turn (domain/bots) opens the API key.
 */
import { tenantRecords } from './tenant-records.ts';

export interface PromptRecord {
  companyId: number;
  id: number;
  name: string;
  prompt: string;
  voice: string;
  /**
   * Legacy: the Azure voice key as prompts stored it before it was sealed, in plain. Read only to
   * show its hint and to seal it on the prompt's next update, which then empties it.
   */
  voiceKey?: string;
  /** Never returned over HTTP; GET shows voiceKeyHint. '' (or absent on legacy records) when none is set. */
  voiceKeySealed?: string;
  voiceKeyHint?: string;
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
