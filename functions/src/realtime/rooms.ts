/**
 * Rooms a socket joins with the client's emits (SPEC 7 "Realtime"). A connection receives its
 * company's events that its user may see without joining anything. Rooms never add what the user
 * may not see: ticket and message events go to the ticket's viewers whatever rooms a socket joined
 * (publisher.ts header), so joining another queue's ticket is harmless and needs no check here.
 */
import * as z from 'zod/mini';

export const ticketStatuses = ['open', 'pending', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

export const rooms = {
  /** joinChatBox: the conversation the user has open. Ticket ids are numeric ids or uuids. */
  ticket: (ticketId: string | number) => `ticket:${ticketId}`,
  /** joinTickets: a ticket-list tab. */
  status: (status: TicketStatus) => `status:${status}`,
  /** joinNotification: the notifications popover. */
  notification: 'notification',
  /** joinCompanyMessage: company-wide messages (internal chat, announcements). */
  companyMessage: 'company',
} as const;

/**
 * What a join/leave action carries; anything else is bad input and is ignored, never a crash.
 * zod/mini: the same validators, tree-shaken, so the realtime bundle stays small.
 */
export const ticketIdSchema = z.union([
  z.number().check(z.int(), z.positive()),
  z.string().check(z.trim(), z.regex(/^[A-Za-z0-9-]{1,64}$/)),
]);
export const ticketStatusSchema = z.enum(ticketStatuses);
export const companyIdSchema = z.coerce.number().check(z.int(), z.positive());
