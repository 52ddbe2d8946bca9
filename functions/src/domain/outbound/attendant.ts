/**
 * The attendant's side of the conversation: POST /messages/{ticketId} and DELETE /messages/{id}.
 * Both act only on tickets the caller may see (tickets/access.ts); another tenant's ids are not found.
 */

import { AppError, ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import type { Message } from '#contracts/messages';
import { waMessageIdFor } from '#contracts/wa-message-id';
import { sendableMedia } from '#domain/media/access';
import { headMedia } from '#domain/media/bucket';
import { allowedFileType } from '#domain/media/file-types';
import { keyFromMediaUrl } from '#domain/media/keys';
import { FileTooLargeError, MAX_FILE_BYTES } from '#domain/media/multipart';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { sendCommandFor } from '#domain/messages/send';
import { loadVisibleTicket, type Viewer } from '#domain/tickets/access';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import { publishMessage } from '#domain/tickets/publish';
import { getContact } from '#storage/contacts/contacts';
import { getMessage, getMessageById } from '#storage/messages/messages';
import { markDeleted, reopenFailedSend } from '#storage/messages/status';
import { getTicket } from '#storage/tickets/tickets';
import { presentMessage } from './present.ts';
import { assertOpen, type OutgoingFile, type StoredMedia, sendOnTicket, signBody } from './send.ts';
import { failUnqueued, publishUpdate, sendAttemptOf } from './send-failures.ts';

export interface AttendantSend {
  bodies: string[];
  files: OutgoingFile[];
  /** Keys (or /public URLs) of media already in the bucket: a quick reply's file, direct uploads. */
  mediaUrls?: string[];
  quotedMessageId?: string;
  signMessage?: boolean;
  asVoice?: boolean;
}

/**
 * A stored file the caller may send on this ticket (media/access.ts: uploaded for it, or a quick
 * message's they may see) that exists within the size limit (JSON `mediaUrl(s)`).
 */
async function storedMedia(viewer: Viewer, ticketId: number, mediaUrl: string, field: string): Promise<StoredMedia> {
  const key = await sendableMedia(viewer, ticketId, keyFromMediaUrl(mediaUrl));
  const head = key ? await headMedia(key) : undefined;
  if (!key || !head) throw new ValidationError(field, 'Media not found');
  if (head.size > MAX_FILE_BYTES) throw new FileTooLargeError(field, MAX_FILE_BYTES);
  if (!head.size) throw new ValidationError(field, 'Empty file');
  const filename = key.split('/').at(-1) ?? 'file';
  return { key, mimetype: allowedFileType(filename, head.contentType, field), filename };
}

export async function sendAttendantMessage(
  viewer: Viewer,
  ticketId: number,
  request: AttendantSend,
  effects: Effects = defaultEffects,
): Promise<Message[]> {
  const ticket = await loadVisibleTicket(viewer, ticketId);
  assertOpen(ticket);
  const bodies = request.signMessage
    ? request.bodies.map((body) => (body.trim() ? signBody(body, viewer.user.name) : body))
    : request.bodies;
  const stored = request.files.length
    ? []
    : await Promise.all((request.mediaUrls ?? []).map((url, i) => storedMedia(viewer, ticket.id, url, `mediaUrls.${i}`)));
  const sent = await sendOnTicket(
    {
      companyId: viewer.companyId,
      ticket,
      userId: viewer.userId,
      bodies,
      files: request.files,
      stored,
      quotedMessageId: request.quotedMessageId,
      asVoice: request.asVoice,
    },
    effects,
  );
  return sent.map(presentMessage);
}

export class DeleteMessageError extends AppError {
  constructor(status: number, reason: string) {
    super('ERR_DELETE_WAPP_MSG', status, { reason });
  }
}

/**
 * Deletes one of our messages for everyone: the `delete` command goes to the session first (same
 * FIFO group as the send, so it follows a send still in flight), then the message is marked. A
 * send that failed never reached WhatsApp: it is only marked.
 */
export async function deleteAttendantMessage(viewer: Viewer, messageId: string, effects: Effects = defaultEffects): Promise<Message> {
  const message = await getMessageById(viewer.companyId, messageId);
  if (!message) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
  const ticket = await loadVisibleTicket(viewer, message.ticketId);
  if (!message.fromMe) throw new DeleteMessageError(400, 'Only our own messages can be deleted');
  if (message.isDeleted) return presentMessage(message);

  // A failed send never reached WhatsApp; a private note never goes there (outbound/note.ts).
  const neverSent = message.isPrivate || (!message.pending && message.ack === 0 && Boolean(message.error));
  if (!neverSent) {
    try {
      await effects.sendCommand({
        kind: 'delete',
        companyId: message.companyId,
        connectionId: message.whatsappId,
        commandId: `delete-${message.id}`,
        waMessageId: message.waId ?? waMessageIdFor(message.companyId, message.whatsappId, message.id),
        number: ticket.contact.number,
        isGroup: ticket.isGroup,
        fromMe: true,
      });
    } catch (error) {
      logger.warn('Delete command not sent', { messageId: message.id, error: error instanceof Error ? error : String(error) });
      throw new DeleteMessageError(503, 'The session could not be reached');
    }
  }
  const deleted = presentMessage((await markDeleted(message.companyId, message.ticketId, message.id)) ?? { ...message, isDeleted: true });
  const contact = await getContact(ticket.companyId, ticket.contactId);
  // Read again: deleting the last message changed the ticket's preview (lastMessageDeleted).
  const current = (await getTicket(ticket.companyId, ticket.id)) ?? ticket;
  if (contact) await publishMessage(effects, 'update', deleted, presentTicket(current, await loadTicketRefs(current)), contact);
  return deleted;
}

/**
 * POST /messages/{id}/retry: sends a failed message of ours again, as its next attempt
 * (outbound/send-failures.ts).
 * A message not failed (any more) comes back as it is.
 */
export async function retryAttendantMessage(viewer: Viewer, messageId: string, effects: Effects = defaultEffects): Promise<Message> {
  const message = await getMessageById(viewer.companyId, messageId);
  if (!message) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
  const ticket = await loadVisibleTicket(viewer, message.ticketId);
  if (!message.fromMe || message.isDeleted)
    throw new ConflictError('ERR_SENDING_WAPP_MSG', { reason: 'Only our own messages are sent again' });
  // Already retried (a second click) or sent after all: nothing to do, answer what it is now.
  if (!message.error) return presentMessage(message);
  assertOpen(ticket);
  const attempt = sendAttemptOf(message) + 1;
  const reopened = await reopenFailedSend(viewer.companyId, ticket.id, message.id, attempt);
  if (!reopened) return presentMessage((await getMessage(viewer.companyId, ticket.id, message.id)) ?? message);
  try {
    await effects.sendCommand(await sendCommandFor(reopened, ticket));
  } catch (error) {
    return failUnqueued(reopened.id, ticket, error, effects);
  }
  await publishUpdate(reopened, ticket, effects);
  return presentMessage(reopened);
}
