/**
 * Realtime after a sweep changed a ticket, as for the tickets API (T's publishTicketChange): the
 * update to everyone who may see it now, and `delete` to the sockets that saw it before and cannot
 * any more, so their lists drop it. A transfer out of "no queue" is that case: allTicket users who
 * are not in the transfer queue.
 */
import type { Effects } from '#domain/messages/effects';
import { publishTicketChange } from '#domain/tickets/notify';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import type { TicketRecord } from '#storage/tickets/record';

export async function publishSweptTicket(effects: Effects, before: TicketRecord, after: TicketRecord): Promise<void> {
  await publishTicketChange(effects, before, presentTicket(after, await loadTicketRefs(after)));
}
