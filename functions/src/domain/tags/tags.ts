/**
 * Tags of a company (SPEC 3 "Tag", 5, 7). A tenant's tags are a small set read in one Query, so the
 * list's search (case and accents ignored, anywhere in the name) and pages are done on that set.
 * A tag with the kanban flag is a lane of everyone's kanban board: only admins and supervisors may set
 * the flag (SPEC 5 "Tag Kanban switch"), so only they create, change or delete a lane; one rule for
 * every write (a plain user who may not create a lane could otherwise delete it). Renaming or
 * recolouring refreshes the copy on the tag's tickets; deleting takes the tag off them first.
 * Changes are published on `company-{id}-tag` (the tags screen refetches).
 */
import { ForbiddenError, NotFoundError } from '#commons/errors';
import { channels, type TagEvent } from '#contracts/channels';
import type { CreateTagInput, UpdateTagInput } from '#contracts/tag-requests';
import type { Identity } from '#domain/identity';
import { publishToCompany } from '#realtime/publisher';
import * as store from '#storage/tags';
import { rewriteTicketTags } from './ticket-tags.ts';

export const TAGS_PAGE_SIZE = 20;

const publishTagChange = (companyId: number, event: TagEvent) => publishToCompany(companyId, channels.tag(companyId), event);

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
const byName = (a: store.TagRecord, b: store.TagRecord) => fold(a.name).localeCompare(fold(b.name)) || a.id - b.id;

const canSetKanban = (identity: Identity) => identity.profile === 'admin' || identity.profile === 'supervisor' || identity.super;

/** The one rule for writing a lane: refuses a caller who may not set the flag when any `kanban` given is 1. */
function guardLanes(identity: Identity, ...kanban: (0 | 1 | undefined)[]): void {
  if (kanban.includes(1) && !canSetKanban(identity)) throw new ForbiddenError('ERR_NO_PERMISSION');
}

export async function findTag(companyId: number, id: number): Promise<store.TagRecord> {
  const tag = await store.getTag(companyId, id);
  if (!tag || tag.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return tag;
}

export async function listTagsPage(
  companyId: number,
  searchParam: string,
  pageNumber: number,
): Promise<{ tags: store.TagRecord[]; hasMore: boolean }> {
  const needle = fold(searchParam.trim());
  const all = (await store.listTags(companyId)).filter((tag) => !needle || fold(tag.name).includes(needle)).sort(byName);
  const start = (pageNumber - 1) * TAGS_PAGE_SIZE;
  return { tags: all.slice(start, start + TAGS_PAGE_SIZE), hasMore: all.length > start + TAGS_PAGE_SIZE };
}

export const listAllTags = async (companyId: number) => (await store.listTags(companyId)).sort(byName);

export const listKanbanTags = async (companyId: number) => ({ lista: (await listAllTags(companyId)).filter((tag) => tag.kanban === 1) });

export async function createTagFor(identity: Identity, input: CreateTagInput): Promise<store.TagRecord> {
  guardLanes(identity, input.kanban);
  const at = new Date().toISOString();
  const tag = await store.createTag({
    id: await store.newTagId(identity.companyId),
    companyId: identity.companyId,
    name: input.name,
    color: input.color,
    kanban: input.kanban,
    userId: identity.userId,
    ticketsCount: 0,
    createdAt: at,
    updatedAt: at,
  });
  await publishTagChange(identity.companyId, { action: 'create', id: tag.id });
  return tag;
}

export async function updateTagFor(identity: Identity, id: number, input: UpdateTagInput): Promise<store.TagRecord> {
  const before = await findTag(identity.companyId, id);
  // A lane (before) or a tag made one (after).
  guardLanes(identity, before.kanban, input.kanban);
  const patch = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if (!Object.keys(patch).length) return before;
  const tag = await store.updateTag(identity.companyId, id, patch);
  if (tag.name !== before.name || tag.color !== before.color) {
    const copy = { id: tag.id, name: tag.name, color: tag.color };
    await rewriteTicketTags(identity.companyId, await store.tagTicketIds(identity.companyId, id), (tags) =>
      tags.map((t) => (t.id === id ? copy : t)),
    );
  }
  await publishTagChange(identity.companyId, { action: 'update', id });
  return tag;
}

export async function deleteTagFor(identity: Identity, id: number): Promise<void> {
  const { companyId } = identity;
  guardLanes(identity, (await findTag(companyId, id)).kanban);
  const drop = (tags: store.TicketTag[]) => tags.filter((t) => t.id !== id);
  await rewriteTicketTags(companyId, await store.tagTicketIds(companyId, id), drop, { countRemoved: false });
  await store.deleteTag(companyId, id);
  // A tag added to a ticket while the first pass ran: its link is there now (the tag is gone, so no more can come).
  await rewriteTicketTags(companyId, await store.tagTicketIds(companyId, id), drop, { countRemoved: false });
  await publishTagChange(companyId, { action: 'delete', id });
}
