/**
 * The tags of a ticket: POST /tags/sync (the whole set), PUT /ticket-tags/{ticketId}/{tagId} (one
 * more), DELETE /ticket-tags/{ticketId} (all off). Only on tickets the caller may see. Each change is
 * one conditional transaction (storage/tags setTicketTags), re-read and re-applied when the ticket's
 * tags moved meanwhile; the ticket's update is published to its viewers, and a change of its tags
 * (only then) is a `ticket.updated` for the company's webhooks (issue 23 §2), with the ticket as
 * every other ticket update carries it (its tags in it). A tag renamed, recoloured or deleted
 * changes the copy on many tickets: their events go out together once the pass is done (batched,
 * emitWebhookEvents).
 */
import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import type { Ticket } from '#contracts/tickets';
import type { Effects } from '#domain/messages/effects';
import { loadVisibleTicket, type Viewer } from '#domain/tickets/access';
import { emitTicketChange, publishTicketChange } from '#domain/tickets/notify';
import { presentTickets } from '#domain/tickets/present-page';
import { emitWebhookEvents } from '#domain/webhooks/emit';
import { publish as publishEvent } from '#realtime/publisher';
import { listTags, MAX_TICKET_TAGS, setTicketTags, type TicketTag, TicketTagsChangedError } from '#storage/tags';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';

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
/** Field by field: a stored copy comes back from DynamoDB with its keys in another order than written. */
const sameTags = (a: TicketTag[], b: TicketTag[]): boolean =>
  a.length === b.length && a.every((tag, i) => tag.id === b[i]?.id && tag.name === b[i]?.name && tag.color === b[i]?.color);

interface TagsChange {
  ticket: TicketRecord;
  /** False when the ticket already had those tags (nothing written, no webhook event). */
  changed: boolean;
}

/** Applies `change` to the ticket's current tags; undefined when the ticket is gone. */
async function changeTags(
  companyId: number,
  ticketId: number,
  change: (tags: TicketTag[]) => TicketTag[],
  options: { countRemoved?: boolean } = {},
): Promise<TagsChange | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const ticket = await getTicket(companyId, ticketId);
    if (!ticket) return undefined;
    const before = ticket.tags ?? [];
    const after = change(before);
    if (sameTags(after, before)) return { ticket, changed: false };
    try {
      await setTicketTags(ticket, after, options);
      return { ticket: { ...ticket, tags: after }, changed: true };
    } catch (error) {
      if (!(error instanceof TicketTagsChangedError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));
    }
  }
  throw new ConflictError('ERR_TICKET_CHANGED');
}

/** The ticket's update to its viewers (whose lists show the tags). */
async function publish(companyId: number, { ticket }: TagsChange): Promise<Ticket> {
  const presented = (await presentTickets(companyId, [ticket]))[0] as Ticket;
  await publishTicketChange(effects, undefined, presented);
  return presented;
}

/** One ticket's tags set through the API: published, and a `ticket.updated` when they changed. */
async function publishOne(companyId: number, result: TagsChange | undefined): Promise<Ticket> {
  if (!result) throw new NotFoundError('ERR_NO_TICKET_FOUND');
  const presented = await publish(companyId, result);
  if (result.changed) await emitTicketChange(result.ticket, presented);
  return presented;
}

/**
 * Rewrites the copy on many tickets (a tag renamed or deleted), publishing each changed ticket; their
 * `ticket.updated` go out together at the end, also when the pass stopped part-way (the tickets
 * changed before the stop are changed).
 */
export async function rewriteTicketTags(
  companyId: number,
  ticketIds: number[],
  change: (tags: TicketTag[]) => TicketTag[],
  options: { countRemoved?: boolean } = {},
): Promise<void> {
  const changed: Ticket[] = [];
  try {
    for (const ticketId of ticketIds) {
      const result = await changeTags(companyId, ticketId, change, options);
      if (!result) continue;
      const presented = await publish(companyId, result);
      if (result.changed) changed.push(presented);
    }
  } finally {
    await emitWebhookEvents(
      companyId,
      'ticket.updated',
      changed.map((ticket) => ({ ticket })),
    );
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
  return publishOne(viewer.companyId, await changeTags(viewer.companyId, ticketId, () => wanted));
}

export async function addTicketTag(viewer: Viewer, ticketId: number, tagId: number): Promise<Ticket> {
  await loadVisibleTicket(viewer, ticketId);
  const [tag] = await tagsById(viewer.companyId, [tagId]);
  const result = await changeTags(viewer.companyId, ticketId, (tags) => {
    if (tags.some((t) => t.id === tagId)) return tags;
    if (tags.length >= MAX_TICKET_TAGS) throw new ValidationError('tagId', 'Too many tags');
    return [...tags, tag as TicketTag];
  });
  return publishOne(viewer.companyId, result);
}

/**
 * The kanban's drag between lanes (SPEC 2 "Kanban"): `from` off and `to` on in one change, so a
 * card never shows in two lanes or none, and the ticket's other tags stay. 0 is the Open lane (no tag).
 */
export async function moveTicketTag(viewer: Viewer, ticketId: number, from: number, to: number): Promise<Ticket> {
  await loadVisibleTicket(viewer, ticketId);
  const [tag] = to ? await tagsById(viewer.companyId, [to]) : [];
  const result = await changeTags(viewer.companyId, ticketId, (tags) => {
    const kept = tags.filter((t) => t.id !== from && t.id !== to);
    if (tag && kept.length >= MAX_TICKET_TAGS) throw new ValidationError('to', 'Too many tags');
    return tag ? [...kept, tag] : kept;
  });
  return publishOne(viewer.companyId, result);
}

export async function clearTicketTags(viewer: Viewer, ticketId: number): Promise<Ticket> {
  await loadVisibleTicket(viewer, ticketId);
  return publishOne(viewer.companyId, await changeTags(viewer.companyId, ticketId, () => []));
}
