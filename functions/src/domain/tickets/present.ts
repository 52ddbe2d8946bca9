/**
 * Tickets and messages as SPEC 3 shapes them for the API and the realtime channels. Queue, user and
 * connection names are resolved here from their small per-tenant sets (never copied onto tickets).
 */
import type { Contact } from '#contracts/contacts';
import { presentSla } from '#contracts/sla';
import type { Ticket } from '#contracts/tickets';
import { getConnection } from '#storage/connections';
import { getQueue, type QueueRecord } from '#storage/queues/queues';
import type { TicketRecord } from '#storage/tickets/record';
import { getUser } from '#storage/users/users';

export interface TicketRefs {
  queue?: Pick<QueueRecord, 'id' | 'name' | 'color'>;
  user?: { id: number; name: string };
  connection?: { id: number; name: string };
}

export async function loadTicketRefs(ticket: TicketRecord, known: TicketRefs = {}): Promise<TicketRefs> {
  const [queue, user, connection] = await Promise.all([
    ticket.queueId === null ? undefined : known.queue?.id === ticket.queueId ? known.queue : getQueue(ticket.companyId, ticket.queueId),
    ticket.userId === null ? undefined : known.user?.id === ticket.userId ? known.user : getUser(ticket.companyId, ticket.userId),
    known.connection?.id === ticket.whatsappId ? known.connection : getConnection(ticket.companyId, ticket.whatsappId),
  ]);
  return {
    queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : undefined,
    user: user ? { id: user.id, name: user.name } : undefined,
    connection: connection ? { id: connection.id, name: connection.name } : undefined,
  };
}

export function presentTicket(ticket: TicketRecord, refs: TicketRefs, tags: Ticket['tags'] = ticket.tags ?? []): Ticket {
  return {
    id: ticket.id,
    uuid: ticket.uuid,
    companyId: ticket.companyId,
    status: ticket.status,
    userId: ticket.userId,
    user: refs.user ?? null,
    queueId: ticket.queueId,
    queue: refs.queue ?? null,
    contactId: ticket.contactId,
    contact: { id: ticket.contactId, ...ticket.contact },
    whatsappId: ticket.whatsappId,
    whatsapp: refs.connection ?? null,
    tags,
    lastMessage: ticket.lastMessage,
    lastMessageDeleted: ticket.lastMessageDeleted ?? false,
    unreadMessages: ticket.unreadMessages,
    isGroup: ticket.isGroup,
    chatbot: ticket.chatbot,
    awaitingRating: ticket.awaitingRating,
    rating: ticket.rating,
    useIntegration: ticket.useIntegration,
    promptId: ticket.promptId,
    integrationId: ticket.integrationId,
    sla: presentSla(ticket.sla, Date.now()),
    snoozedUntil: ticket.snoozedUntil ?? null,
    createdAt: ticket.createdAt,
    updatedAt: ticket.updatedAt,
  };
}

export const contactSummary = (contact: Contact) => ({ name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl });
