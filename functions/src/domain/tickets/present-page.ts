/**
 * Presents many tickets at once with a bounded number of reads: the names of the tenant's queues,
 * connections and users (small sets, bounded by the plan), each one Query, through this container's
 * read caches (storage/read-cache.ts). A busy container presents a page with no read at all; a
 * rename is seen at once through this container and within 5 s from any other, as on the inbound
 * path. Names only: who may see a ticket is decided on fresh reads before this (list.ts, access).
 * P's loadTicketRefs does three GetItems per ticket, fine for one ticket and wasteful for a page of 40.
 */
import type { Ticket } from '#contracts/tickets';
import { listConnectionsCached } from '#storage/connections';
import { listQueuesCached } from '#storage/queues/queues';
import type { TicketRecord } from '#storage/tickets/record';
import { listUserNamesCached } from '#storage/users/users';
import { presentTicket } from './present.ts';

export async function presentTickets(companyId: number, tickets: TicketRecord[]): Promise<Ticket[]> {
  if (!tickets.length) return [];
  const assigned = tickets.some((ticket) => ticket.userId !== null);
  const [queues, connections, users] = await Promise.all([
    listQueuesCached(companyId),
    listConnectionsCached(companyId),
    assigned ? listUserNamesCached(companyId) : [],
  ]);
  const queueById = new Map(queues.map((queue) => [queue.id, queue]));
  const connectionById = new Map(connections.map((connection) => [connection.id, connection]));
  const userById = new Map(users.map((user) => [user.id, user]));
  return tickets.map((ticket) => {
    const queue = ticket.queueId === null ? undefined : queueById.get(ticket.queueId);
    const user = ticket.userId === null ? undefined : userById.get(ticket.userId);
    const connection = connectionById.get(ticket.whatsappId);
    return presentTicket(ticket, {
      queue: queue && { id: queue.id, name: queue.name, color: queue.color },
      user: user && { id: user.id, name: user.name },
      connection: connection && { id: connection.id, name: connection.name },
    });
  });
}
