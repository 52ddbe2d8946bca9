/**
 * Realtime for the inbox (SPEC 7 "Realtime"): ticket and message events go to the ticket's viewers
 * (admins, its queue's members, its attendant, allTicket users for pending no-queue tickets) and to
 * nobody else; contact events to the whole tenant. Joining a ticket's chat box never widens that
 * (see the rule in realtime/publisher.ts): a socket that joined the room of a ticket it may not see,
 * or that it stopped seeing, gets nothing of it.
 */
import { channels } from '#contracts/channels';
import type { Contact, ContactEvent } from '#contracts/contacts';
import type { AppMessageEvent, Message } from '#contracts/messages';
import type { Ticket, TicketEvent } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { presentMessage } from '#domain/outbound/present';
import { audience, ticketViewers } from '#realtime/publisher';

/** What decides who sees a ticket (ticketViewers), plus its ids. */
export type TicketVisibility = Pick<Ticket, 'id' | 'status' | 'queueId' | 'userId'>;

export const ticketAudience = (ticket: TicketVisibility) =>
  ticketViewers({ status: ticket.status, queueId: ticket.queueId, userId: ticket.userId });

export const publishTicket = (effects: Pick<Effects, 'publish'>, ticket: Ticket) =>
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
