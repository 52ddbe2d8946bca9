/**
 * Our sends on a ticket, shared by the attendant's POST /messages/{ticketId} and the external API.
 * Order is what makes a send safe: media goes to the bucket first (under the tenant's prefix), then
 * each message is stored pending and its `send` command queued (queueOutgoingMessage), so nothing
 * reaches WhatsApp unrecorded and no message names an object that is not there. The session-host's
 * `sent`/`sendFailed` later settle each one (ack 1, or the error kept on the message).
 */

import { ConflictError, ValidationError } from '#commons/errors';
import type { MessageOrigin } from '#contracts/messages';
import { putMedia } from '#domain/media/bucket';
import { allowedFileType } from '#domain/media/file-types';
import { outboundMediaKey, safeFileName } from '#domain/media/keys';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { messageIdAt } from '#domain/messages/message-id';
import { queueOutgoingMessage } from '#domain/messages/send';
import { getMessageById, type MessageRecord } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { failUnqueued } from './send-failures.ts';

export interface OutgoingFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** Media already in the bucket (a key of the tenant, checked by the caller). */
export interface StoredMedia {
  key: string;
  mimetype: string;
  filename: string;
}

export interface SendOnTicket {
  companyId: number;
  ticket: TicketRecord;
  userId: number | null;
  /** Text, or captions: one per file, or one for the first file. */
  bodies: string[];
  files: OutgoingFile[];
  /** Media already in the bucket (a quick reply's file, the browser's direct uploads), sent before `files`. */
  stored?: StoredMedia[];
  quotedMessageId?: string;
  /** Audio files go out as voice notes. */
  asVoice?: boolean;
  /** Not the inbox's own send (the external API's): the thread's label. */
  origin?: MessageOrigin;
}

/** `*<name>:*\n<body>` (the spec's sign-message option), never signed twice. */
export function signBody(body: string, name: string): string {
  const prefix = `*${name}:*\n`;
  return body.startsWith(prefix) ? body : `${prefix}${body}`;
}

export function assertOpen(ticket: TicketRecord): void {
  if (ticket.status !== 'open') throw new ConflictError('ERR_TICKET_NOT_OPEN', { status: ticket.status });
}

/**
 * Text that is not blank (SPEC 5), or files that are not empty and of a type WhatsApp sends (no page,
 * SVG or program). Checked before anything is written.
 */
export function assertSendable(bodies: string[], files: OutgoingFile[], hasStoredMedia = false): void {
  if (!files.length && !hasStoredMedia && !(bodies[0] ?? '').trim()) throw new ValidationError('body', 'Message body is required');
  for (const file of files) {
    if (!file.data.length) throw new ValidationError('medias', 'Empty file');
    allowedFileType(file.filename, file.mimetype, 'medias');
  }
}

/** Caption of file `i`: its own when there is one per file, else the first body on the first file. */
const captionFor = (bodies: string[], count: number, i: number): string =>
  bodies.length === count ? (bodies[i] ?? '') : i === 0 ? (bodies[0] ?? '') : '';

export async function checkQuoted(companyId: number, ticket: TicketRecord, id: string | undefined): Promise<string | undefined> {
  if (!id) return undefined;
  const quoted = await getMessageById(companyId, id);
  // A reply quotes a message of the same conversation (this contact's), never another tenant's or contact's.
  if (!quoted || quoted.contactId !== ticket.contactId) throw new ValidationError('quotedMsg.id', 'Quoted message not found');
  return quoted.id;
}

export async function sendOnTicket(input: SendOnTicket, effects: Effects = defaultEffects): Promise<MessageRecord[]> {
  const { companyId, ticket } = input;
  const quotedMessageId = await checkQuoted(companyId, ticket, input.quotedMessageId);
  assertSendable(input.bodies, input.files, Boolean(input.stored?.length));
  const media: StoredMedia[] = [...(input.stored ?? [])];

  // Every upload lands before any message is stored: a failed upload leaves no message behind.
  const uploaded = await Promise.all(
    input.files.map(async (file) => {
      const key = outboundMediaKey(companyId, ticket.id, file.filename);
      const mimetype = allowedFileType(file.filename, file.mimetype, 'medias');
      await putMedia(key, file.data, mimetype);
      return { key, mimetype, filename: safeFileName(file.filename) };
    }),
  );
  media.push(...uploaded);

  const base = effects.now().getTime();
  const sent: MessageRecord[] = [];
  const parts = media.length ? media : [undefined];
  for (const [i, item] of parts.entries()) {
    // Ids carry their time: one millisecond apart keeps several files in the order given.
    const id = messageIdAt(base + i, ticket.id);
    sent.push(
      await queueOutgoingMessage(
        {
          companyId,
          ticket,
          id,
          body: item ? captionFor(input.bodies, parts.length, i) : (input.bodies[0] ?? ''),
          media: item && {
            ...item,
            asVoice: Boolean(input.asVoice && item.mimetype.startsWith('audio/')) || undefined,
          },
          quotedMessageId: i === 0 ? quotedMessageId : undefined,
          userId: input.userId,
          origin: input.origin,
        },
        effects,
        // Stored but its command not queued: shown failed with a retry, not pending forever (503).
      ).catch((error: unknown) => failUnqueued(id, ticket, error, effects)),
    );
  }
  return sent;
}
