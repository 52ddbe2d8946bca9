/**
 * The campaign report's recipients (issue 25: the report counted deliveries but named nobody). The
 * audience as the engine walks it (audience.ts), each recipient joined with its shipping record
 * (one per campaign and recipient, storage/campaigns/ships.ts): invalid ones were never shipped; a
 * record without a result was handed to the connection; its deliveredAt or failedAt is the result,
 * and the phone's read receipt (readAt, from the message's acks: inbound/updates.ts) makes it read.
 * Filtered by state and paged in the audience's order.
 */

import { NotFoundError } from '#commons/errors';
import {
  CAMPAIGN_RECIPIENTS_PAGE_SIZE,
  type CampaignRecipient,
  type CampaignRecipientsPage,
  type ListCampaignRecipientsQuery,
} from '#contracts/campaigns';
import type { Identity } from '#domain/identity';
import { getCampaign } from '#storage/campaigns/campaigns';
import type { ShipRecord } from '#storage/campaigns/shipping';
import { getShipRecords } from '#storage/campaigns/ships';
import { type AudienceRecipient, walkAudience } from './audience.ts';

/** getShipRecords reads a batch in one BatchGetItem, which takes at most 100 keys. */
const WALK_BATCH = 100;

export function recipientState(recipient: Pick<AudienceRecipient, 'valid' | 'name' | 'number'>, ship?: ShipRecord): CampaignRecipient {
  const base = { name: ship?.name ?? recipient.name, number: ship?.number ?? recipient.number, error: null };
  if (!recipient.valid) return { ...base, state: 'invalid', at: null };
  if (!ship) return { ...base, state: 'pending', at: null };
  // The phone's read receipt, or its delivery receipt where the send's result has not come yet.
  if (ship.readAt) return { ...base, state: 'read', at: ship.readAt };
  if (ship.deliveredAt) return { ...base, state: 'delivered', at: ship.deliveredAt };
  if (ship.receivedAt) return { ...base, state: 'delivered', at: ship.receivedAt };
  if (ship.failedAt) return { ...base, state: 'failed', at: ship.failedAt, error: ship.error ?? null };
  return { ...base, state: 'sent', at: ship.queuedAt };
}

export async function listCampaignRecipientsFor(
  identity: Identity,
  campaignId: number,
  query: ListCampaignRecipientsQuery,
): Promise<CampaignRecipientsPage> {
  const { companyId } = identity;
  const campaign = await getCampaign(companyId, campaignId);
  if (!campaign || campaign.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  const all: CampaignRecipient[] = [];
  let cursor = 0;
  for (;;) {
    const walk = await walkAudience(campaign, cursor, WALK_BATCH);
    const ships = await getShipRecords(
      companyId,
      campaignId,
      walk.recipients.filter((r) => r.valid).map((r) => r.id),
    );
    for (const recipient of walk.recipients) {
      const row = recipientState(recipient, ships.get(recipient.id));
      if (!query.state || row.state === query.state) all.push(row);
    }
    if (!walk.more) break;
    cursor = walk.cursor;
  }
  const start = (query.pageNumber - 1) * CAMPAIGN_RECIPIENTS_PAGE_SIZE;
  return {
    records: all.slice(start, start + CAMPAIGN_RECIPIENTS_PAGE_SIZE),
    count: all.length,
    hasMore: all.length > start + CAMPAIGN_RECIPIENTS_PAGE_SIZE,
  };
}
