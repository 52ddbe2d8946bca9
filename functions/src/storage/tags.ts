/**
 * Tags of a company and the tags of its tickets.
 *
 *   tag          pk = C#<cid>                 sk = TAG#<padded id>    { id, name, color, kanban, userId, ticketsCount }
 *                -> a tenant's tags are a small set (one Query); ticketsCount is kept by the writes below
 *   tag link     pk = C#<cid>#TG#<tagId>       sk = TICKET#<padded ticketId>
 *                -> the tickets of a tag (to take a deleted tag off them, or refresh a renamed one),
 *                   bounded by that tag's tickets
 *                gsi1..3: the ticket's list keys scoped to the tag (tickets/tickets.ts "tag link"): the
 *                   tag filter of the ticket list reads the tag's partition of the list it filters
 *   ticket copy  the ticket item's `tags[]` ({id, name, color}), so a ticket page needs no tag reads
 *
 * A change of a ticket's tags is ONE transaction: the ticket's `tags` (conditional on the value the
 * caller read, so two concurrent edits cannot lose each other), +1/-1 on each tag's ticketsCount and
 * the tag links. A tag deleted meanwhile fails the transaction (the count update requires the tag).
 */
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import {
  db,
  getItem,
  isConditionalCheckFailed,
  nextId,
  queryAll,
  stripKeys,
  table,
  transactionCancellationCodes,
  updateExpression,
} from './db.ts';
import { primeListShards } from './list-shards.ts';
import { pad, tenantPk } from './table.ts';
import { tagLinkKey, tagLinkListKeys, tagsUnchanged } from './tickets/list-keys.ts';
import type { TicketRecord } from './tickets/record.ts';
import { ticketKey } from './tickets/tickets.ts';

export interface TagRecord {
  id: number;
  companyId: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  userId: number | null;
  ticketsCount: number;
  createdAt: string;
  updatedAt: string;
}
export type TicketTag = { id: number; name: string; color: string };

/** At most this many tags on one ticket (keeps a tag change within one transaction). */
export const MAX_TICKET_TAGS = 30;

const tagKey = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `TAG#${pad(id)}` });
const linkKey = tagLinkKey;

export const newTagId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'TAG');

export const getTag = (companyId: number, id: number): Promise<TagRecord | undefined> =>
  getItem<TagRecord>(tagKey(companyId, id).pk, tagKey(companyId, id).sk);

export const listTags = (companyId: number): Promise<TagRecord[]> =>
  queryAll<TagRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'TAG#' },
  });

export async function createTag(tag: TagRecord): Promise<TagRecord> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...tagKey(tag.companyId, tag.id), entity: 'tag', ...tag },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return tag;
}

export async function updateTag(
  companyId: number,
  id: number,
  patch: Partial<Pick<TagRecord, 'name' | 'color' | 'kanban'>>,
): Promise<TagRecord> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: tagKey(companyId, id),
        ...updateExpression({ ...patch, updatedAt: new Date().toISOString() }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<TagRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

export async function deleteTag(companyId: number, id: number): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: tagKey(companyId, id) }));
}

/** Ticket ids carrying the tag (its links). */
export async function tagTicketIds(companyId: number, tagId: number): Promise<number[]> {
  const ids: number[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': linkKey(companyId, tagId, 0).pk },
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) ids.push(Number(item.ticketId));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return ids;
}

/** Thrown when the ticket's tags changed since they were read (re-read and apply again). */
export class TicketTagsChangedError extends Error {}

/**
 * Sets a ticket's tags from `ticket.tags` (what the caller read) to `after`, with the counts and
 * links of the tags added and removed. A new link takes the ticket's list position as read, so the
 * write also requires that position unchanged (updatedAt, revision): TicketTagsChangedError
 * otherwise. `countRemoved`: false when the removed tag is being deleted (its item is gone, nothing
 * to decrement).
 */
export async function setTicketTags(ticket: TicketRecord, after: TicketTag[], options: { countRemoved?: boolean } = {}): Promise<void> {
  const { companyId, id: ticketId } = ticket;
  await primeListShards(companyId);
  const before = ticket.tags ?? [];
  const beforeIds = new Set(before.map((tag) => tag.id));
  const afterIds = new Set(after.map((tag) => tag.id));
  const added = after.filter((tag) => !beforeIds.has(tag.id));
  const removed = before.filter((tag) => !afterIds.has(tag.id));
  const countRemoved = options.countRemoved ?? true;
  const unchanged = tagsUnchanged(before);
  const ticketUpdate = {
    Update: {
      TableName: table(),
      Key: ticketKey(companyId, ticketId),
      UpdateExpression: 'SET tags = :after',
      ConditionExpression: `attribute_exists(pk) AND ${unchanged.condition} AND updatedAt = :updatedAt AND revision = :revision`,
      ExpressionAttributeValues: { ':after': after, ':updatedAt': ticket.updatedAt, ':revision': ticket.revision, ...unchanged.values },
    },
  };
  const counts = (tags: TicketTag[], delta: number) =>
    tags.map((tag) => ({
      Update: {
        TableName: table(),
        Key: tagKey(companyId, tag.id),
        UpdateExpression: 'ADD ticketsCount :delta',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':delta': delta },
      },
    }));
  const items = [
    ticketUpdate,
    ...counts(added, 1),
    ...(countRemoved ? counts(removed, -1) : []),
    ...added.map((tag) => ({
      Put: {
        TableName: table(),
        Item: { ...linkKey(companyId, tag.id, ticketId), ...tagLinkListKeys(ticket, tag.id), entity: 'tagLink', ticketId },
      },
    })),
    ...removed.map((tag) => ({ Delete: { TableName: table(), Key: linkKey(companyId, tag.id, ticketId) } })),
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (codes?.[0] === 'ConditionalCheckFailed') throw new TicketTagsChangedError();
    if (codes?.some((code) => code === 'ConditionalCheckFailed')) throw new NotFoundError('ERR_NOT_FOUND');
    if (codes?.some((code) => code === 'TransactionConflict')) throw new ConflictError('ERR_TICKET_CHANGED');
    throw error;
  }
}

/**
 * What deleting a ticket must also write for its tags (storage/ticket-removal commits these with the
 * ticket's delete): each tag's ticketsCount -1 (only while the tag exists) and its link removed.
 * Paired with `ticketTagsUnchanged`, the delete's condition that the tags are still those.
 */
export async function ticketTagsRemovalItems(companyId: number, ticketId: number, tags: TicketTag[]) {
  // A tag deleted meanwhile has no count to decrement (and ADD would recreate a bare item).
  const live = await Promise.all(tags.map((tag) => getTag(companyId, tag.id)));
  return tags.flatMap((tag, i) => [
    ...(live[i]
      ? [
          {
            Update: {
              TableName: table(),
              Key: tagKey(companyId, tag.id),
              UpdateExpression: 'ADD ticketsCount :minus',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ]
      : []),
    { Delete: { TableName: table(), Key: linkKey(companyId, tag.id, ticketId) } },
  ]);
}

/** Condition (and its values) that the ticket item still carries exactly `tags`. */
export const ticketTagsUnchanged = (tags: TicketTag[]): { condition: string; values: Record<string, unknown> } => tagsUnchanged(tags);
