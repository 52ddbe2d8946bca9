/** Notes on tickets (SPEC 3 "Ticket note"): only on tickets the caller may see. */
import { createTicketNoteSchema, listTicketNotesQuerySchema } from '#contracts/ticket-note-requests';
import { createNoteFor, deleteNoteFor, listNotesFor } from '#domain/ticket-notes/notes';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('ticket-notes', {
  'POST /ticket-notes': async (ctx) =>
    created(await createNoteFor(requireIdentity(ctx), parseInput(createTicketNoteSchema, ctx.body ?? {}))),
  'GET /ticket-notes/list': async (ctx) => {
    const { ticketId, contactId } = parseInput(listTicketNotesQuerySchema, ctx.query, 'query');
    return listNotesFor(requireIdentity(ctx), ticketId, contactId);
  },
  'DELETE /ticket-notes/{id}': async (ctx) => {
    await deleteNoteFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
});
