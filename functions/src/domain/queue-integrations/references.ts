/**
 * A queue's or connection's bot (integrationId, promptId) must be one of the company's own records:
 * an id of another tenant, or of nothing, would hand that tenant's contacts to a bot this company
 * does not own (or to none at all). 400 naming the field, before anything is written.
 * Only storage reads here, so the queues and connections Lambdas load no secrets or providers.
 */
import { ValidationError } from '#commons/errors';
import { getQueueIntegration } from '#storage/queue-integrations';

export interface BotReferences {
  integrationId?: number | null;
  promptId?: number | null;
}

export async function assertOwnBotReferences(companyId: number, refs: BotReferences): Promise<void> {
  const { integrationId } = refs;
  if (integrationId !== null && integrationId !== undefined) {
    const record = await getQueueIntegration(companyId, integrationId);
    if (!record || record.companyId !== companyId) throw new ValidationError('integrationId', 'Not found', 'ERR_NO_INTEGRATION_FOUND');
  }
}
