/**
 * Ticket notes (SPEC 3 "Ticket note", 5: at least 2 characters, 'Too Short!'). Only on tickets the
 * caller may see (SPEC 6, domain/tickets/access); a note names the ticket's own contact; a note is
 * deleted by its author or an admin.
 */
import { ForbiddenError, NotFoundError, ValidationError } from '#commons/errors';
import type { CreateTicketNoteInput } from '#contracts/ticket-note-requests';
import { loadVisibleTicket, type Viewer, viewerIsAdmin } from '#domain/tickets/access';
import * as store from '#storage/tickets/notes';

export async function createNoteFor(identity: Viewer, input: CreateTicketNoteInput): Promise<store.TicketNoteRecord> {
  const ticket = await loadVisibleTicket(identity, input.ticketId);
  if (input.contactId !== undefined && input.contactId !== ticket.contactId)
    throw new ValidationError('contactId', 'Not the ticket contact');
  const at = new Date().toISOString();
  return store.createTicketNote({
    id: await store.newTicketNoteId(identity.companyId),
    companyId: identity.companyId,
    note: input.note,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    userId: identity.userId,
    user: { id: identity.userId, name: identity.user.name },
    createdAt: at,
    updatedAt: at,
  });
}

export async function listNotesFor(identity: Viewer, ticketId: number, contactId?: number): Promise<store.TicketNoteRecord[]> {
  const ticket = await loadVisibleTicket(identity, ticketId);
  if (contactId !== undefined && contactId !== ticket.contactId) return [];
  return store.listTicketNotes(identity.companyId, ticket.id);
}

export async function deleteNoteFor(identity: Viewer, id: number): Promise<void> {
  const note = await store.getTicketNote(identity.companyId, id);
  if (!note || note.companyId !== identity.companyId) throw new NotFoundError('ERR_NOT_FOUND');
  await loadVisibleTicket(identity, note.ticketId);
  if (note.userId !== identity.userId && !viewerIsAdmin(identity)) throw new ForbiddenError('ERR_NO_PERMISSION');
  await store.deleteTicketNote(identity.companyId, note);
}
