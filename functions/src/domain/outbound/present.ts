/**
 * Messages as the API answers them: media points at the private media route (`/public/<key>`),
 * never at the bucket, and the internal send hints (mimetype, asVoice, sendAttempt) and the search index's words
 * (wordIndex, and searchWords of older messages) stay inside. Idempotent, so the realtime publisher can present what a caller
 * already presented.
 */
import type { Message } from '#contracts/messages';
import { MEDIA_ROUTE_PREFIX, mediaRoute } from '#domain/media/keys';
import type { MessageRecord } from '#storage/messages/messages';

const routed = (mediaPath: string | null, mediaUrl: string | null): string | null => {
  const key = mediaPath ?? mediaUrl;
  if (!key) return null;
  // Location cards and the like may carry a real URL rather than a key; a routed one stays as it is.
  return /^[a-z][a-z0-9+.-]*:/i.test(key) || key.startsWith(MEDIA_ROUTE_PREFIX) ? key : mediaRoute(key);
};

export function presentMessage(record: MessageRecord): Message {
  const {
    mimetype: _mimetype,
    asVoice: _asVoice,
    searchWords: _searchWords,
    wordIndex: _wordIndex,
    sendAttempt: _sendAttempt,
    ...message
  } = record as MessageRecord & { mimetype?: string; asVoice?: boolean; searchWords?: string[]; wordIndex?: unknown; sendAttempt?: number };
  return {
    ...message,
    mediaUrl: routed(message.mediaPath, message.mediaUrl),
    quotedMsg: message.quotedMsg ? { ...message.quotedMsg, mediaUrl: routed(null, message.quotedMsg.mediaUrl) } : null,
  };
}
