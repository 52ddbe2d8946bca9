/**
 * Who may see a ticket (SPEC 6, SPEC 5 "Opening a ticket is allowed only if the user belongs to the
 * ticket's queue or is admin"): admins see every ticket of the tenant; a regular user sees the
 * tickets of their queues, the tickets assigned to them, and pending tickets with no queue only
 * when their allTicket is enabled. The same rule as realtime's ticketViewers, so a list and its
 * live updates agree.
 */
import { ForbiddenError, NotFoundError } from '#commons/errors';
import { hasMentionGrant } from '#storage/mentions';
import type { TicketRecord } from '#storage/tickets';
import { getTicket, getTicketByUuid } from '#storage/tickets';

/** What the rule needs of the caller (the request's Identity fits). */
export interface Viewer {
  userId: number;
  companyId: number;
  profile: string;
  super: boolean;
  user: { queueIds: number[]; allTicket: string; name: string };
}

export const viewerIsAdmin = (viewer: Viewer): boolean => viewer.profile === 'admin' || viewer.super;

export function canSeeTicket(viewer: Viewer, ticket: Pick<TicketRecord, 'status' | 'queueId' | 'userId'>): boolean {
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

/**
 * A ticket the caller may READ: one they may see, or one a colleague's note mentioned them on while
 * that mention lasts (storage/mentions.ts). `byMention` says which, so the reader changes nothing a
 * viewer's read changes (the unread count) and the web shows the thread without a composer.
 */
export async function loadReadableTicket(
  viewer: Viewer,
  ref: { id: number } | { uuid: string },
  now: string = new Date().toISOString(),
): Promise<{ ticket: TicketRecord; byMention: boolean }> {
  const ticket = 'id' in ref ? await getTicket(viewer.companyId, ref.id) : await getTicketByUuid(viewer.companyId, ref.uuid);
  if (!ticket) throw new TicketNotFoundError();
  if (canSeeTicket(viewer, ticket)) return { ticket, byMention: false };
  if (await hasMentionGrant(viewer.companyId, ticket.id, viewer.userId, now)) return { ticket, byMention: true };
  throw new ForbiddenError('ERR_NO_PERMISSION');
}
