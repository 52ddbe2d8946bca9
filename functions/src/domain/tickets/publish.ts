/**
 * Realtime for the inbox (SPEC 7 "Realtime"): ticket and message events go to the ticket's viewers
 * (admins, its queue's members, its attendant, allTicket users for pending no-queue tickets) and to
 * the sockets that joined its chat box; contact events to the whole tenant.
 */
import { channels } from '#contracts/channels';
import type { Contact, ContactEvent } from '#contracts/contacts';
import type { AppMessageEvent, Message } from '#contracts/messages';
import type { Ticket, TicketEvent } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { presentMessage } from '#domain/outbound/present';
import { audience, rooms, ticketViewers } from '#realtime/publisher';

export const ticketAudience = (ticket: Pick<Ticket, 'id' | 'uuid' | 'status' | 'queueId' | 'userId'>) =>
  audience.anyOf(
    ticketViewers({ status: ticket.status, queueId: ticket.queueId, userId: ticket.userId }),
    audience.room(rooms.ticket(ticket.id)),
    audience.room(rooms.ticket(ticket.uuid)),
  );

export const publishTicket = (effects: Effects, ticket: Ticket) =>
  effects.publish(
    ticket.companyId,
    channels.ticket(ticket.companyId),
    { action: 'update', ticket } satisfies TicketEvent,
    ticketAudience(ticket),
  );

export const publishMessage = (effects: Effects, action: 'create' | 'update', message: Message, ticket: Ticket, contact: Contact) =>
  effects.publish(
    ticket.companyId,
    channels.appMessage(ticket.companyId),
    // As the API answers it: media through the private route, never the bucket key (outbound/present).
    { action, message: presentMessage(message), ticket, contact } satisfies AppMessageEvent,
    ticketAudience(ticket),
  );

export const publishContact = (effects: Effects, contact: Contact) =>
  effects.publish(
    contact.companyId,
    channels.contact(contact.companyId),
    { action: 'update', contact } satisfies ContactEvent,
    audience.company,
  );
