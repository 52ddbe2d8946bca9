/**
 * timeToTransfer (BEHAVIOUR "Tickets"): a pending ticket with no queue, idle for the connection's
 * minutes, moves to the connection's transferQueueId. It then leaves the "no queue" list
 * (gsi1 Q#0) for the queue's pending list, and the realtime update/delete move it in open lists.
 */
import type { Effects } from '#domain/messages/effects';
import { afterTicketChange } from '#domain/tickets/auto-assign';
import { historyItems } from '#domain/tickets/history';
import type { ConnectionRecord } from '#storage/connections';
import { commitIfUnchanged } from '#storage/sweeps/commit';
import type { TicketRecord, TicketStatePatch } from '#storage/tickets/record';
import { publishSweptTicket } from './publish.ts';

/** True when it moved the ticket. `queueId` is the connection's transferQueueId, known to exist. */
export async function transferTicket(
  ticket: TicketRecord,
  connection: ConnectionRecord,
  queueId: number,
  now: Date,
  effects: Effects,
): Promise<boolean> {
  if (ticket.status !== 'pending' || ticket.queueId !== null || ticket.whatsappId !== connection.id) return false;
  // As the chatbot's enterQueue: the menu is over, the ticket waits for the queue's attendants.
  const patch: TicketStatePatch = { queueId, chatbot: false, bot: null };
  // History: `transferred` by the system (actor null); `queued` (entered the queue's list) is derived.
  const history = historyItems(['transferred'], ticket, { ...ticket, ...patch }, null, now.toISOString());
  const next = await commitIfUnchanged(ticket, patch, history, now);
  if (!next) return false;
  await publishSweptTicket(effects, ticket, next);
  // It now waits in the queue's line: an attendant with room takes it (issue 22 §2).
  await afterTicketChange(effects, ticket, next);
  return true;
}
