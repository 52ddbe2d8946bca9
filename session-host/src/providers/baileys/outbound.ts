/**
 * Session commands as Baileys `sendMessage` calls.
 */
import type { AnyMessageContent, MiscMessageGenerationOptions, WAMessage } from '@whiskeysockets/baileys';
import type { DeleteCommand, EditCommand, SendCommand } from '../../provider.ts';
import { toJid } from './jids.ts';
import { getMedia, type MediaStore } from './media.ts';

export async function sendContent(command: SendCommand, media: MediaStore): Promise<AnyMessageContent> {
  if (!command.media) return { text: command.body };
  const bytes = await getMedia(media, command.media.key);
  const { mimetype, filename } = command.media;
  const caption = command.body || undefined;
  if (mimetype.startsWith('image/') && mimetype !== 'image/webp') return { image: bytes, mimetype, caption };
  if (mimetype.startsWith('video/')) return { video: bytes, mimetype, caption };
  if (mimetype.startsWith('audio/')) {
    // A voice note must be ogg/opus for WhatsApp to play it as one.
    return command.media.asVoice ? { audio: bytes, mimetype: 'audio/ogg; codecs=opus', ptt: true } : { audio: bytes, mimetype };
  }
  return { document: bytes, mimetype, fileName: filename ?? command.media.key.split('/').pop() ?? 'file', caption };
}

export function sendOptions(command: SendCommand, waMessageId: string): MiscMessageGenerationOptions {
  const options: MiscMessageGenerationOptions = { messageId: waMessageId };
  if (command.quotedWaId) {
    // Baileys builds the quote's contextInfo (stanzaId, participant) from a message; only its key matters here.
    const quoted: WAMessage = {
      key: { remoteJid: toJid(command.number, command.isGroup), id: command.quotedWaId, fromMe: Boolean(command.quotedFromMe) },
      message: { conversation: '' },
    };
    options.quoted = quoted;
  }
  return options;
}

export function deleteContent(command: DeleteCommand): { jid: string; content: AnyMessageContent } {
  const jid = toJid(command.number, command.isGroup);
  return { jid, content: { delete: { remoteJid: jid, fromMe: command.fromMe, id: command.waMessageId } } };
}

export function editContent(command: EditCommand): { jid: string; content: AnyMessageContent } {
  const jid = toJid(command.number, command.isGroup);
  return { jid, content: { text: command.body, edit: { remoteJid: jid, fromMe: true, id: command.waMessageId } } };
}
