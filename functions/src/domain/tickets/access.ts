/**
 * Who may see a ticket (SPEC 6, SPEC 5 "Opening a ticket is allowed only if the user belongs to the
 * ticket's queue or is admin"): admins see every ticket of the tenant; a regular user sees the
 * tickets of their queues, the tickets assigned to them, and pending tickets with no queue only
 * when their allTicket is enabled. The same rule as realtime's ticketViewers, so a list and its
 * live updates agree.
 */
import { ForbiddenError, NotFoundError } from '#commons/errors';
import { findMentionGrant } from '#storage/mentions';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket, getTicketByUuid } from '#storage/tickets/tickets';

/** What the rule needs of the caller (the request's Identity fits). */
export interface Viewer {
  userId: number;
  companyId: number;
  profile: string;
  super: boolean;
  user: { queueIds: number[]; allTicket: string; name: string };
}

/** What the rule reads of a viewer (a socket's record carries the same). */
export type TicketViewer = Pick<Viewer, 'userId' | 'companyId' | 'profile' | 'super'> & {
  user: Pick<Viewer['user'], 'queueIds' | 'allTicket'>;
};

export const viewerIsAdmin = (viewer: Pick<Viewer, 'profile' | 'super'>): boolean => viewer.profile === 'admin' || viewer.super;

export function canSeeTicket(viewer: TicketViewer, ticket: Pick<TicketRecord, 'status' | 'queueId' | 'userId'>): boolean {
  if (viewerIsAdmin(viewer)) return true;
  if (ticket.userId !== null && ticket.userId === viewer.userId) return true;
  if (ticket.queueId !== null) return viewer.user.queueIds.includes(ticket.queueId);
  return ticket.status === 'pending' && viewer.user.allTicket === 'enabled';
}

export class TicketNotFoundError extends NotFoundError {
  constructor() {
    super('ERR_NO_TICKET_FOUND');
  }
}

/** The caller's ticket by id: 404 outside the tenant (the key is the tenant's), 403 when not theirs to see. */
export async function loadVisibleTicket(viewer: Viewer, ticketId: number): Promise<TicketRecord> {
  const ticket = await getTicket(viewer.companyId, ticketId);
  if (!ticket) throw new TicketNotFoundError();
  if (!canSeeTicket(viewer, ticket)) throw new ForbiddenError('ERR_NO_PERMISSION');
  return ticket;
}

export async function loadVisibleTicketByUuid(viewer: Viewer, uuid: string): Promise<TicketRecord> {
  const ticket = await getTicketByUuid(viewer.companyId, uuid);
  if (!ticket) throw new TicketNotFoundError();
  if (!canSeeTicket(viewer, ticket)) throw new ForbiddenError('ERR_NO_PERMISSION');
  return ticket;
}

/** How a user reads a ticket: as one of its viewers, or by a colleague's mention until `until` (ISO). */
export type TicketReading = { ticket: TicketRecord; byMention: false } | { ticket: TicketRecord; byMention: true; until: string };

/**
 * How the caller may READ a ticket: one they may see, or one a colleague's note mentioned them on while
 * that mention lasts (storage/mentions.ts); undefined when neither. `byMention` says which, so the
 * reader changes nothing a viewer's read changes (the unread count) and the web shows the thread
 * without a composer. Its grant is one GetItem, read only when the ordinary rule said no.
 */
export async function ticketReading(
  viewer: TicketViewer,
  ticket: TicketRecord,
  now: string = new Date().toISOString(),
): Promise<TicketReading | undefined> {
  if (canSeeTicket(viewer, ticket)) return { ticket, byMention: false };
  const grant = await findMentionGrant(viewer.companyId, ticket.id, viewer.userId, now);
  return grant ? { ticket, byMention: true, until: grant.until } : undefined;
}

export const findTicketByRef = (companyId: number, ref: { id: number } | { uuid: string }): Promise<TicketRecord | undefined> =>
  'id' in ref ? getTicket(companyId, ref.id) : getTicketByUuid(companyId, ref.uuid);

/** A ticket the caller may read (ticketReading): 404 outside the tenant, 403 when neither seen nor mentioned. */
export async function loadReadableTicket(
  viewer: Viewer,
  ref: { id: number } | { uuid: string },
  now: string = new Date().toISOString(),
): Promise<TicketReading> {
  const ticket = await findTicketByRef(viewer.companyId, ref);
  if (!ticket) throw new TicketNotFoundError();
  const reading = await ticketReading(viewer, ticket, now);
  if (!reading) throw new ForbiddenError('ERR_NO_PERMISSION');
  return reading;
}
