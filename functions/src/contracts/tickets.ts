/** Tickets (SPEC 3 "Ticket", 4 "Ticket") as the API and the realtime channel carry them. */
import type { TicketSla } from './sla.ts';

export const ticketStatuses = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

export interface TicketContactSummary {
  name: string;
  number: string;
  profilePicUrl: string;
}

export interface Ticket {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  contactId: number;
  contact: TicketContactSummary & { id: number };
  whatsappId: number;
  whatsapp: { id: number; name: string } | null;
  tags: { id: number; name: string; color: string }[];
  lastMessage: string;
  /** The last message was deleted: lastMessage is empty and the client shows its own "deleted" marker. */
  lastMessageDeleted: boolean;
  unreadMessages: number;
  isGroup: boolean;
  /** The chatbot is talking to the contact (menu or option tree): the list shows the bot icon. */
  chatbot: boolean;
  /** The resolve flow sent the rating message and waits for a 1-3 reply (BEHAVIOUR "Tickets"). */
  awaitingRating: boolean;
  rating: number | null;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  /** Service level of its queue (contracts/sla.ts): due times and state; null when the queue promises nothing. */
  sla?: TicketSla | null;
  /**
   * Snoozed (issue 22 §5): out of the open and pending lists until this time, then back where it was
   * (its attendant's open list, or Pending). Null when not snoozed.
   */
  snoozedUntil?: string | null;
  /**
   * Only on GET /tickets/{id|uuid} to a caller who may read it through a mention alone (contracts/
   * mentions.ts): they may read the thread and change nothing.
   */
  readOnly?: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * The lists a ticket can be in: its status, or `snoozed` while it sleeps (it keeps its status, and
 * comes back to that status's list when it wakes).
 */
export const ticketListStatuses = [...ticketStatuses, 'snoozed'] as const;
export type TicketListStatus = (typeof ticketListStatuses)[number];

/** `company-{id}-ticket` payload. */
export type TicketEvent =
  | { action: 'update'; ticket: Ticket }
  | { action: 'updateUnread'; ticketId: number }
  | { action: 'delete'; ticketId: number };
