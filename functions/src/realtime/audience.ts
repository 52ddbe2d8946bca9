/**
 * Who receives a published event, as data (so callers can log it and tests can table it) rather
 * than as ad-hoc filters scattered over handlers. `matches` is the one place that reads it.
 *
 * Ticket visibility (SPEC 6 "Roles and permissions"): admins see every ticket; a user sees the
 * tickets assigned to them and those of their queues; a pending ticket without a queue is seen by
 * users with `allTicket` enabled. `ticketViewers` builds that audience from a ticket.
 */
import type { ConnectionRecord } from '#storage/ws-connections';
import type { TicketStatus } from './rooms.ts';

export type Audience =
  /** Everyone connected in the tenant. */
  | { kind: 'company' }
  /** Profile admin, or super users. */
  | { kind: 'admins' }
  | { kind: 'user'; userId: number }
  | { kind: 'users'; userIds: readonly number[] }
  /**
   * Sockets that have the ticket open as a mention's reader (ws-connections `reading`), while the
   * mention's grant lasts: what a joined chat box adds to the ticket's viewers.
   */
  | { kind: 'reader'; ticketId: number }
  /**
   * Members of a queue. `queueId: null` is "no queue": nobody by membership, but `allTicket`
   * users when `status` is pending.
   */
  | { kind: 'queue'; queueId: number | null; status?: TicketStatus }
  | { kind: 'anyOf'; audiences: readonly Audience[] }
  | { kind: 'allOf'; audiences: readonly Audience[] };

export type AudienceFilter = Audience | ((connection: ConnectionRecord) => boolean);

export const audience = {
  company: { kind: 'company' } as Audience,
  admins: { kind: 'admins' } as Audience,
  user: (userId: number): Audience => ({ kind: 'user', userId }),
  users: (userIds: readonly number[]): Audience => ({ kind: 'users', userIds }),
  reader: (ticketId: number): Audience => ({ kind: 'reader', ticketId }),
  queue: (queueId: number | null, status?: TicketStatus): Audience => ({ kind: 'queue', queueId, status }),
  anyOf: (...audiences: Audience[]): Audience => ({ kind: 'anyOf', audiences }),
  allOf: (...audiences: Audience[]): Audience => ({ kind: 'allOf', audiences }),
};

export interface TicketVisibility {
  status: TicketStatus;
  queueId: number | null;
  /** The attendant the ticket is assigned to, if any. */
  userId: number | null;
}

/** Everyone who may see this ticket in their lists (SPEC 6). */
export function ticketViewers(ticket: TicketVisibility): Audience {
  const parts: Audience[] = [audience.admins, audience.queue(ticket.queueId, ticket.status)];
  if (ticket.userId) parts.push(audience.user(ticket.userId));
  return audience.anyOf(...parts);
}

/**
 * Whether someone who saw the ticket as `before` may not see it as `after` (then they need a
 * `delete`): its attendant changed, its queue changed, or a queue-less ticket stopped being pending
 * (allTicket users see those only while pending). Otherwise `after`'s viewers include `before`'s.
 */
export function viewersMayShrink(before: TicketVisibility, after: TicketVisibility): boolean {
  if (before.userId !== null && before.userId !== after.userId) return true;
  if (before.queueId !== after.queueId) return true;
  return before.queueId === null && before.status === 'pending' && after.status !== 'pending';
}

export const isAdmin = (connection: ConnectionRecord): boolean => connection.profile === 'admin' || connection.super;

export function matches(target: AudienceFilter, connection: ConnectionRecord): boolean {
  if (typeof target === 'function') return target(connection);
  switch (target.kind) {
    case 'company':
      return true;
    case 'admins':
      return isAdmin(connection);
    case 'user':
      return connection.userId === target.userId;
    case 'users':
      return target.userIds.includes(connection.userId);
    case 'reader':
      return connection.reading?.ticketId === target.ticketId && Date.parse(connection.reading.until) > Date.now();
    case 'queue':
      if (target.queueId === null) return target.status === 'pending' && connection.allTicket === 'enabled';
      return connection.queueIds.includes(target.queueId);
    case 'anyOf':
      return target.audiences.some((part) => matches(part, connection));
    case 'allOf':
      return target.audiences.every((part) => matches(part, connection));
  }
}
