/**
 * Mentions (issue 22 §6), shared by the functions and the web. `@name` in a private note names a
 * colleague of the company: POST /messages/{ticketId} `{body, isPrivate: true, mentions: [userId]}`.
 * Each mentioned user gets a mention (GET /mentions, the `mention` event, the bell) that opens the
 * ticket, and may read that ticket (its record, thread and media, never write to it) while the
 * mention is unread or for a day after it was made, whichever ends later, even outside their queues.
 */

/** Colleagues one note may mention. */
export const MAX_MENTIONS = 20;
/** How long a mention lets its user read the ticket after it was made, read or not. */
export const MENTION_GRANT_HOURS = 24;
/** The mentions GET /mentions answers at most (newest first). */
export const MENTIONS_PAGE = 50;
/** Characters of the note a mention keeps to show in the bell. */
export const MENTION_EXCERPT_MAX = 140;

/** Who a note mentions, kept on the note so the thread can mark the names. */
export interface MentionedUser {
  id: number;
  name: string;
}

export interface Mention {
  /** The note's message id (one mention per note and user). */
  id: string;
  ticketId: number;
  ticketUuid: string;
  /** The ticket's contact, as the bell names the conversation. */
  contactName: string;
  authorId: number;
  authorName: string;
  excerpt: string;
  createdAt: string;
  /** When its user opened the ticket after it (null while unread). */
  readAt: string | null;
}

/** `company-{id}-mention` payload, to the mentioned user's sockets only. */
export type MentionEvent = { action: 'create'; mention: Mention } | { action: 'read'; ticketId: number };
