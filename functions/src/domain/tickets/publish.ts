/**
 * Realtime for the inbox (SPEC 7 "Realtime"): ticket and message events go to the ticket's viewers
 * (admins, its queue's members, its attendant, allTicket users for pending no-queue tickets) and to
 * nobody else; contact events to the whole tenant. Joining a ticket's chat box never widens that
 * (see the rule in realtime/publisher.ts), but for a colleague the ticket's notes mentioned: while
 * the mention lasts, the socket that has it open gets its messages (never its ticket events).
 */
import { channels } from '#contracts/channels';
import type { Contact, ContactEvent } from '#contracts/contacts';
import type { AppMessageEvent, Message } from '#contracts/messages';
import type { Ticket, TicketEvent } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { presentMessage } from '#domain/outbound/present';
import { emitWebhookEvent } from '#domain/webhooks/emit';
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

/** Who gets a ticket's messages: its viewers, and the sockets reading it by a mention. */
export const messageAudience = (ticket: TicketVisibility) => audience.anyOf(ticketAudience(ticket), audience.reader(ticket.id));

/**
 * A message's realtime event; a new message is also the company's webhook event (issue 23 §2):
 * `message.received` from the contact, `message.sent` from us (the inbox, the API, a bot, the phone);
 * none for a private note.
 */
export async function publishMessage(effects: Effects, action: 'create' | 'update', message: Message, ticket: Ticket, contact: Contact) {
  // As the API answers it: media through the private route, never the bucket key (outbound/present).
  const event = { action, message: presentMessage(message), ticket, contact } satisfies AppMessageEvent;
  const [published] = await Promise.all([
    effects.publish(ticket.companyId, channels.appMessage(ticket.companyId), event, messageAudience(ticket)),
    // A private note is the inbox's alone (outbound/note.ts): no API client hears of it.
    action === 'create' &&
      !message.isPrivate &&
      emitWebhookEvent(ticket.companyId, message.fromMe ? 'message.sent' : 'message.received', {
        message: event.message,
        ticket,
        contact,
      }),
  ]);
  return published;
}

/** `message.ack`: a message of ours was delivered, read or played (its ack went up). */
export const emitMessageAck = (message: Message, ticket: Ticket, contact: Contact) =>
  emitWebhookEvent(ticket.companyId, 'message.ack', { message: presentMessage(message), ticket, contact });

export const publishContact = (effects: Effects, contact: Contact) =>
  effects.publish(
    contact.companyId,
    channels.contact(contact.companyId),
    { action: 'update', contact } satisfies ContactEvent,
    audience.company,
  );
