/**
 * What a WhatsApp message says, independent of who sent it: body, media kind, location, quote.
 * Pure, so the mapping of every message type is testable without a socket.
 */
import type { MediaType } from '@conversa/functions/contracts/session-events';
import { extractMessageContent, getContentType, type proto } from '@whiskeysockets/baileys';

export interface MessageContent {
  body: string;
  mediaType?: MediaType;
  /** Set when the message carries a downloadable file. */
  file?: { mimetype: string; filename?: string; size?: number };
  location?: { latitude: number; longitude: number; description?: string };
  quotedId?: string;
}

const numberOf = (value: number | { toNumber(): number } | null | undefined): number | undefined =>
  value === null || value === undefined ? undefined : typeof value === 'number' ? value : value.toNumber();

const text = (value: string | null | undefined): string => value ?? '';

/** Content types that are never a message of the conversation. */
const IGNORED = new Set<string>([
  'protocolMessage',
  'reactionMessage',
  'senderKeyDistributionMessage',
  'pollUpdateMessage',
  'keepInChatMessage',
  'encReactionMessage',
  'messageContextInfo',
]);

/**
 * The conversation content of a message, or undefined for what the inbox does not show
 * (protocol messages, reactions, key distribution, empty stubs).
 */
export function describeContent(raw: proto.IMessage | null | undefined): MessageContent | undefined {
  const message = extractMessageContent(raw);
  if (!message) return undefined;
  const type = getContentType(message);
  if (!type || IGNORED.has(type)) return undefined;
  const content = describeType(message, type);
  if (!content) return undefined;
  const inner = message[type] as { contextInfo?: proto.IContextInfo | null } | null | undefined;
  const quotedId = inner && typeof inner === 'object' ? inner.contextInfo?.stanzaId : undefined;
  return quotedId ? { ...content, quotedId } : content;
}

function describeType(m: proto.IMessage, type: keyof proto.IMessage): MessageContent | undefined {
  switch (type) {
    case 'conversation':
      return { body: text(m.conversation) };
    case 'extendedTextMessage':
      return { body: text(m.extendedTextMessage?.text) };
    case 'imageMessage': {
      const media = m.imageMessage!;
      return { body: text(media.caption), mediaType: 'image', file: file(media.mimetype, 'image/jpeg', undefined, media.fileLength) };
    }
    case 'videoMessage': {
      const media = m.videoMessage!;
      return { body: text(media.caption), mediaType: 'video', file: file(media.mimetype, 'video/mp4', undefined, media.fileLength) };
    }
    case 'audioMessage': {
      const media = m.audioMessage!;
      return { body: '', mediaType: 'audio', file: file(media.mimetype, 'audio/ogg', undefined, media.fileLength) };
    }
    case 'documentMessage': {
      const media = m.documentMessage!;
      const filename = media.fileName ?? undefined;
      return {
        body: text(media.caption) || text(filename),
        mediaType: 'application',
        file: file(media.mimetype, 'application/octet-stream', filename, media.fileLength),
      };
    }
    case 'stickerMessage': {
      const media = m.stickerMessage!;
      return { body: '', mediaType: 'stickerMessage', file: file(media.mimetype, 'image/webp', undefined, media.fileLength) };
    }
    case 'locationMessage':
    case 'liveLocationMessage': {
      const fixed = m.locationMessage;
      const live = m.liveLocationMessage;
      const latitude = fixed?.degreesLatitude ?? live?.degreesLatitude ?? 0;
      const longitude = fixed?.degreesLongitude ?? live?.degreesLongitude ?? 0;
      const description = [fixed?.name, fixed?.address, fixed?.comment, live?.caption].filter(Boolean).join(' - ');
      return {
        body: description || `${latitude},${longitude}`,
        mediaType: 'locationMessage',
        location: description ? { latitude, longitude, description } : { latitude, longitude },
      };
    }
    case 'contactMessage':
      return { body: text(m.contactMessage?.vcard), mediaType: 'vcard' };
    case 'contactsArrayMessage':
      return { body: (m.contactsArrayMessage?.contacts ?? []).map((c) => text(c.vcard)).join('\n'), mediaType: 'vcard' };
    case 'buttonsResponseMessage':
      return { body: text(m.buttonsResponseMessage?.selectedDisplayText ?? m.buttonsResponseMessage?.selectedButtonId) };
    case 'listResponseMessage':
      return { body: text(m.listResponseMessage?.title ?? m.listResponseMessage?.singleSelectReply?.selectedRowId) };
    case 'templateButtonReplyMessage':
      return { body: text(m.templateButtonReplyMessage?.selectedDisplayText ?? m.templateButtonReplyMessage?.selectedId) };
    default:
      return undefined;
  }
}

function file(
  mimetype: string | null | undefined,
  fallback: string,
  filename: string | undefined,
  size: number | { toNumber(): number } | null | undefined,
): MessageContent['file'] {
  const length = numberOf(size);
  return { mimetype: mimetype || fallback, ...(filename ? { filename } : {}), ...(length !== undefined ? { size: length } : {}) };
}
