/** Tickets of the caller's company (SPEC 7 "Tickets and messages"): the inbox lists and the ticket actions. */
import '#adapters/wiring';
import {
  bulkTicketsSchema,
  createTicketSchema,
  kanbanQuerySchema,
  listTicketsQuerySchema,
  ticketUuidParamsSchema,
  updateTicketSchema,
} from '#contracts/ticket-requests';
import { updateTicketFor } from '#domain/tickets/actions';
import { bulkTicketAction } from '#domain/tickets/bulk';
import { createTicketFor, deleteTicketFor, getTicketFor } from '#domain/tickets/create';
import { listKanbanTickets, listTickets } from '#domain/tickets/list';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('tickets', {
  'GET /tickets': async (ctx) => listTickets(requireIdentity(ctx), parseInput(listTicketsQuerySchema, ctx.query, 'query')),
  'GET /tickets/{id}': async (ctx) => getTicketFor(requireIdentity(ctx), { id: parseId(ctx.params) }),
  'GET /tickets/u/{uuid}': async (ctx) => getTicketFor(requireIdentity(ctx), parseInput(ticketUuidParamsSchema, ctx.params, 'params')),
  'POST /tickets': async (ctx) => created(await createTicketFor(requireIdentity(ctx), parseInput(createTicketSchema, ctx.body ?? {}))),
  'POST /tickets/bulk': async (ctx) => bulkTicketAction(requireIdentity(ctx), parseInput(bulkTicketsSchema, ctx.body ?? {})),
  'PUT /tickets/{id}': async (ctx) =>
    updateTicketFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateTicketSchema, ctx.body ?? {})),
  'DELETE /tickets/{id}': async (ctx) => {
    await deleteTicketFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'GET /ticket/kanban': async (ctx) => listKanbanTickets(requireIdentity(ctx), parseInput(kanbanQuerySchema, ctx.query, 'query')),
});
