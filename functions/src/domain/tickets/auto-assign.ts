/**
 * Automatic assignment (issue 22 §2). A queue whose `autoAssign` is `roundRobin` or `leastBusy`
 * gives each ticket waiting in it (pending, in the queue, nobody on it, no chatbot or prompt talking
 * to the contact: storage/ticket-routing.ts waitsInLine) to an eligible attendant at once: a member
 * of the queue, online now (presence read from their live sockets, never a flag), taking automatic
 * assignments (`autoAssign`), and under `maxOpenTickets` (0 = no limit). The ticket becomes `open`
 * with that attendant, exactly as if they had accepted it (the accept greeting when the company sends
 * one, the same realtime events), with an `autoAssigned` line in its history.
 *
 * Never over capacity, never twice, on any number of Lambdas at once: the take is ONE transaction of
 * the ticket's change (conditional on the revision read: still waiting, nobody on it) and the
 * attendant's seat (conditional on `size(open) < maxOpenTickets`). A lost race is a re-read, never a
 * second owner; a full attendant is skipped for the next one.
 *
 * When it runs (afterTicketChange, called by each path after its commit): a ticket enters a queue's
 * waiting line (the inbound pipeline's new or reopened ticket once the chatbot is done with it, a bot
 * handing back, a transfer or return to a queue, the timeToTransfer sweep), or an attendant's seat
 * frees (a resolve, a transfer away, a return, a delete, the expiry sweep) and then the oldest waiting
 * tickets of that attendant's queues go first; and when an attendant comes online
 * (presence-events.ts onUserAvailable) or an admin raises what they take. With nobody eligible the
 * ticket simply waits in Pending, as with `off`.
 *
 * Routing runs after the change it follows is committed and published: a failure here is logged and
 * leaves the ticket waiting, it never fails the change (an accept, a resolve, an inbound message).
 */
import { logger } from '#commons/logger';
import type { AutoAssignMode } from '#contracts/queues';
import type { Ticket } from '#contracts/tickets';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { buildOutgoingMessage, sendCommandFor } from '#domain/messages/send';
import { getCompanySetting } from '#domain/settings/settings';
import { readPresence } from '#domain/users/presence';
import { getContact } from '#storage/contacts';
import { type MessageRecord, messageItems } from '#storage/messages';
import { getQueue, listQueuesCached, type QueueRecord } from '#storage/queues';
import {
  holdsSeat,
  type RoutedTicket,
  readSeats,
  readWaitingLine,
  SeatTakenError,
  takeRoundRobinTurn,
  waitsInLine,
} from '#storage/ticket-routing';
import { getTicket, StaleTicketError, type TicketRecord, updateTicketState } from '#storage/tickets';
import { getUser, listUsers, type UserRecord } from '#storage/users';
import { acceptedGreeting } from './automatic-messages.ts';
import { historyItems } from './history.ts';
import { publishTicketChange } from './notify.ts';
import { presentTickets } from './present-page.ts';

/** One member of the queue as the chooser sees them. */
export interface Seat {
  userId: number;
  /** Online, taking automatic assignments, and not skipped in this round. */
  available: boolean;
  open: number;
  /** 0 = no limit. */
  max: number;
}

const hasRoom = (seat: Seat) => seat.available && (seat.max === 0 || seat.open < seat.max);

/**
 * Whom the next ticket goes to, or undefined when nobody may take one. `seats` in a stable order
 * (by user id); `turn` the queue's round-robin counter (storage takeRoundRobinTurn), which also
 * breaks leastBusy's ties so that routers racing on several Lambdas spread their tickets.
 *   roundRobin: the first attendant with room from position `turn` on (cyclically): each gets the
 *               next ticket in turn, and one who is full or away is skipped, not waited for.
 *   leastBusy:  the fewest open tickets; among equals, the first from position `turn` on.
 */
export function chooseAttendant(mode: Exclude<AutoAssignMode, 'off'>, seats: readonly Seat[], turn: number): number | undefined {
  const n = seats.length;
  if (!n) return undefined;
  const start = (((turn - 1) % n) + n) % n;
  const inTurn = Array.from({ length: n }, (_, i) => seats[(start + i) % n] as Seat).filter(hasRoom);
  if (mode === 'roundRobin') return inTurn[0]?.userId;
  const fewest = Math.min(...inTurn.map((seat) => seat.open));
  return inTurn.find((seat) => seat.open === fewest)?.userId;
}

export const routes = (
  queue: Pick<QueueRecord, 'autoAssign'> | undefined,
): queue is QueueRecord & { autoAssign: 'roundRobin' | 'leastBusy' } =>
  queue?.autoAssign === 'roundRobin' || queue?.autoAssign === 'leastBusy';

/** The queue's members as read once per routing run; `seats` kept up to date as it assigns. */
interface Floor {
  queue: QueueRecord & { autoAssign: 'roundRobin' | 'leastBusy' };
  members: UserRecord[];
  seats: Seat[];
}

async function readFloor(companyId: number, queue: Floor['queue']): Promise<Floor> {
  const members = (await listUsers(companyId)).filter((user) => (user.queueIds ?? []).includes(queue.id)).sort((a, b) => a.id - b.id);
  const takers = members.filter((user) => user.autoAssign ?? true).map((user) => user.id);
  const presence = takers.length ? await readPresence(companyId, takers) : new Map();
  const online = takers.filter((id) => presence.get(id) === 'online');
  const open = online.length ? await readSeats(companyId, online) : new Map<number, number>();
  const seats = members.map((user) => ({
    userId: user.id,
    available: online.includes(user.id),
    open: open.get(user.id) ?? 0,
    max: user.maxOpenTickets ?? 0,
  }));
  return { queue, members, seats };
}

type Outcome = 'assigned' | 'noRoom' | 'notWaiting';

/** Gives `ticket` (read as waiting in the floor's queue) to the next attendant with room. */
async function assign(floor: Floor, read: TicketRecord, effects: Effects): Promise<Outcome> {
  const { companyId } = read;
  let ticket = read;
  const skipped = new Set<number>();
  for (let attempt = 0; attempt < floor.seats.length * 2 + 2; attempt++) {
    if (!waitsInLine(ticket) || ticket.queueId !== floor.queue.id) return 'notWaiting';
    const seats = floor.seats.map((seat) => (skipped.has(seat.userId) ? { ...seat, available: false } : seat));
    if (!seats.some(hasRoom)) return 'noRoom';
    const chosen = chooseAttendant(floor.queue.autoAssign, seats, await takeRoundRobinTurn(companyId, floor.queue.id));
    const seat = floor.seats.find((s) => s.userId === chosen);
    const user = floor.members.find((member) => member.id === chosen);
    if (!seat || !user) return 'noRoom';
    try {
      await take(ticket, user, seat.max, effects);
      seat.open++;
      return 'assigned';
    } catch (error) {
      if (error instanceof SeatTakenError) {
        // Another router filled their last seat a moment ago: they are full for this run.
        seat.open = Math.max(seat.open, seat.max);
        skipped.add(seat.userId);
        continue;
      }
      if (!(error instanceof StaleTicketError)) throw error;
      // Someone else moved the ticket (another router, an attendant, the contact's bot): look again.
      const fresh = await getTicket(companyId, ticket.id);
      if (!fresh) return 'notWaiting';
      ticket = fresh;
    }
  }
  return 'noRoom';
}

/** The take itself: the ticket's change, its history line, the greeting, the attendant's seat (conditional), in one transaction. */
async function take(ticket: TicketRecord, user: UserRecord, seatLimit: number, effects: Effects): Promise<void> {
  const { companyId } = ticket;
  const now = effects.now();
  // As an accept (actions.ts): the company's accept greeting, in the attendant's name; bots stop.
  const greet = !ticket.isGroup && (await getCompanySetting(companyId, 'sendGreetingAccepted')) === 'enabled';
  const messages: MessageRecord[] = greet
    ? [
        await buildOutgoingMessage(
          { companyId, ticket, body: acceptedGreeting(ticket.contact.name, user.name), userId: user.id, origin: 'greeting' },
          now,
        ),
      ]
    : [];
  const last = messages.at(-1);
  const patch = {
    status: 'open',
    userId: user.id,
    chatbot: false,
    bot: null,
    ...(last ? { lastMessage: last.body, lastMessageAt: Date.parse(last.createdAt), lastMessageDeleted: false } : {}),
  } as const;
  const history = historyItems(['autoAssigned'], ticket, { ...ticket, ...patch }, null, now.toISOString());
  const next = await updateTicketState(ticket, patch, [...history, ...messages.flatMap((message) => messageItems(message))], {
    seatLimit,
  });
  logger.info('ticket assigned automatically', { companyId, ticketId: ticket.id, userId: user.id, queueId: ticket.queueId });
  const presented = (await presentTickets(companyId, [next]))[0] as Ticket;
  for (const message of messages) await effects.sendCommand(await sendCommandFor(message, next));
  const contact = messages.length ? await getContact(companyId, next.contactId) : undefined;
  await publishTicketChange(effects, ticket, presented, contact ? { messages, contact } : undefined);
}

/** How many waiting tickets one run gives out at most (the rest wait for the next trigger). */
const DRAIN_MAX = 50;

/**
 * Gives the queue's waiting tickets, oldest first, to attendants with room, until nobody has room or
 * nobody waits. `first`: a ticket that just started waiting is tried before the line (it is usually
 * the only one: with room, nothing waits).
 */
export async function routeQueue(
  companyId: number,
  queueId: number,
  effects: Effects = defaultEffects,
  first?: TicketRecord,
): Promise<number> {
  const queue = await getQueue(companyId, queueId);
  if (!routes(queue)) return 0;
  const floor = await readFloor(companyId, queue);
  if (!floor.seats.some(hasRoom)) return 0;
  let assigned = 0;
  if (first) {
    const outcome = await assign(floor, first, effects);
    if (outcome === 'noRoom') return 0;
    if (outcome === 'assigned') assigned++;
  }
  const tried = new Set<number>(first ? [first.id] : []);
  while (assigned < DRAIN_MAX && floor.seats.some(hasRoom)) {
    const line = (await readWaitingLine(companyId, queueId, 10)).filter((id) => !tried.has(id));
    if (!line.length) break;
    for (const id of line) {
      tried.add(id);
      const ticket = await getTicket(companyId, id);
      if (!ticket) continue;
      const outcome = await assign(floor, ticket, effects);
      if (outcome === 'noRoom') return assigned;
      if (outcome === 'assigned') assigned++;
    }
  }
  return assigned;
}

/** An attendant may take more now (came online, a seat freed, an admin raised their limit): their queues' lines move. */
export async function routeForUser(companyId: number, userId: number, effects: Effects = defaultEffects): Promise<number> {
  const user = await getUser(companyId, userId);
  if (!user || user.autoAssign === false) return 0;
  const queues = (await listQueuesCached(companyId)).filter((queue) => routes(queue) && (user.queueIds ?? []).includes(queue.id));
  let assigned = 0;
  for (const queue of queues) assigned += await routeQueue(companyId, queue.id, effects);
  return assigned;
}

/**
 * What a committed ticket change means for routing (`after` undefined: deleted). Called by every path
 * that moves tickets, after its own events; never throws.
 */
export async function afterTicketChange(
  effects: Effects,
  before: RoutedTicket | undefined,
  after: TicketRecord | undefined,
): Promise<void> {
  try {
    const entered = waitsInLine(after) && !(waitsInLine(before) && before.queueId === after.queueId);
    if (entered) await routeQueue(after.companyId, after.queueId, effects, after);
    const freed = holdsSeat(before) && !(holdsSeat(after) && after.userId === before.userId);
    if (freed) await routeForUser(before.companyId, before.userId, effects);
  } catch (error) {
    const ticket = after ?? before;
    logger.error('automatic assignment failed; the ticket waits in Pending', {
      companyId: ticket?.companyId,
      ticketId: ticket?.id,
      error: error as Error,
    });
  }
}

function logFailure(what: string, context: Record<string, unknown>) {
  return (error: unknown) => {
    logger.error(`automatic assignment failed after ${what}`, { ...context, error: error as Error });
    return 0;
  };
}

/** routeForUser from a change that must not fail for it (a user's edit, a socket coming online). */
export const routeForUserSafely = (companyId: number, userId: number, effects: Effects = defaultEffects): Promise<number> =>
  routeForUser(companyId, userId, effects).catch(logFailure('a user change', { companyId, userId }));

/** routeQueue from a change that must not fail for it (a queue's edit). */
export const routeQueueSafely = (companyId: number, queueId: number, effects: Effects = defaultEffects): Promise<number> =>
  routeQueue(companyId, queueId, effects).catch(logFailure('a queue change', { companyId, queueId }));
