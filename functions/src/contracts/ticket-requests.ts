/**
 * Requests of the tickets API (SPEC 7 "Tickets and messages"), shared by the functions and the web.
 * Query strings carry lists as JSON (`queueIds=[1,2]`), as the spec's client sends them.
 */
import * as z from 'zod';
import { slaFilters } from './sla.ts';
import type { Ticket } from './tickets.ts';
import { ticketListStatuses, ticketStatuses } from './tickets.ts';

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
  /** `snoozed`: the snoozed tickets (the caller's own; every one with showAll), which no other list holds. */
  status: z
    .enum([...ticketListStatuses, ''])
    .optional()
    .transform((value) => value || undefined),
  /** Day the ticket was created. */
  date: day,
  /** Day the ticket was last updated. */
  updatedAt: day,
  showAll: flag,
  withUnreadMessages: flag,
  /** Only tickets whose service level is in this state now (contracts/sla.ts). */
  sla: z
    .enum([...slaFilters, ''])
    .optional()
    .transform((value) => value || undefined),
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
  /**
   * Snooze until this time (in the future, at most MAX_SNOOZE_DAYS ahead), or null to wake it now
   * (issue 22 §5). Sent on its own: the other fields are a different change.
   */
  snoozeUntil: z.union([z.iso.datetime({ offset: true }), z.null()]).optional(),
});
export type UpdateTicketInput = z.output<typeof updateTicketSchema>;

export const MAX_SNOOZE_DAYS = 90;

/** POST /tickets/bulk: at most this many tickets a request. */
export const MAX_BULK_TICKETS = 100;
export const bulkTicketActions = ['assign', 'transfer', 'resolve', 'tag'] as const;
export type BulkTicketAction = (typeof bulkTicketActions)[number];

/**
 * POST /tickets/bulk (issue 22 §5): one action on up to 100 tickets, each through the same rules
 * as PUT /tickets/{id} (or the tag route). `assign` without userId accepts for the caller; with a
 * userId it assigns to that user (open). `transfer` needs queueId (and may name a userId).
 */
export const bulkTicketsSchema = z
  .object({
    ids: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .min(1, 'Select at least one ticket')
      .max(MAX_BULK_TICKETS, `At most ${MAX_BULK_TICKETS} tickets at once`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each ticket only once'),
    action: z.enum(bulkTicketActions),
    userId: id.optional(),
    queueId: id.optional(),
    tagId: id.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.action === 'transfer' && body.queueId === undefined)
      ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'Choose a queue' });
    if (body.action === 'tag' && body.tagId === undefined) ctx.addIssue({ code: 'custom', path: ['tagId'], message: 'Choose a tag' });
  });
export type BulkTicketsInput = z.output<typeof bulkTicketsSchema>;

export interface BulkTicketResult {
  id: number;
  ok: boolean;
  /** The ERR_ code this ticket's action failed with (the single-ticket route's status would say the same). */
  error?: string;
  /** The ticket after the action, when it went through. */
  ticket?: Ticket;
}

/** Answer of POST /tickets/bulk: one result per id, in the order given. */
export interface BulkTicketsResponse {
  results: BulkTicketResult[];
}

/** Body of ERR_OTHER_OPEN_TICKET (SPEC 8): the web shows who already attends the contact, and where. */
export interface OtherOpenTicketError {
  error: 'ERR_OTHER_OPEN_TICKET';
  ticketId: number;
  uuid: string;
  userId: number | null;
  user: { name: string } | null;
  queue: { name: string } | null;
}

/** GET /tickets/u/{uuid}: the ticket's public uuid, as links carry it. */
export const ticketUuidParamsSchema = z.object({ uuid: z.string().uuid('Invalid uuid') });
