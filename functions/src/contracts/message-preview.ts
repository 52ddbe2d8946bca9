// No zod here: the storage layer and the web import it.
import type { MediaType } from './session-events.ts';

const mediaMarks: Record<MediaType, string> = {
  image: '📷',
  audio: '🎤',
  video: '🎥',
  application: '📄',
  stickerMessage: '🏷️',
  locationMessage: '📍',
  vcard: '👤',
  call_log: '📞',
};

/**
 * What a ticket row shows as its last message: the text, or for media without a caption a mark of
 * its kind (language-neutral) with the file name; a location shows its description (SPEC 2: a
 * location body is `image|link|description`).
 */
export function messagePreview(message: { body: string; mediaType: MediaType | null; mediaName?: string | null }): string {
  if (message.mediaType === 'locationMessage') {
    const description = message.body.split('|')[2]?.trim();
    return description ? `${mediaMarks.locationMessage} ${description}` : mediaMarks.locationMessage;
  }
  const text = message.body.trim();
  if (text || !message.mediaType) return text;
  const mark = mediaMarks[message.mediaType] ?? '📎';
  return message.mediaName ? `${mark} ${message.mediaName}` : mark;
}
