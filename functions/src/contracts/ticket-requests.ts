/**
 * Requests of the tickets API (SPEC 7 "Tickets and messages"), shared by the functions and the web.
 * Query strings carry lists as JSON (`queueIds=[1,2]`), as the spec's client sends them.
 */
import * as z from 'zod';
import type { Ticket } from './tickets.ts';
import { ticketStatuses } from './tickets.ts';

const id = z.coerce.number().int().positive();
const flag = z
  .enum(['true', 'false', ''])
  .optional()
  .transform((value) => value === 'true');
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'Expected a date (YYYY-MM-DD)')
  .transform((value) => value.slice(0, 10))
  .optional()
  .or(z.literal('').transform(() => undefined));

/** A JSON list of ids in a query string; '' and absent mean no filter. */
const idList = z
  .string()
  .max(2000)
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return undefined;
    try {
      const parsed = z.array(id).max(200).safeParse(JSON.parse(value));
      if (parsed.success) return parsed.data;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'Expected a JSON list of ids' });
    return z.NEVER;
  });

export const listTicketsQuerySchema = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  /** 1-based. Deep pages cost one walk per page before them: prefer `cursor` (see domain/tickets/list.ts). */
  pageNumber: z.coerce.number().int().min(1).max(100).optional().default(1),
  /** The `nextCursor` of the previous page; wins over pageNumber. */
  cursor: z.string().max(8000).optional(),
  tags: idList,
  users: idList,
  queueIds: idList,
  status: z
    .enum([...ticketStatuses, ''])
    .optional()
    .transform((value) => value || undefined),
  /** Day the ticket was created. */
  date: day,
  /** Day the ticket was last updated. */
  updatedAt: day,
  showAll: flag,
  withUnreadMessages: flag,
});
export type ListTicketsQuery = z.output<typeof listTicketsQuerySchema>;

export interface TicketPageResponse {
  tickets: Ticket[];
  hasMore: boolean;
  /** Opaque position after this page: pass it as `cursor` for the next one. */
  nextCursor?: string;
}

export const kanbanQuerySchema = z.object({
  queueIds: idList,
  /** The `nextCursor` of the previous page: a board holds more than one page (200 tickets). */
  cursor: z.string().max(8000).optional(),
});
export type KanbanQuery = z.output<typeof kanbanQuerySchema>;

const optionalId = z.union([id, z.null()]).optional();

export const createTicketSchema = z.object({
  contactId: id,
  queueId: optionalId,
  whatsappId: optionalId,
  userId: optionalId,
  /** Creating a ticket sends status open (SPEC 4); the server opens it for the caller. */
  status: z.enum(ticketStatuses).optional(),
});
export type CreateTicketInput = z.output<typeof createTicketSchema>;

export const updateTicketSchema = z.object({
  status: z.enum(ticketStatuses).optional(),
  userId: optionalId,
  queueId: optionalId,
  whatsappId: optionalId,
  useIntegration: z.boolean().optional(),
  promptId: z.union([id, z.null(), z.literal(false)]).optional(),
  integrationId: z.union([id, z.null(), z.literal(false)]).optional(),
});
export type UpdateTicketInput = z.output<typeof updateTicketSchema>;

/** Body of ERR_OTHER_OPEN_TICKET (SPEC 8): the web shows who already attends the contact, and where. */
export interface OtherOpenTicketError {
  error: 'ERR_OTHER_OPEN_TICKET';
  ticketId: number;
  uuid: string;
  userId: number | null;
  user: { name: string } | null;
  queue: { name: string } | null;
}
