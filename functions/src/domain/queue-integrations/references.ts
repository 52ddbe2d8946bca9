/**
 * A queue's or connection's bot (integrationId, promptId) must be one of the company's own records:
 * an id of another tenant, or of nothing, would hand that tenant's contacts to a bot this company
 * does not own (or to none at all). 400 naming the field, before anything is written.
 * Only storage reads here, so the queues and connections Lambdas load no secrets or providers.
 */
import { ValidationError } from '#commons/errors';
import { getPrompt } from '#storage/prompts';
import { getQueueIntegration } from '#storage/queue-integrations';

export interface BotReferences {
  integrationId?: number | null;
  promptId?: number | null;
}

const named = (id: number | null | undefined): id is number => id !== null && id !== undefined;

export async function assertOwnBotReferences(companyId: number, refs: BotReferences): Promise<void> {
  const [integration, prompt] = await Promise.all([
    named(refs.integrationId) ? getQueueIntegration(companyId, refs.integrationId) : undefined,
    named(refs.promptId) ? getPrompt(companyId, refs.promptId) : undefined,
  ]);
  if (named(refs.integrationId) && integration?.companyId !== companyId)
    throw new ValidationError('integrationId', 'Not found', 'ERR_NO_INTEGRATION_FOUND');
  if (named(refs.promptId) && prompt?.companyId !== companyId) throw new ValidationError('promptId', 'Not found', 'ERR_NO_PROMPT_FOUND');
}
