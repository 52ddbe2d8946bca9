/**
 * Realtime after a sweep changed a ticket: the update to everyone who may see it now (P's
 * publishTicket), and `delete` to the sockets that could see it before and cannot any more, so their
 * lists drop it (SPEC 4: a ticket leaves a list when its status or queue no longer matches). A
 * transfer out of "no queue" is that case: allTicket users who are not in the transfer queue.
 */
import { channels } from '#contracts/channels';
import type { TicketEvent } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import { publishTicket } from '#domain/tickets/publish';
import { matches } from '#realtime/audience';
import { audience, rooms, ticketViewers } from '#realtime/publisher';
import type { TicketRecord } from '#storage/tickets';

type Visibility = Pick<TicketRecord, 'id' | 'uuid' | 'status' | 'queueId' | 'userId'>;

const audienceOf = (ticket: Visibility) =>
  audience.anyOf(ticketViewers(ticket), audience.room(rooms.ticket(ticket.id)), audience.room(rooms.ticket(ticket.uuid)));

/** The `delete` for sockets that saw `before` and do not see `after` (none when visibility is unchanged). */
export async function publishLeft(effects: Effects, before: Visibility, after: Visibility & { companyId: number }): Promise<void> {
  if (before.status === after.status && before.queueId === after.queueId && before.userId === after.userId) return;
  const was = audienceOf(before);
  const now = audienceOf(after);
  await effects.publish(
    after.companyId,
    channels.ticket(after.companyId),
    { action: 'delete', ticketId: after.id } satisfies TicketEvent,
    (connection) => matches(was, connection) && !matches(now, connection),
  );
}

export async function publishSweptTicket(effects: Effects, before: TicketRecord, after: TicketRecord): Promise<void> {
  await publishTicket(effects, presentTicket(after, await loadTicketRefs(after)));
  await publishLeft(effects, before, after);
}
