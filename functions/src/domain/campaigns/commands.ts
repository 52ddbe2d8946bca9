/**
 * POST /campaigns/{id}/cancel and /restart (SPEC 4 "Campaign": EM_ANDAMENTO -> CANCELADA by cancel,
 * CANCELADA -> EM_ANDAMENTO by restart). Cancel stops at once: the engine commits nothing more for
 * it (engine.ts). Restart walks its list again and ships only whom no record marks delivered.
 * Any other status is a 409 naming it.
 */
import { ConflictError, NotFoundError } from '#commons/errors';
import type { Campaign } from '#contracts/campaigns';
import type { Identity } from '#domain/identity';
import { getCampaign } from '#storage/campaigns/campaigns';
import { getCampaignFor } from './campaigns.ts';
import { cancelCampaign, startCampaign } from './engine.ts';

async function statusOf(identity: Identity, id: number) {
  const record = await getCampaign(identity.companyId, id);
  if (!record || record.companyId !== identity.companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record.status;
}

export async function cancelCampaignFor(identity: Identity, id: number): Promise<Campaign> {
  const status = await statusOf(identity, id);
  if (!(await cancelCampaign(identity.companyId, id))) throw new ConflictError('ERR_CAMPAIGN_NOT_RUNNING', { status });
  return getCampaignFor(identity, id);
}

export async function restartCampaignFor(identity: Identity, id: number): Promise<Campaign> {
  const status = await statusOf(identity, id);
  if (!(await startCampaign(identity.companyId, id, ['CANCELADA']))) throw new ConflictError('ERR_CAMPAIGN_NOT_CANCELLED', { status });
  return getCampaignFor(identity, id);
}
