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
 * At most this many characters (graphemes) of a message are the ticket's preview (issue 24 §2): a
 * row shows one line of it, and the ticket item, which every message of the ticket rewrites with
 * its three list copies, stays under 1 KB (a 2 KB preview doubled each of those writes).
 */
export const PREVIEW_MAX = 160;

/** `text` cut to PREVIEW_MAX characters, the last one an ellipsis when it was longer; never inside a character. */
export function capPreview(text: string): string {
  if (text.length <= PREVIEW_MAX) return text;
  const characters = Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (part) => part.segment);
  if (characters.length <= PREVIEW_MAX) return text;
  const kept = characters.slice(0, PREVIEW_MAX - 1).join('');
  return `${kept.trimEnd()}…`;
}

/**
 * What a ticket row shows as its last message: the text, or for media without a caption a mark of
 * its kind (language-neutral) with the file name; a location shows its description (SPEC 2: a
 * location body is `image|link|description`). Capped (capPreview).
 */
export function messagePreview(message: { body: string; mediaType: MediaType | null; mediaName?: string | null }): string {
  if (message.mediaType === 'locationMessage') {
    const description = message.body.split('|')[2]?.trim();
    return capPreview(description ? `${mediaMarks.locationMessage} ${description}` : mediaMarks.locationMessage);
  }
  const text = message.body.trim();
  if (text || !message.mediaType) return capPreview(text);
  const mark = mediaMarks[message.mediaType] ?? '📎';
  return capPreview(message.mediaName ? `${mark} ${message.mediaName}` : mark);
}
