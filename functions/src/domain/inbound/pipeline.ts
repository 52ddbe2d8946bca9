/**
 * The inbound pipeline: one event from the session-host into the inbox. Idempotent per event (see
 * message.ts and updates.ts), so the queue may deliver an event any number of times.
 */
import type { InboundEvent } from '#contracts/session-events';
import { confirmCampaignReply, settleCampaignSend } from '#domain/campaigns/results';
import { localTime } from '#domain/chatbot/hours';
import { applyNumberChecks } from '#domain/contact-lists/number-checks';
import { importPhoneContacts } from '#domain/contacts/phone-import';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { type BatchReferences, batchReferences } from './batch-references.ts';
import type { RecordMarks } from './dispatch-marks.ts';
import { handleWaMessage } from './message.ts';
import { handleAck, handleEdit, handleRevoke, handleSendFailed, handleSent } from './updates.ts';

export type InboundOutcome = string;

/**
 * `refs`: the batch's shared reads of settings, connections and queues (batch-references.ts);
 * `marks`: the batch's deferred link marks (dispatch-marks.ts), written when the batch ends.
 */
export async function processInboundEvent(
  event: InboundEvent,
  effects: Effects = defaultEffects,
  refs: BatchReferences = batchReferences(),
  marks?: RecordMarks,
): Promise<InboundOutcome> {
  switch (event.kind) {
    case 'message': {
      // A contact's reply may confirm a campaign: one GetItem beside the message's own work (campaigns/results.ts).
      const [outcome] = await Promise.all([
        handleWaMessage(event.companyId, event.connectionId, event.message, effects, refs, marks),
        confirmCampaignReply(event, effects),
      ]);
      return outcome;
    }
    case 'ack':
      return handleAck(event, effects, refs);
    case 'revoke':
      return handleRevoke(event, effects, refs);
    case 'edit':
      return handleEdit(event, effects, refs);
    case 'sent':
      return handleSent(event, effects, refs);
    case 'sendFailed':
      return handleSendFailed(event, effects, refs);
    case 'call':
      return handleCall(event, effects, refs, marks);
    case 'contacts':
      return importPhoneContacts(event, effects);
    case 'numbersChecked':
      return applyNumberChecks(event, effects);
    case 'campaignResult':
      return settleCampaignSend(event, effects);
  }
}

/**
 * BEHAVIOUR: a call rejected (setting `call` disabled) leaves a `call_log` message on the contact's
 * ticket; the call id is its dedupe key. Calls that rang through leave nothing.
 */
async function handleCall(
  event: Extract<InboundEvent, { kind: 'call' }>,
  effects: Effects,
  refs: BatchReferences,
  marks?: RecordMarks,
): Promise<InboundOutcome> {
  if (!event.rejected) return 'ignored';
  const timezone = (await refs.settings(event.companyId)).find((s) => s.key === 'timezone')?.value ?? 'UTC';
  const { minutes } = localTime(new Date(event.timestamp), timezone);
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return handleWaMessage(
    event.companyId,
    event.connectionId,
    {
      id: `call:${event.callId}`,
      fromMe: false,
      number: event.number,
      isGroup: false,
      timestamp: event.timestamp,
      body: `Chamada de voz/vídeo perdida às ${hhmm}`,
      mediaType: 'call_log',
    },
    effects,
    refs,
    marks,
  );
}
