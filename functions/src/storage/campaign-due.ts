/**
 * The due index of PROGRAMADA campaigns (storage/campaign-shipping.ts "due"): what the
 * `campaign-starts` job reads every minute (domain/campaigns/lifecycle.ts).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from './db.ts';
import { pad } from './table.ts';

/** Campaigns due to start before `until` (ISO), every tenant's: the due index's page. */
export async function dueCampaigns(until: string): Promise<{ companyId: number; id: number; scheduledAt: string }[]> {
  const out: { companyId: number; id: number; scheduledAt: string }[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :until',
        ExpressionAttributeValues: { ':pk': CAMPAIGN_DUE_PK, ':until': until },
        ProjectionExpression: 'companyId, id, scheduledAt',
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? [])
      out.push({ companyId: Number(item.companyId), id: Number(item.id), scheduledAt: String(item.scheduledAt) });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}

export const CAMPAIGN_DUE_PK = 'CAMPAIGN_DUE';
/** The due index's keys of a PROGRAMADA campaign (set by storage/campaigns.ts, removed when it starts or changes). */
export const campaignDueKeys = (companyId: number, id: number, scheduledAt: string) => ({
  gsi1pk: CAMPAIGN_DUE_PK,
  gsi1sk: `${scheduledAt}#${companyId}#${pad(id)}`,
});
