/**
 * Realtime for a ticket change (tickets API, tags, sweeps), as one unit: the messages the change
 * posted (`appMessage` create), then ONE ticket `update` to everyone who may see the ticket now, then
 * `delete` to the sockets that saw it before and may not any more, so their lists drop it (SPEC 4:
 * "A ticket leaves a list when its status no longer matches, when its queue is not among the
 * selected queues, or when it is deleted"). The audiences are publish.ts's ticketAudience, the rule
 * written down in realtime/publisher.ts.
 */
import { channels } from '#contracts/channels';
import type { Contact } from '#contracts/contacts';
import type { Message } from '#contracts/messages';
import type { Ticket, TicketEvent } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { emitWebhookEvent } from '#domain/webhooks/emit';
import { matches, viewersMayShrink } from '#realtime/audience';
import type { TicketRecord } from '#storage/tickets/record';
import { isActive } from '#storage/tickets/tickets';
import { presentTickets } from './present-page.ts';
import { publishMessage, publishTicket, type TicketVisibility, ticketAudience } from './publish.ts';

export interface PostedMessages {
  messages: Message[];
  contact: Contact;
}

export async function publishTicketChange(
  effects: Effects,
  before: TicketVisibility | undefined,
  after: Ticket,
  posted?: PostedMessages,
): Promise<void> {
  if (posted) for (const message of posted.messages) await publishMessage(effects, 'create', message, after, posted.contact);
  await publishTicket(effects, after);
  if (before) await publishTicketLost(effects, before, after);
  // A change of a ticket that was there before (a new one is `ticket.created`, where it is made).
  if (before) await emitTicketChange(before, after);
}

/** The company's webhooks (issue 23 §2): `ticket.closed` when this change closed it, `ticket.updated` otherwise. */
export const emitTicketChange = (before: Pick<TicketVisibility, 'status'> | undefined, after: Ticket) =>
  emitWebhookEvent(after.companyId, after.status === 'closed' && before?.status !== 'closed' ? 'ticket.closed' : 'ticket.updated', {
    ticket: after,
  });

/**
 * `delete` to the sockets that could see `before` and cannot see `after`. Publishes nothing (not
 * even the connections Query) when nobody can lose it (an accept, a resolve, a message).
 */
export async function publishTicketLost(effects: Effects, before: TicketVisibility, after: TicketVisibility & { companyId: number }) {
  const was = ticketAudience(before);
  const now = ticketAudience(after);
  if (!viewersMayShrink(before, after)) return;
  await effects.publish(
    after.companyId,
    channels.ticket(after.companyId),
    { action: 'delete', ticketId: after.id } satisfies TicketEvent,
    (connection) => matches(was, connection) && !matches(now, connection),
  );
}

export const publishTicketDeleted = (effects: Pick<Effects, 'publish'>, ticket: TicketRecord) =>
  effects.publish(
    ticket.companyId,
    channels.ticket(ticket.companyId),
    { action: 'delete', ticketId: ticket.id } satisfies TicketEvent,
    ticketAudience(ticket),
  );

/**
 * A contact's edit shows on its tickets' rows (the lists show the contact's name): its open and
 * pending tickets, as refreshed (storage/tickets/tickets.ts refreshTicketContact), each as one `update` to
 * its viewers. Closed ones are not published: nobody works on them, and the contact event renames
 * whatever row of them a list still shows.
 */
export async function publishContactTickets(effects: Pick<Effects, 'publish'>, companyId: number, refreshed: TicketRecord[]) {
  const active = refreshed.filter((ticket) => isActive(ticket.status));
  for (const ticket of await presentTickets(companyId, active)) await publishTicket(effects, ticket);
}
