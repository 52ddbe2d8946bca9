/**
 * Where a ticket sits in its lists: the index keys of the ticket item (gsi1 status x queue, gsi2
 * status x user, gsi3 status; see the key table in tickets/tickets.ts) and the same keys scoped to a tag on
 * each of its tag links. Every write that moves a ticket in its lists takes its keys from here, so
 * the ticket and its tag links can never disagree on a partition or a sort key.
 */
import type { TicketListStatus } from '#contracts/tickets';
import { type TransactItem, table } from '../db.ts';
import { listShardOf } from '../list-shards.ts';
import { pad, tenantPk } from '../table.ts';
import type { TicketRecord } from './record.ts';

export const listSortKey = (updatedAt: string, id: number): string => `${updatedAt}#${pad(id)}`;

/** Shard `shard` of a queue or status list partition (shard 0 is the partition itself). */
export const shardedPartition = (partition: string, shard: number): string => (shard ? `${partition}#s${shard}` : partition);

/**
 * Index partitions of the ticket lists (the key table in tickets/tickets.ts). The queue and status lists of
 * a busy tenant are written in `shard`s (list-shards.ts): shard 0 is the unsharded partition, so a
 * tenant's rows from before sharding stay where its readers look. The user lists (one attendant's
 * tickets) are never sharded.
 */
export const ticketLists = {
  byStatusAndQueue: (companyId: number, status: TicketListStatus, queueId: number | null, shard = 0) =>
    shardedPartition(`${tenantPk(companyId)}#TS#${status}#Q#${queueId ?? 0}`, shard),
  byStatusAndUser: (companyId: number, status: TicketListStatus, userId: number) => `${tenantPk(companyId)}#TS#${status}#U#${userId}`,
  byStatus: (companyId: number, status: TicketListStatus, shard = 0) => shardedPartition(`${tenantPk(companyId)}#TS#${status}`, shard),
};

/** A list partition of `ticketLists` narrowed to the tickets carrying `tagId` (their tag links). */
export const tagListPartition = (companyId: number, tagId: number, partition: string): string =>
  `${tenantPk(companyId)}#TG#${tagId}${partition.slice(tenantPk(companyId).length)}`;

export const tagLinkKey = (companyId: number, tagId: number, ticketId: number) => ({
  pk: `${tenantPk(companyId)}#TG#${tagId}`,
  sk: `TICKET#${pad(ticketId)}`,
});

export type ListPosition = Pick<TicketRecord, 'companyId' | 'id' | 'status' | 'queueId' | 'userId' | 'updatedAt'> &
  Partial<Pick<TicketRecord, 'snoozedUntil' | 'snoozedBy'>>;

/**
 * The list a ticket is in: its status, or `snoozed` while it sleeps. A snoozed ticket is in the
 * snoozed lists only (so no open or pending list, tab count or sweep of those lists sees it), and
 * its user list is its attendant's, or for an unassigned one the snoozer's: where they find it.
 */
export const listStatusOf = (ticket: Pick<ListPosition, 'status' | 'snoozedUntil'>): TicketListStatus =>
  ticket.snoozedUntil ? 'snoozed' : ticket.status;

/** The ticket's three list keys (gsi2 only when assigned), or with `tagId` its tag link's keys for that tag. */
export function ticketListKeys(ticket: ListPosition, tagId?: number) {
  const sk = listSortKey(ticket.updatedAt, ticket.id);
  const scoped = (partition: string) => (tagId === undefined ? partition : tagListPartition(ticket.companyId, tagId, partition));
  const shard = listShardOf(ticket.companyId, ticket.id);
  const status = listStatusOf(ticket);
  const owner = ticket.userId ?? (status === 'snoozed' ? ticket.snoozedBy : null);
  return {
    gsi1pk: scoped(ticketLists.byStatusAndQueue(ticket.companyId, status, ticket.queueId, shard)),
    gsi1sk: sk,
    gsi2pk: owner ? scoped(ticketLists.byStatusAndUser(ticket.companyId, status, owner)) : undefined,
    gsi2sk: owner ? sk : undefined,
    gsi3pk: scoped(ticketLists.byStatus(ticket.companyId, status, shard)),
    gsi3sk: sk,
  };
}

/** The list keys of the ticket's link to `tagId` (a tag link item's gsi attributes). */
export const tagLinkListKeys = (ticket: ListPosition, tagId: number) => ticketListKeys(ticket, tagId);

/** Condition (and its values) that the ticket item still carries exactly `tags`. */
export function tagsUnchanged(tags: TicketRecord['tags']): { condition: string; values: Record<string, unknown> } {
  return tags?.length
    ? { condition: 'tags = :tagsBefore', values: { ':tagsBefore': tags } }
    : { condition: '(attribute_not_exists(tags) OR size(tags) = :noTags)', values: { ':noTags': 0 } };
}

/** Moves each tag link of `next` to the ticket's new list position (see "tag link" in tickets/tickets.ts). */
export function tagLinkMoves(next: TicketRecord): TransactItem[] {
  return (next.tags ?? []).map((tag) => {
    const keys = tagLinkListKeys(next, tag.id);
    return {
      Update: {
        TableName: table(),
        Key: tagLinkKey(next.companyId, tag.id, next.id),
        UpdateExpression: keys.gsi2pk
          ? 'SET gsi1pk = :g1, gsi1sk = :sk, gsi2pk = :g2, gsi2sk = :sk, gsi3pk = :g3, gsi3sk = :sk'
          : 'SET gsi1pk = :g1, gsi1sk = :sk, gsi3pk = :g3, gsi3sk = :sk REMOVE gsi2pk, gsi2sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':g1': keys.gsi1pk,
          ':g3': keys.gsi3pk,
          ':sk': keys.gsi1sk,
          ...(keys.gsi2pk ? { ':g2': keys.gsi2pk } : {}),
        },
      },
    };
  });
}
