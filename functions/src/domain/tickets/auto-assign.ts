/**
 * Automatic assignment (issue 22 §2). A queue whose `autoAssign` is `roundRobin` or `leastBusy`
 * gives each ticket waiting in it (pending, in the queue, nobody on it, no chatbot or prompt talking
 * to the contact: storage/tickets/routing.ts waitsInLine) to an eligible attendant at once: a member
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
import { randomUUID } from 'node:crypto';
import { logger } from '#commons/logger';
import type { AutoAssignMode } from '#contracts/queues';
import type { Ticket } from '#contracts/tickets';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { buildOutgoingMessage, sendCommandFor } from '#domain/messages/send';
import { getCompanySetting } from '#domain/settings/settings';
import { readPresence } from '#domain/users/presence';
import { type CompanyRecord, stampRoutingSwitchedOn } from '#storage/companies/companies';
import { getContact } from '#storage/contacts/contacts';
import { type MessageRecord, messageItems } from '#storage/messages/messages';
import { getQueue, listQueues, listQueuesCached, type QueueRecord } from '#storage/queues/queues';
import type { TicketRecord } from '#storage/tickets/record';
import {
  abandonDrain,
  holdsSeat,
  type RoutedTicket,
  readSeats,
  readWaitingLine,
  releaseDrain,
  requestDrain,
  SeatTakenError,
  takeRoundRobinTurn,
  waitsInLine,
} from '#storage/tickets/routing';
import { getTicket, StaleTicketError, updateTicketState } from '#storage/tickets/tickets';
import { getUser, listUsers, type UserRecord } from '#storage/users/users';
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

/**
 * What one drain knows of the queue's floor. The members (who is in the queue, takes automatic
 * assignments, their limits) and the greeting setting are read once per drain; presence again when
 * older than PRESENCE_REFRESH_MS (one Query of the company's sockets past 8 takers, GetConnection only
 * for a stale heartbeat: domain/users/presence.ts), so an attendant whose sockets are gone is out
 * within that; the seats every pass (one consistent BatchGet): they move with every resolve.
 */
interface Floor {
  queue: QueueRecord & { autoAssign: 'roundRobin' | 'leastBusy' };
  members: UserRecord[];
  seats: Seat[];
  greet: boolean;
  online: number[];
  presenceAt: number;
}

/** Presence read by a drain counts this long for its next passes. */
export const PRESENCE_REFRESH_MS = 1_000;

async function readFloor(companyId: number, queue: Floor['queue'], known?: Floor): Promise<Floor> {
  const members =
    known?.members ?? (await listUsers(companyId)).filter((user) => (user.queueIds ?? []).includes(queue.id)).sort((a, b) => a.id - b.id);
  const greet = known?.greet ?? (await getCompanySetting(companyId, 'sendGreetingAccepted')) === 'enabled';
  let online = known?.online ?? [];
  let presenceAt = known?.presenceAt ?? 0;
  if (!known || Date.now() - presenceAt > PRESENCE_REFRESH_MS) {
    const takers = members.filter((user) => user.autoAssign ?? true).map((user) => user.id);
    presenceAt = Date.now();
    const presence = takers.length ? await readPresence(companyId, takers) : new Map();
    online = takers.filter((id) => presence.get(id) === 'online');
  }
  const open = online.length ? await readSeats(companyId, online) : new Map<number, number>();
  const seats = members.map((user) => ({
    userId: user.id,
    available: online.includes(user.id),
    open: open.get(user.id) ?? 0,
    max: user.maxOpenTickets ?? 0,
  }));
  return { queue, members, seats, greet, online, presenceAt };
}

/**
 * The take itself: the ticket's change, its history line, the greeting, the attendant's seat
 * (conditional), in one transaction. Resolves once that committed, with its events still on their
 * way (`published`, never rejecting): the drain's next pass need not wait for the sockets.
 */
async function take(
  ticket: TicketRecord,
  user: UserRecord,
  seatLimit: number,
  greetOn: boolean,
  effects: Effects,
): Promise<{ published: Promise<void> }> {
  const { companyId } = ticket;
  const now = effects.now();
  // As an accept (actions.ts): the company's accept greeting, in the attendant's name; bots stop.
  const greet = !ticket.isGroup && greetOn;
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
  const published = (async () => {
    const presented = (await presentTickets(companyId, [next]))[0] as Ticket;
    for (const message of messages) await effects.sendCommand(await sendCommandFor(message, next));
    const contact = messages.length ? await getContact(companyId, next.contactId) : undefined;
    await publishTicketChange(effects, ticket, presented, contact ? { messages, contact } : undefined);
  })().catch((error: unknown) => {
    logger.error('an automatic assignment was committed but not announced', { companyId, ticketId: ticket.id, error: error as Error });
  });
  return { published };
}

/** Tickets one pass takes from the head of the line at most (their takes run side by side). */
const PASS_MAX = 25;
/**
 * How long one invocation passes again for others before it leaves the lease to the next trigger.
 * Short: the owner's own caller waits meanwhile (a resolve's response; an inbound batch, whose
 * events, the assignments' included, go out only when the batch ends).
 */
export const DRAIN_MS = 1_500;
/** The lease outlives a pass by far; it only matters when its owner died (the next trigger after it takes over). */
const LEASE_MS = 15_000;

type Outcome = 'assigned' | 'raced' | 'skipped';

/**
 * One pass: the oldest waiting tickets, as many as there are free seats (up to PASS_MAX), each given
 * in order to the attendant chooseAttendant names for consecutive turns (one counter write for all),
 * the takes side by side. A take that loses (the ticket moved, the seat filled by an accept) is left
 * for the next pass, which reads the floor again.
 */
async function drainPass(floor: Floor, effects: Effects, announcing: Promise<void>[]): Promise<{ outcomes: Outcome[]; more: boolean }> {
  const { queue } = floor;
  const room = floor.seats.filter(hasRoom).reduce((sum, seat) => sum + (seat.max === 0 ? PASS_MAX : seat.max - seat.open), 0);
  if (!room) return { outcomes: [], more: false };
  const limit = Math.min(room, PASS_MAX);
  const line = await readWaitingLine(queue.companyId, queue.id, limit);
  // A line shorter than asked was read whole: nothing more waits unless someone asks again (the lease's count).
  const more = line.length === limit;
  if (!line.length) return { outcomes: [], more };
  const tickets = await Promise.all(line.map((id) => getTicket(queue.companyId, id)));
  const waiting = tickets.filter((t): t is TicketRecord & { queueId: number } => waitsInLine(t) && t.queueId === queue.id);
  if (!waiting.length) return { outcomes: ['raced'], more: true };
  const lastTurn = await takeRoundRobinTurn(queue.companyId, queue.id, waiting.length);
  const plan: { ticket: TicketRecord; user: UserRecord; seat: Seat }[] = [];
  for (const [i, ticket] of waiting.entries()) {
    const chosen = chooseAttendant(queue.autoAssign, floor.seats, lastTurn - waiting.length + 1 + i);
    const seat = floor.seats.find((s) => s.userId === chosen);
    const user = floor.members.find((member) => member.id === chosen);
    if (!seat || !user) break;
    seat.open++;
    plan.push({ ticket, user, seat });
  }
  const outcomes = await Promise.all(
    plan.map(async ({ ticket, user, seat }): Promise<Outcome> => {
      try {
        announcing.push((await take(ticket, user, seat.max, floor.greet, effects)).published);
        return 'assigned';
      } catch (error) {
        // Another path filled their last seat or moved the ticket a moment ago: the next pass reads again.
        if (error instanceof SeatTakenError || error instanceof StaleTicketError) return 'raced';
        throw error;
      }
    }),
  );
  return { outcomes, more: more || outcomes.some((o) => o !== 'assigned') };
}

/**
 * Gives the queue's waiting tickets, oldest first, to attendants with room, until nobody has room or
 * nobody waits. One router at a time per queue (storage/tickets/routing.ts requestDrain): a trigger
 * while another drains only counts itself (one write) and that owner passes again for it, so the
 * routers of a busy queue no longer all read the same line head and fight over its first ticket.
 * Returns the tickets this call assigned (0 when another router serves the trigger).
 */
export async function routeQueue(companyId: number, queueId: number, effects: Effects = defaultEffects): Promise<number> {
  const queue = await getQueue(companyId, queueId);
  if (!routes(queue)) return 0;
  const owner = randomUUID();
  let seen = await requestDrain(companyId, queueId, owner, LEASE_MS);
  if (seen === undefined) return 0;
  const started = Date.now();
  let assigned = 0;
  let floor: Floor | undefined;
  const announcing: Promise<void>[] = [];
  try {
    while (seen !== undefined) {
      // Passes follow each other while they move tickets (a few in a row that only lost races, at
      // most); then the lease is left unless someone asked meanwhile.
      for (let lost = 0; lost < 3 && Date.now() - started <= DRAIN_MS; ) {
        floor = await readFloor(companyId, queue, floor);
        const { outcomes, more } = await drainPass(floor, effects, announcing);
        const given = outcomes.filter((o) => o === 'assigned').length;
        assigned += given;
        if (!outcomes.length || !more) break;
        lost = given ? 0 : lost + 1;
      }
      if (Date.now() - started > DRAIN_MS) {
        // Long enough for one invocation (its own change waits for it): the next trigger carries on.
        await abandonDrain(companyId, queueId, owner);
        logger.warn('automatic assignment handed the drain over', { companyId, queueId, assigned });
        return assigned;
      }
      seen = await releaseDrain(companyId, queueId, owner, seen, LEASE_MS);
    }
  } catch (error) {
    await abandonDrain(companyId, queueId, owner).catch(() => undefined);
    throw error;
  } finally {
    await Promise.all(announcing);
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
 * How long after a queue of a company switched automatic assignment on the minute's sweep routes the
 * company's queues (routeSwitchedQueues): past the read caches' 5 s, with room for one skipped run.
 */
export const ROUTING_CATCH_UP_MS = 2 * 60_000;

/**
 * Whether a ticket entering `queueId` may be routed, from this container's queue list (read-cache.ts,
 * at most REFERENCE_TTL_MS stale): a queue it knows with automatic assignment off is not, which spares
 * every new conversation of such a queue routeQueue's read of the queue. A queue the list does not
 * know (made since) is read fresh by routeQueue. A switch to on made elsewhere within the list's
 * 5 s is caught up by the sweeps (routeSwitchedQueues), for a quiet queue whose next trigger may be
 * long in coming.
 */
async function mayRoute(companyId: number, queueId: number): Promise<boolean> {
  const known = (await listQueuesCached(companyId)).find((queue) => queue.id === queueId);
  return known === undefined || routes(known);
}

/**
 * A queue's edit, committed: automatic assignment turned on or changed mode, so the tickets already
 * waiting go out now (issue 22 §2). Turned on from off, the company is stamped first: tickets that
 * other containers let into the queue in the next seconds, before their queue lists saw the switch
 * (mayRoute), are routed by the next sweeps. Never throws.
 */
export async function afterQueueChange(before: Pick<QueueRecord, 'autoAssign'>, after: QueueRecord, now = new Date()): Promise<void> {
  if (!routes(after) || after.autoAssign === before.autoAssign) return;
  if (!routes(before))
    await stampRoutingSwitchedOn(after.companyId, now.toISOString()).catch(
      logFailure('a queue switched on', { companyId: after.companyId }),
    );
  await routeQueueSafely(after.companyId, after.id);
}

/**
 * The sweeps' catch-up (sweeps/run.ts): a company one of whose queues switched automatic assignment
 * on within ROUTING_CATCH_UP_MS gets each of its routing queues drained (a drain with nobody waiting
 * is a few reads). Returns the tickets assigned; never throws.
 */
export async function routeSwitchedQueues(
  company: Pick<CompanyRecord, 'id' | 'routingSwitchedOnAt'>,
  now: Date,
  effects: Effects = defaultEffects,
): Promise<number> {
  const switchedAt = company.routingSwitchedOnAt ? Date.parse(company.routingSwitchedOnAt) : Number.NaN;
  if (!(now.getTime() - switchedAt <= ROUTING_CATCH_UP_MS)) return 0;
  const queues = await listQueues(company.id).catch((error: unknown) => {
    logFailure('a queue switched on', { companyId: company.id })(error);
    return [];
  });
  let assigned = 0;
  for (const queue of queues.filter(routes)) assigned += await routeQueueSafely(company.id, queue.id, effects);
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
    if (entered && (await mayRoute(after.companyId, after.queueId))) await routeQueue(after.companyId, after.queueId, effects);
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
