/**
 * Exactly-once sends. The order of the steps is the point:
 *   1. claim the send record (conditional): a settled record means "re-report, do not send";
 *   2. send with the WhatsApp id derived from our messageId;
 *   3. record `sent` with the WhatsApp id and time;
 *   4. report `sent` on the inbound queue (durable), and only then may the command be deleted.
 * A crash after 2 and before 3 resends with the same WhatsApp id (one message on WhatsApp); after 3,
 * the redelivered command only re-reports. A retry of a failed send (`attempt` n) has a record of its
 * own, so it is sent, once, although the first attempt's record says failed; it keeps the WhatsApp id,
 * so an attempt that reached WhatsApp after all is not doubled there.
 */
import type { InboundEvent } from '@conversa/functions/contracts/session-events';
import { waMessageIdFor } from '@conversa/functions/contracts/wa-message-id';
import type { InboundPublisher } from './inbound-publisher.ts';
import type { HostMetrics } from './metrics.ts';
import type { SendCommand, SessionHandle } from './provider.ts';
import { claimSend, recordFailed, recordSent, type SendRecord } from './storage/send-records.ts';

/** A provider error that retrying cannot fix (bad number, missing media): reported, not retried. */
export class PermanentSendError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'PermanentSendError';
  }
}

/** Attempts (claims) after which a send that keeps throwing is reported as failed. */
export const MAX_SEND_ATTEMPTS = 3;

export const NOT_INITIALIZED = 'ERR_WAPP_NOT_INITIALIZED';
export const SEND_ERROR = 'ERR_SENDING_WAPP_MSG';

export interface SendHooks {
  /** Test seam: runs between the provider send and the `sent` record (where a crash hurts most). */
  afterProviderSend?: (command: SendCommand) => Promise<void> | void;
}

/** Where a send's outcome goes: the inbound queue, and the SendFailures count. */
export interface SendContext {
  inbound: InboundPublisher;
  metrics: HostMetrics;
  hooks?: SendHooks;
  now?: () => number;
}

export async function executeSend(command: SendCommand, handle: SessionHandle, ctx: SendContext): Promise<void> {
  const { inbound, hooks = {}, now = Date.now } = ctx;
  const waMessageId = waMessageIdFor(command.companyId, command.connectionId, command.messageId);
  const claim = await claimSend(command.companyId, sendRecordId(command), { connectionId: command.connectionId, waMessageId, now: now() });
  if (!claim.claimed) {
    await inbound.publish(outcomeEvent(command, claim.record));
    return;
  }
  let result: { waMessageId: string; timestamp: number };
  try {
    result = await handle.send(command, { waMessageId });
  } catch (error) {
    const permanent = error instanceof PermanentSendError || hasErrorCode(error);
    if (!permanent && claim.attempts < MAX_SEND_ATTEMPTS) throw error;
    const code = permanent ? errorCode(error) : SEND_ERROR;
    await failSend(command, code, ctx);
    return;
  }
  await hooks.afterProviderSend?.(command);
  await recordSent(command.companyId, sendRecordId(command), result);
  await inbound.publish(outcomeEvent(command, { state: 'sent', connectionId: command.connectionId, ...result }));
}

/**
 * Records and reports a send that will not happen. A send already `sent` is re-reported as sent instead.
 * Counted in SendFailures once the report is queued (a redelivered command that only re-reports a
 * settled failure, in executeSend, is not counted again).
 */
export async function failSend(command: SendCommand, code: string, ctx: SendContext): Promise<void> {
  const now = ctx.now ?? Date.now;
  const record = await recordFailed(command.companyId, sendRecordId(command), {
    connectionId: command.connectionId,
    error: code,
    now: now(),
  });
  await ctx.inbound.publish(outcomeEvent(command, record));
  if (record.state === 'failed') ctx.metrics.sendFailed();
}

function outcomeEvent(command: SendCommand, record: SendRecord): InboundEvent {
  // A campaign's send has no ticket: its result goes to the campaign engine.
  if (command.campaignId !== undefined || command.ticketId === undefined) return campaignOutcome(command, record);
  const base = {
    companyId: command.companyId,
    connectionId: command.connectionId,
    messageId: command.messageId,
    ticketId: command.ticketId,
    number: command.number,
    ...(command.attempt ? { attempt: command.attempt } : {}),
  };
  if (record.state === 'sent') {
    return { kind: 'sent', ...base, waMessageId: record.waMessageId, timestamp: record.timestamp ?? Date.now() };
  }
  return { kind: 'sendFailed', ...base, error: record.error ?? SEND_ERROR };
}

function campaignOutcome(command: SendCommand, record: SendRecord): InboundEvent {
  const base = {
    kind: 'campaignResult' as const,
    companyId: command.companyId,
    connectionId: command.connectionId,
    campaignId: command.campaignId ?? 0,
    messageId: command.messageId,
    number: command.number,
  };
  // What went out rides along, so the conversation can show it without reading the campaign again.
  if (record.state === 'sent')
    return {
      ...base,
      waMessageId: record.waMessageId,
      timestamp: record.timestamp ?? Date.now(),
      body: command.body,
      ...(command.media ? { media: { key: command.media.key, mimetype: command.media.mimetype, filename: command.media.filename } } : {}),
    };
  return { ...base, error: record.error ?? SEND_ERROR };
}

/** One send record per attempt of a message (the first keeps the bare message id). */
const sendRecordId = (command: SendCommand): string => (command.attempt ? `${command.messageId}#${command.attempt}` : command.messageId);

function hasErrorCode(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('ERR_');
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('ERR_') ? code : SEND_ERROR;
}
