/**
 * Presents many tickets at once with a bounded number of reads: the tenant's queues and connections
 * (small sets, bounded by the plan) once, and each distinct attendant once. P's loadTicketRefs does
 * three GetItems per ticket, fine for one ticket and wasteful for a page of 40.
 */
import type { Ticket } from '#contracts/tickets';
import { listConnections } from '#storage/connections';
import { listQueues } from '#storage/queues';
import type { TicketRecord } from '#storage/tickets';
import { getUser } from '#storage/users';
import { presentTicket } from './present.ts';

export async function presentTickets(companyId: number, tickets: TicketRecord[]): Promise<Ticket[]> {
  if (!tickets.length) return [];
  const userIds = [...new Set(tickets.flatMap((ticket) => (ticket.userId === null ? [] : [ticket.userId])))];
  const [queues, connections, users] = await Promise.all([
    listQueues(companyId),
    listConnections(companyId),
    Promise.all(userIds.map((id) => getUser(companyId, id))),
  ]);
  const queueById = new Map(queues.map((queue) => [queue.id, queue]));
  const connectionById = new Map(connections.map((connection) => [connection.id, connection]));
  const userById = new Map(users.flatMap((user) => (user ? [[user.id, user] as const] : [])));
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
