/**
 * Sends that fail stay visible and can go again. A message whose send failed keeps its place in the
 * conversation with the reason (`error`: the session-host's code, or ours when its command could not
 * even be queued), never a clock that spins forever; POST /messages/{id}/retry sends it again.
 *
 * A retry is the next attempt of the same message (`sendAttempt`): the message goes back to pending
 * only from the failed state of the attempt before (a conditional write), so a double click, two
 * attendants or a retried request send once; its command id is `<id>#<attempt>` (SQS dedupes a
 * repeated command) and the session-host keeps one send record per attempt (send-executor.ts), so the
 * retry is sent although the first attempt's record says failed. The WhatsApp id stays the one
 * derived from the message id: an attempt that reached WhatsApp after all is not doubled there.
 * The retry itself is the attendant's (outbound/attendant.ts); this file holds what both share.
 */
import { AppError } from '#commons/errors';
import { logger } from '#commons/logger';
import type { Effects } from '#domain/messages/effects';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import { publishMessage } from '#domain/tickets/publish';
import { getContact } from '#storage/contacts/contacts';
import { getMessage, type MessageRecord } from '#storage/messages/messages';
import { markFailed } from '#storage/messages/status';
import type { TicketRecord } from '#storage/tickets/record';

/** The reason kept on a message whose send command could not be queued. */
export const NOT_QUEUED = 'ERR_SENDING_WAPP_MSG';

/** The message is stored (marked failed, retryable) but its send could not be queued: try again later. */
export class SendNotQueuedError extends AppError {
  constructor() {
    super(NOT_QUEUED, 503, { reason: 'The message was kept, marked as not sent; retry it' });
  }
}

export const sendAttemptOf = (message: MessageRecord): number => (message as { sendAttempt?: number }).sendAttempt ?? 0;

export async function publishUpdate(message: MessageRecord, ticket: TicketRecord, effects: Effects): Promise<void> {
  const contact = await getContact(ticket.companyId, ticket.contactId);
  if (contact) await publishMessage(effects, 'update', message, presentTicket(ticket, await loadTicketRefs(ticket)), contact);
}

/**
 * After a stored message's `send` command failed to reach the queue: the message is marked failed
 * (unless its send was settled meanwhile) and the update published, so the attendant sees it failed
 * with a retry instead of pending forever. Then SendNotQueuedError (503).
 */
export async function failUnqueued(messageId: string, ticket: TicketRecord, cause: unknown, effects: Effects): Promise<never> {
  logger.error('send command not queued', { messageId, error: cause instanceof Error ? cause : String(cause) });
  const stored = await getMessage(ticket.companyId, ticket.id, messageId);
  const failed = stored && (await markFailed(ticket.companyId, ticket.id, messageId, NOT_QUEUED, sendAttemptOf(stored)));
  if (!failed) throw cause; // never stored: nothing to show, the request fails as it is
  await publishUpdate(failed, ticket, effects);
  throw new SendNotQueuedError();
}
