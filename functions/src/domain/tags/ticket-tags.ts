/**
 * The tags of a ticket: POST /tags/sync (the whole set), PUT /ticket-tags/{ticketId}/{tagId} (one
 * more), DELETE /ticket-tags/{ticketId} (all off). Only on tickets the caller may see. Each change is
 * one conditional transaction (storage/tags setTicketTags), re-read and re-applied when the ticket's
 * tags moved meanwhile; the ticket's update is published to its viewers.
 */
import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import type { Ticket } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { loadVisibleTicket, type Viewer } from '#domain/tickets/access';
import { publishTicketChange } from '#domain/tickets/notify';
import { presentTickets } from '#domain/tickets/present-page';
import { publish as publishEvent } from '#realtime/publisher';
import { listTags, MAX_TICKET_TAGS, setTicketTags, type TicketTag, TicketTagsChangedError } from '#storage/tags';
import { getTicket } from '#storage/tickets';

const ATTEMPTS = 8;
/** Tag changes only publish: this Lambda sends no session commands (and has no grant to). */
const effects: Effects = {
  publish: publishEvent,
  now: () => new Date(),
  sendCommand: async () => {
    throw new Error('tags send no session commands');
  },
};
const copyOf = (tag: TicketTag): TicketTag => ({ id: tag.id, name: tag.name, color: tag.color });

/** Applies `change` to the ticket's current tags; false when the ticket is gone. */
async function changeTags(
  companyId: number,
  ticketId: number,
  change: (tags: TicketTag[]) => TicketTag[],
  options: { countRemoved?: boolean } = {},
) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const ticket = await getTicket(companyId, ticketId);
    if (!ticket) return undefined;
    const before = ticket.tags ?? [];
    const after = change(before);
    if (JSON.stringify(after) === JSON.stringify(before)) return ticket;
    try {
      await setTicketTags(ticket, after, options);
      return { ...ticket, tags: after };
    } catch (error) {
      if (!(error instanceof TicketTagsChangedError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));
    }
  }
  throw new ConflictError('ERR_TICKET_CHANGED');
}

async function publish(companyId: number, ticket: NonNullable<Awaited<ReturnType<typeof changeTags>>>): Promise<Ticket> {
  const presented = (await presentTickets(companyId, [ticket]))[0] as Ticket;
  await publishTicketChange(effects, undefined, presented);
  return presented;
}

/** Rewrites the copy on many tickets (a tag renamed or deleted), publishing each changed ticket. */
export async function rewriteTicketTags(
  companyId: number,
  ticketIds: number[],
  change: (tags: TicketTag[]) => TicketTag[],
  options: { countRemoved?: boolean } = {},
): Promise<void> {
  for (const ticketId of ticketIds) {
    const ticket = await changeTags(companyId, ticketId, change, options);
    if (ticket) await publish(companyId, ticket);
  }
}

async function tagsById(companyId: number, ids: number[]): Promise<TicketTag[]> {
  const known = new Map((await listTags(companyId)).map((tag) => [tag.id, tag]));
  return [...new Set(ids)].map((id) => {
    const tag = known.get(id);
    if (!tag) throw new NotFoundError('ERR_NOT_FOUND');
    return copyOf(tag);
  });
}

export async function syncTicketTags(viewer: Viewer, ticketId: number, tagIds: number[]): Promise<Ticket> {
  await loadVisibleTicket(viewer, ticketId);
  const wanted = await tagsById(viewer.companyId, tagIds);
  const ticket = await changeTags(viewer.companyId, ticketId, () => wanted);
  if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
  return publish(viewer.companyId, ticket);
}

export async function addTicketTag(viewer: Viewer, ticketId: number, tagId: number): Promise<Ticket> {
  await loadVisibleTicket(viewer, ticketId);
  const [tag] = await tagsById(viewer.companyId, [tagId]);
  const ticket = await changeTags(viewer.companyId, ticketId, (tags) => {
    if (tags.some((t) => t.id === tagId)) return tags;
    if (tags.length >= MAX_TICKET_TAGS) throw new ValidationError('tagId', 'Too many tags');
    return [...tags, tag as TicketTag];
  });
  if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
  return publish(viewer.companyId, ticket);
}

/**
 * The kanban's drag between lanes (SPEC 2 "Kanban"): `from` off and `to` on in one change, so a
 * card never shows in two lanes or none, and the ticket's other tags stay. 0 is the Open lane (no tag).
 */
export async function moveTicketTag(viewer: Viewer, ticketId: number, from: number, to: number): Promise<Ticket> {
  await loadVisibleTicket(viewer, ticketId);
  const [tag] = to ? await tagsById(viewer.companyId, [to]) : [];
  const ticket = await changeTags(viewer.companyId, ticketId, (tags) => {
    const kept = tags.filter((t) => t.id !== from && t.id !== to);
    if (tag && kept.length >= MAX_TICKET_TAGS) throw new ValidationError('to', 'Too many tags');
    return tag ? [...kept, tag] : kept;
  });
  if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
  return publish(viewer.companyId, ticket);
}

export async function clearTicketTags(viewer: Viewer, ticketId: number): Promise<Ticket> {
  await loadVisibleTicket(viewer, ticketId);
  const ticket = await changeTags(viewer.companyId, ticketId, () => []);
  if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
  return publish(viewer.companyId, ticket);
}
