/**
 * POST /tickets (an attendant opens a conversation with a contact), GET and DELETE of one ticket.
 *
 * Creation claims the (contact, connection) slot in the same transaction as the ticket (storage/
 * tickets.ts), so "one open or pending ticket per contact and connection" holds under races; the
 * loser gets ERR_OTHER_OPEN_TICKET naming who attends the contact and in which queue (SPEC 8), which
 * the web shows (or, when it is the caller's own ticket, opens).
 */
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#commons/errors';
import type { CreateTicketInput } from '#contracts/ticket-requests';
import type { Ticket } from '#contracts/tickets';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { emitWebhookEvent } from '#domain/webhooks/emit';
import { getConnection, getDefaultConnection } from '#storage/connections';
import { getContact } from '#storage/contacts/contacts';
import { newTicketId } from '#storage/contacts/conversation-ids';
import { getQueue } from '#storage/queues/queues';
import { newTicketRecord, type TicketRecord } from '#storage/tickets/record';
import { deleteTicketData } from '#storage/tickets/removal';
import { createTicket, getSlot, getTicket, SlotTakenError } from '#storage/tickets/tickets';
import { getUser } from '#storage/users/users';
import { loadReadableTicket, TicketNotFoundError, type Viewer, viewerIsAdmin } from './access.ts';
import { afterTicketChange } from './auto-assign.ts';
import { historyItems } from './history.ts';
import { publishTicketChange, publishTicketDeleted } from './notify.ts';
import { contactSummary } from './present.ts';
import { presentTickets } from './present-page.ts';

/** ERR_OTHER_OPEN_TICKET with the active ticket of the (contact, connection) slot. */
export async function otherOpenTicketError(companyId: number, contactId: number, connectionId: number): Promise<ConflictError> {
  const slot = await getSlot(companyId, contactId, connectionId);
  const other = slot?.active ? await getTicket(companyId, slot.ticketId) : undefined;
  if (!other) return new ConflictError('ERR_OTHER_OPEN_TICKET');
  const [user, queue] = await Promise.all([
    other.userId === null ? undefined : getUser(companyId, other.userId),
    other.queueId === null ? undefined : getQueue(companyId, other.queueId),
  ]);
  return new ConflictError('ERR_OTHER_OPEN_TICKET', {
    ticketId: other.id,
    uuid: other.uuid,
    status: other.status,
    userId: other.userId,
    user: user ? { name: user.name } : null,
    queue: queue ? { name: queue.name } : null,
  });
}

export async function createTicketFor(viewer: Viewer, input: CreateTicketInput, effects: Effects = defaultEffects): Promise<Ticket> {
  const { companyId } = viewer;
  const admin = viewerIsAdmin(viewer);
  const queueId = input.queueId ?? null;
  if (queueId === null && !admin) throw new ValidationError('queueId', 'Selecione uma fila');
  if (queueId !== null) {
    if (!(await getQueue(companyId, queueId))) throw new ValidationError('queueId', 'Queue not found');
    if (!admin && !viewer.user.queueIds.includes(queueId)) throw new ForbiddenError('ERR_NO_PERMISSION');
  }
  const contact = await getContact(companyId, input.contactId);
  if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  const connection = input.whatsappId ? await getConnection(companyId, input.whatsappId) : await getDefaultConnection(companyId);
  if (!connection) throw new NotFoundError(input.whatsappId ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND');

  const at = effects.now().toISOString();
  const ticket = newTicketRecord({
    id: await newTicketId(companyId),
    companyId,
    // SPEC 4: creating a ticket opens it for the caller.
    status: 'open',
    userId: viewer.userId,
    queueId,
    contactId: contact.id,
    contact: contactSummary(contact),
    whatsappId: connection.id,
    isGroup: contact.isGroup,
    createdAt: at,
  });
  let stored: TicketRecord;
  try {
    // As stored: with what the write derives (its service level, the dashboard's tracking).
    stored = await createTicket(ticket, historyItems(['created'], undefined, ticket, viewer.userId, at));
  } catch (error) {
    if (error instanceof SlotTakenError) throw await otherOpenTicketError(companyId, contact.id, connection.id);
    throw error;
  }
  const presented = (await presentTickets(companyId, [stored]))[0] as Ticket;
  await Promise.all([
    publishTicketChange(effects, undefined, presented),
    emitWebhookEvent(companyId, 'ticket.created', { ticket: presented }),
  ]);
  return presented;
}

/** GET /tickets/{id|uuid}: also a ticket the caller was mentioned on, marked `readOnly` then. */
export async function getTicketFor(viewer: Viewer, ref: { id: number } | { uuid: string }): Promise<Ticket> {
  const { ticket, byMention } = await loadReadableTicket(viewer, ref);
  const presented = (await presentTickets(viewer.companyId, [ticket]))[0] as Ticket;
  return byMention ? { ...presented, readOnly: true } : presented;
}

/** DELETE /tickets/{id} (admin route): the ticket and everything of it, then `delete` to its viewers. */
export async function deleteTicketFor(viewer: Viewer, ticketId: number, effects: Effects = defaultEffects): Promise<void> {
  const ticket = await getTicket(viewer.companyId, ticketId);
  if (!ticket) throw new TicketNotFoundError();
  if (!(await deleteTicketData(ticket))) throw new TicketNotFoundError();
  await publishTicketDeleted(effects, ticket);
  // Its attendant's seat is free again (issue 22 §2).
  await afterTicketChange(effects, ticket, undefined);
}
