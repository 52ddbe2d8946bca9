/**
 * Our outgoing messages (the chatbot's now; issue 4's POST /messages and the external API reuse it).
 * Order matters and is the whole point: the message is stored as pending (fromMe, ack 0) FIRST,
 * then the `send` command goes to the session-host with commandId = messageId. A crash in between
 * leaves a pending message that a retry re-sends with the same id (SQS dedupes the command, the host
 * sends with the WhatsApp id derived from it); a failed send comes back as `sendFailed` and marks
 * the message. Nothing is ever sent that was not recorded first.
 */
import type { Contact } from '#contracts/contacts';
import type { MessageOrigin } from '#contracts/messages';
import { wellFormedText } from '#contracts/queue-body';
import type { InboundMedia, MediaType, SessionCommand } from '#contracts/session-events';
import { loadTicketRefs, presentTicket, type TicketRefs } from '#domain/tickets/present';
import { publishMessage, publishTicket } from '#domain/tickets/publish';
import { getContact } from '#storage/contacts/contacts';
import { getMessage, getMessageById, type MessageRecord, storeMessage } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';
import type { Effects } from './effects.ts';
import { defaultEffects } from './effects.ts';
import { messageIdAt } from './message-id.ts';

export interface OutgoingMessageInput {
  companyId: number;
  ticket: TicketRecord;
  body: string;
  media?: InboundMedia & { asVoice?: boolean };
  quotedMessageId?: string;
  userId?: number | null;
  bot?: boolean;
  /** Where it came from (campaign, schedule, api...): the thread's label. */
  origin?: MessageOrigin;
  /** Our id, when the caller needs a stable one (retries); a fresh UUID v7 otherwise. */
  id?: string;
}

export function mediaTypeOf(mimetype: string): MediaType {
  const kind = mimetype.split('/')[0];
  if (kind === 'image' || kind === 'audio' || kind === 'video') return kind;
  return 'application';
}

/** A message's reference to the one it quotes, with the copy its bubble shows (either way in or out). */
export function quoting(quoted: MessageRecord | undefined): Pick<MessageRecord, 'quotedMsgId' | 'quotedMsg'> {
  if (!quoted) return { quotedMsgId: null, quotedMsg: null };
  const { id, body, fromMe, mediaType, mediaUrl, contact } = quoted;
  return { quotedMsgId: id, quotedMsg: { id, body, fromMe, mediaType, mediaUrl, contact } };
}

/** The pending record of an outgoing message (not stored yet). */
export async function buildOutgoingMessage(input: OutgoingMessageInput, now: Date): Promise<MessageRecord> {
  const quoted = input.quotedMessageId ? await getMessageById(input.companyId, input.quotedMessageId) : undefined;
  const at = now.toISOString();
  return {
    id: input.id ?? messageIdAt(now.getTime(), input.ticket.id),
    companyId: input.companyId,
    ticketId: input.ticket.id,
    contactId: input.ticket.contactId,
    whatsappId: input.ticket.whatsappId,
    waId: null,
    // Stored as it will be sent: a lone surrogate cannot reach WhatsApp (contracts/queue-body.ts).
    body: wellFormedText(input.body),
    fromMe: true,
    read: true,
    mediaType: input.media ? mediaTypeOf(input.media.mimetype) : null,
    mediaPath: input.media?.key ?? null,
    mediaUrl: input.media?.key ?? null,
    mediaName: input.media?.filename ?? null,
    ack: 0,
    isDeleted: false,
    isEdited: false,
    ...quoting(quoted),
    contact: null,
    pending: true,
    error: null,
    bot: input.bot ?? false,
    userId: input.userId ?? null,
    ...(input.origin ? { origin: input.origin } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

export async function sendCommandFor(message: MessageRecord, ticket: TicketRecord, media?: { asVoice?: boolean }): Promise<SessionCommand> {
  // A private note (outbound/note.ts) stays in the inbox: no path may turn it into a send.
  if (message.isPrivate) throw new Error(`Message ${message.id} is a private note: never sent`);
  const quoted = message.quotedMsgId ? await getMessage(message.companyId, ticket.id, message.quotedMsgId) : undefined;
  // A retry of a failed send is its next attempt, a command of its own (outbound/send-failures.ts).
  const attempt = (message as { sendAttempt?: number }).sendAttempt;
  return {
    kind: 'send',
    companyId: message.companyId,
    connectionId: message.whatsappId,
    commandId: attempt ? `${message.id}#${attempt}` : message.id,
    messageId: message.id,
    ...(attempt ? { attempt } : {}),
    ticketId: ticket.id,
    number: ticket.contact.number,
    isGroup: ticket.isGroup,
    body: message.body,
    media:
      message.mediaPath && message.mediaType
        ? {
            key: message.mediaPath,
            mimetype: mimetypeHint(message),
            filename: message.mediaName ?? undefined,
            asVoice: media?.asVoice ?? (message as { asVoice?: boolean }).asVoice,
          }
        : undefined,
    quotedWaId: quoted?.waId ?? undefined,
    quotedFromMe: quoted?.fromMe,
  };
}

/** The stored mimetype when known; the media type otherwise (the host sniffs the object). */
const mimetypeHint = (message: MessageRecord & { mimetype?: string }): string => message.mimetype ?? `${message.mediaType}/*`;

/**
 * After the commit: the `send` command for each still-pending message, then the realtime events.
 * Safe to repeat (SQS dedupes on commandId = messageId, the host sends with a derived WhatsApp id).
 */
export async function dispatchOutgoing(
  messages: MessageRecord[],
  ticket: TicketRecord,
  effects: Effects,
  refs: TicketRefs = {},
  /** What the caller already holds: the ticket as it now stands (just committed) and its contact, so they are not read again. */
  known: { current?: TicketRecord; contact?: Contact; names?: TicketRefs } = {},
): Promise<void> {
  for (const message of messages) {
    if (message.pending && !message.isPrivate && !message.error && message.ack === 0)
      await effects.sendCommand(await sendCommandFor(message, ticket));
  }
  if (!messages.length) return;
  const [current, contact] = await Promise.all([
    known.current ?? getTicket(ticket.companyId, ticket.id),
    known.contact ?? getContact(ticket.companyId, ticket.contactId),
  ]);
  if (!current || !contact) return;
  const presented = presentTicket(current, known.names ?? (await loadTicketRefs(current, refs)));
  for (const message of messages) await publishMessage(effects, 'create', message, presented, contact);
  await publishTicket(effects, presented);
}

/** Stores `body` as our pending message on the ticket, then sends it. Returns the stored message. */
export async function queueOutgoingMessage(input: OutgoingMessageInput, effects: Effects = defaultEffects): Promise<MessageRecord> {
  const built = await buildOutgoingMessage(input, effects.now());
  // Stored with the message (like mimetype) so a resend after a crash is still a voice note.
  const media = input.media ? { ...built, mimetype: input.media.mimetype, ...(input.media.asVoice ? { asVoice: true } : {}) } : built;
  const outcome = await storeMessage(media, input.ticket, { unread: false, requireActive: false });
  // A retry with the same id finds its message stored: send what is still pending, store nothing new.
  const message = outcome === 'duplicate' ? ((await getMessage(input.companyId, input.ticket.id, built.id)) ?? media) : media;
  await dispatchOutgoing([message], input.ticket, effects);
  return message;
}
