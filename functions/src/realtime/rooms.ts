/**
 * What the client's join actions carry (SPEC 7 "Realtime": joinChatBox, joinTickets,
 * joinNotification, joinCompanyMessage). Rooms never add what the user may not see, and the list
 * and notification rooms add nothing to what they may: a socket receives its company's events that
 * its user may see without joining anything (publisher.ts header). The one join that adds is a
 * mention reader's chat box (socket-session.ts).
 */
import * as z from 'zod/mini';

export const ticketStatuses = ['open', 'pending', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

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
