/**
 * What comes back to the campaign engine through the inbound queue:
 * - a campaign send's result (`campaignResult`): what was sent goes into the contact's
 *   conversation (thread.ts); the message's result marks its contact delivered
 *   (or failed), the confirmation request's marks `confirmationRequestedAt`; each once, with its
 *   counter, however often the result is delivered; then the live progress and, when it was the
 *   last, FINALIZADA;
 * - a contact's reply while a confirmation is pending (confirmReply, the inbound path's one hook):
 *   `confirmedAt` set once, and only that first reply sends the campaign message. The reply itself
 *   goes on to open or update a ticket as any inbound message does.
 */
import { logger } from '#commons/logger';
import type { InboundEvent } from '#contracts/session-events';
import type { Effects } from '#domain/messages/effects';
import { getCampaign } from '#storage/campaigns/campaigns';
import { clearPendingConfirmation, getPendingConfirmation, getShipRecord, recordOutcome } from '#storage/campaigns/ships';
import { parseShipMessageId } from './compose.ts';
import { defaultEngineDeps, type EngineDeps, finishIfComplete, sendShips } from './engine.ts';
import { publishProgress } from './progress.ts';
import { threadCampaignSend } from './thread.ts';

export async function settleCampaignSend(event: Extract<InboundEvent, { kind: 'campaignResult' }>, effects: Effects): Promise<string> {
  const id = parseShipMessageId(event.messageId);
  if (!id || id.campaignId !== event.campaignId) return 'unknown';
  // In the contact's conversation first: a retry after a crash below stores nothing twice (thread.ts).
  await threadCampaignSend(event, effects);
  // Files and media follow the message; the contact's outcome is the message's (or the confirmation's).
  if (id.part !== 'm' && id.part !== 'c') {
    if (event.error)
      logger.warn('campaign attachment not sent', { companyId: event.companyId, messageId: event.messageId, error: event.error });
    return 'ignored';
  }
  const at = effects.now().toISOString();
  const outcome = event.error ? 'failed' : id.part === 'm' ? 'delivered' : 'confirmationRequested';
  const recorded = await recordOutcome(event.companyId, id.campaignId, id.itemId, outcome, at, event.error);
  if (!recorded) return 'unchanged';
  const campaign = await getCampaign(event.companyId, id.campaignId);
  if (!campaign) return 'updated';
  if (campaign.status === 'EM_ANDAMENTO') await finishIfComplete(event.companyId, id.campaignId, effects);
  const current = (await getCampaign(event.companyId, id.campaignId)) ?? campaign;
  await publishProgress(effects, current);
  return 'updated';
}

/**
 * The inbound path's hook for a contact's message (not ours, not a group's): one GetItem, which
 * finds nothing unless a campaign awaits this contact's confirmation on this connection.
 */
export async function confirmReply(
  companyId: number,
  connectionId: number,
  number: string,
  deps: EngineDeps = defaultEngineDeps,
): Promise<'confirmed' | 'none'> {
  const pending = await getPendingConfirmation(companyId, connectionId, number);
  if (!pending) return 'none';
  const campaign = await getCampaign(companyId, pending.campaignId);
  // "While the campaign runs": a reply to a cancelled or finished campaign confirms nothing.
  if (campaign?.status !== 'EM_ANDAMENTO') {
    await clearPendingConfirmation(companyId, connectionId, number);
    return 'none';
  }
  const confirmed = await recordOutcome(companyId, campaign.id, pending.itemId, 'confirmed', deps.effects.now().toISOString());
  // Sent whenever the key is still there (a retried event after a crash): the message id is fixed, so
  // the host sends it once; the key goes only after, so no crash in between loses the message.
  const record = await getShipRecord(companyId, campaign.id, pending.itemId);
  if (record?.confirmedAt && !record.deliveredAt) await sendShips(campaign, connectionId, [record], deps);
  if (confirmed) await publishProgress(deps.effects, campaign);
  await clearPendingConfirmation(companyId, connectionId, number);
  return confirmed ? 'confirmed' : 'none';
}

/** confirmReply for an inbound message event: a contact's own message only (not ours, not a group's). */
export async function confirmCampaignReply(event: Extract<InboundEvent, { kind: 'message' }>, effects: Effects): Promise<void> {
  const { message } = event;
  if (message.fromMe || message.isGroup) return;
  await confirmReply(event.companyId, event.connectionId, message.number, { ...defaultEngineDeps, effects });
}
