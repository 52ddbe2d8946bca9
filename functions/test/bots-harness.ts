/** Records for the bot tests: a company's prompt, and a queue pointed at a prompt or integration. */
import { sealSecret } from '../src/commons/secrets.ts';
import { createPrompt, newPromptId, type PromptRecord } from '../src/storage/prompts.ts';
import { updateQueue } from '../src/storage/queues/queues.ts';

export async function savePrompt(companyId: number, fields: Partial<PromptRecord> & { queueId: number }): Promise<PromptRecord> {
  const now = new Date().toISOString();
  return createPrompt({
    companyId,
    id: await newPromptId(companyId),
    name: 'Assistente',
    prompt: 'Você é o assistente da Loja Azul e responde com gentileza.',
    voice: 'texto',
    voiceKey: '',
    voiceRegion: '',
    maxTokens: 100,
    temperature: 1,
    maxMessages: 10,
    apiKeySealed: await sealSecret('sk-test-0000'),
    apiKeyHint: 'sk-…0000',
    createdAt: now,
    updatedAt: now,
    ...fields,
  });
}

export const putQueueBot = (companyId: number, queueId: number, bot: { promptId?: number | null; integrationId?: number | null }) =>
  updateQueue(companyId, queueId, { promptId: bot.promptId ?? null, integrationId: bot.integrationId ?? null });
