/** Messages (SPEC 3 "Message", 4 "Message ack") as the API and the realtime channel carry them. */

import type { Contact } from './contacts.ts';
import type { MentionedUser } from './mentions.ts';
import type { MediaType } from './session-events.ts';
import type { Ticket } from './tickets.ts';

/** What a reply shows of the message it quotes (denormalised when the reply is stored). */
export interface QuotedMessage {
  id: string;
  body: string;
  fromMe: boolean;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  contact: { name: string } | null;
}

/**
 * What sent one of our messages, when no attendant typed it: shown in the thread as a small label.
 * `greeting`: the attendant's greeting on accept; `automatic`: the ticket actions' and sweeps'
 * messages (transfer notice, rating request, completion, expiry).
 */
export const messageOrigins = ['campaign', 'schedule', 'api', 'bot', 'greeting', 'automatic'] as const;
export type MessageOrigin = (typeof messageOrigins)[number];

export interface Message {
  /** Our id: a UUID (v7, ordered by the message's time), the idempotency key of its send. */
  id: string;
  ticketId: number;
  contactId: number;
  companyId: number;
  /** The connection the message went through. */
  whatsappId: number;
  /** WhatsApp's id, once known (inbound at once; ours after the session reports it sent). */
  waId: string | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  mediaType: MediaType | null;
  /** Object key in the private media bucket; served presigned or through the API. */
  mediaPath: string | null;
  mediaUrl: string | null;
  mediaName: string | null;
  /** 0 pending (ours, not yet on WhatsApp), 1 sent ... 5 played; only ever goes up. */
  ack: number;
  isDeleted: boolean;
  isEdited: boolean;
  quotedMsgId: string | null;
  quotedMsg: QuotedMessage | null;
  /** Who wrote it: the contact, or in groups the member. */
  contact: { name: string } | null;
  /** Ours, not yet confirmed by the session. */
  pending: boolean;
  /** Why our send failed; the message stays, marked, never silently lost. */
  error: string | null;
  /** Sent by the chatbot (its echo is ignored). */
  bot: boolean;
  /** The attendant who sent it. */
  userId: number | null;
  /** Where it came from when not typed in the inbox or on the phone (absent on those and on older messages). */
  origin?: MessageOrigin | null;
  /**
   * A private note (issue 22 §6): an attendant's text kept in the thread for colleagues. Never sent
   * to the phone (no send command, no WhatsApp id, no acks), never in a webhook, not the ticket's
   * lastMessage, not a first response. Absent on every other message.
   */
  isPrivate?: boolean;
  /** The colleagues a private note mentions (`@name`, contracts/mentions.ts); absent on every other message. */
  mentions?: MentionedUser[];
  createdAt: string;
  updatedAt: string;
}

/** `company-{id}-appMessage` payload. */
export interface AppMessageEvent {
  action: 'create' | 'update';
  message: Message;
  ticket: Ticket;
  contact: Contact;
}

/**
 * POST /messages/{ticketId}/uploads: where the browser PUTs one file (with these headers, before
 * `expiresIn` seconds pass), then sends it with POST /messages/{ticketId} `{ mediaUrls: [key] }`.
 */
export interface MediaUpload {
  key: string;
  /** The private route that will serve it (`/public/<key>`). */
  mediaUrl: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresIn: number;
}
