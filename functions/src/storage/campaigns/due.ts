/**
 * The indexes the `campaign-starts` job reads every minute (domain/campaigns/lifecycle.ts), both on
 * the campaign item and written with its status (storage/campaigns/campaigns.ts), every tenant's in one Query:
 *
 *   due      gsi1pk = CAMPAIGN_DUE       gsi1sk = <scheduledAt>#<cid>#<padded id>   while PROGRAMADA
 *            -> the starts to queue
 *   running  gsi2pk = CAMPAIGN_RUNNING   gsi2sk = <cid>#<padded id>                 while EM_ANDAMENTO
 *            -> the campaigns whose connection's chain of ticks must be alive (a lost tick is
 *               queued again). Written only on a status move, never per tick.
 */
import { queryAll } from '../db.ts';
import { pad } from '../table.ts';

/** Campaigns due to start before `until` (ISO), every tenant's: the due index's page. */
export async function dueCampaigns(until: string): Promise<{ companyId: number; id: number; scheduledAt: string }[]> {
  const items = await queryAll<Record<string, unknown>>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :until',
    ExpressionAttributeValues: { ':pk': CAMPAIGN_DUE_PK, ':until': until },
    ProjectionExpression: 'companyId, id, scheduledAt',
  });
  return items.map((item) => ({ companyId: Number(item.companyId), id: Number(item.id), scheduledAt: String(item.scheduledAt) }));
}

export const CAMPAIGN_DUE_PK = 'CAMPAIGN_DUE';
/** The due index's keys of a PROGRAMADA campaign (set by storage/campaigns/campaigns.ts, removed when it starts or changes). */
export const campaignDueKeys = (companyId: number, id: number, scheduledAt: string) => ({
  gsi1pk: CAMPAIGN_DUE_PK,
  gsi1sk: `${scheduledAt}#${companyId}#${pad(id)}`,
});

export const CAMPAIGN_RUNNING_PK = 'CAMPAIGN_RUNNING';
/** The running index's keys of an EM_ANDAMENTO campaign (set by transitionCampaign, removed by any other move). */
export const campaignRunningKeys = (companyId: number, id: number) => ({
  gsi2pk: CAMPAIGN_RUNNING_PK,
  gsi2sk: `${companyId}#${pad(id)}`,
});

export interface RunningCampaign {
  companyId: number;
  id: number;
  whatsappId: number | null;
}

/** Every tenant's EM_ANDAMENTO campaigns (the running index), with their connection. */
export async function runningCampaigns(): Promise<RunningCampaign[]> {
  const items = await queryAll<Record<string, unknown>>({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': CAMPAIGN_RUNNING_PK },
    ProjectionExpression: 'companyId, id, whatsappId',
  });
  return items.map((item) => ({
    companyId: Number(item.companyId),
    id: Number(item.id),
    whatsappId: item.whatsappId ? Number(item.whatsappId) : null,
  }));
}
