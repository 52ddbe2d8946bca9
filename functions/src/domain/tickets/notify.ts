/**
 * Realtime for the tickets API: the update goes to the ticket's viewers through P's publishTicket;
 * sockets that saw the ticket before the change and may not see it after get `delete`, so their
 * lists drop it (SPEC 4: "A ticket leaves a list when its status no longer matches, when its queue
 * is not among the selected queues, or when it is deleted").
 */
import { channels } from '#contracts/channels';
import type { Ticket, TicketEvent } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { matches } from '#realtime/audience';
import { audience, rooms, ticketViewers } from '#realtime/publisher';
import type { TicketRecord } from '#storage/tickets';
import { publishTicket } from './publish.ts';

type Visibility = Pick<TicketRecord, 'id' | 'uuid' | 'status' | 'queueId' | 'userId'>;

/** The same audience as publish.ts's ticket events: viewers plus the sockets in the ticket's chat box. */
const ticketAudience = (ticket: Visibility) =>
  audience.anyOf(ticketViewers(ticket), audience.room(rooms.ticket(ticket.id)), audience.room(rooms.ticket(ticket.uuid)));

export async function publishTicketChange(effects: Effects, before: Visibility | undefined, after: Ticket): Promise<void> {
  await publishTicket(effects, after);
  if (!before) return;
  const was = ticketAudience(before);
  const now = ticketAudience(after);
  await effects.publish(
    after.companyId,
    channels.ticket(after.companyId),
    { action: 'delete', ticketId: after.id } satisfies TicketEvent,
    (connection) => matches(was, connection) && !matches(now, connection),
  );
}

export const publishTicketDeleted = (effects: Effects, ticket: TicketRecord) =>
  effects.publish(
    ticket.companyId,
    channels.ticket(ticket.companyId),
    { action: 'delete', ticketId: ticket.id } satisfies TicketEvent,
    ticketAudience(ticket),
  );
