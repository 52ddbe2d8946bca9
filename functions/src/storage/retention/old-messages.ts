/**
 * Messages past a company's retention (issue 21 §5, setting `messageRetentionDays`): finding them
 * without scanning, and removing each with everything that repeats its text.
 *
 *   mark   pk = C#<cid>   sk = RETENTION#MARK   { cutoff }   epoch ms of the last finished sweep's cutoff
 *
 * Finding: a ticket's messages are ordered by time (messages/messages.ts: sk MSG#<UUID v7 of the message's
 * time>), so a ticket's messages older than the cutoff are one key range, `MSG#` up to the cutoff's
 * time prefix. The tickets to look in are those of the status lists (tickets/tickets.ts gsi3, every write
 * shard) updated since the previous finished sweep's cutoff: a ticket last updated before it had
 * every message before it removed by that sweep (a message never comes later than its ticket's
 * updatedAt, which each message moves). So after the first sweep, a run reads the tickets active in
 * the retention window and one Query each, not the tenant's history.
 *
 * Removing one message is one transaction: the message, its id lookup and WhatsApp links
 * (tickets/removal.ts messageSideKeys) and the counts of a message stored before issue 24
 * (messages/words.ts), on condition that the message is still there, so a run that dies midway or
 * two overlapping runs never take a word back twice. Its own word items follow it out through the
 * table's stream (messages/words.ts). Its media object is the domain's to delete, before this.
 *
 * Why not DynamoDB TTL on message items: a TTL delete removes the message alone, and the message is
 * the only record that names its inbound media object (`<cid>/whatsapp/...`) and its counted search
 * words (which hold its text): they would outlive it, unfindable. The sweep deletes all three.
 */
import { PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketStatus } from '#contracts/tickets';
import { db, getItem, isConditionalCheckFailed, stripKeys, table, transactionCancellationCodes } from '../db.ts';
import type { MessageRecord } from '../messages/messages.ts';
import { type IndexedMessage, messageWordRemovals } from '../messages/words.ts';
import { tenantPk } from '../table.ts';
import { ticketLists } from '../tickets/list-keys.ts';
import type { TicketRecord } from '../tickets/record.ts';
import { messageSideKeys } from '../tickets/removal.ts';
import { ticketKey, ticketPk } from '../tickets/tickets.ts';

export type StoredMessage = MessageRecord & Pick<IndexedMessage, 'searchWords' | 'wordIndex'>;

const STATUSES: TicketStatus[] = ['open', 'pending', 'closed'];
const TICKETS_PAGE = 100;
const MAX_ATTEMPTS = 5;
const markKey = (companyId: number) => ({ pk: tenantPk(companyId), sk: 'RETENTION#MARK' });

/** The sort key every message of an earlier millisecond sorts below (UUID v7: 48 bits of time first). */
export function messageSortKeyAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `MSG#${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
}

export async function getRetentionMark(companyId: number): Promise<number | undefined> {
  const mark = await getItem<{ cutoff: number }>(markKey(companyId).pk, markKey(companyId).sk);
  return mark?.cutoff;
}

export async function setRetentionMark(companyId: number, cutoff: number): Promise<void> {
  await db().send(new PutCommand({ TableName: table(), Item: { ...markKey(companyId), entity: 'retentionMark', cutoff } }));
}

/** The company's tickets of every status list (each write shard) updated at or after `since` (ISO; undefined: all). */
export async function* ticketsUpdatedSince(companyId: number, shards: number, since?: string): AsyncGenerator<TicketRecord> {
  for (const status of STATUSES) {
    for (let shard = 0; shard < shards; shard++) {
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const out = await db().send(
          new QueryCommand({
            TableName: table(),
            IndexName: 'gsi3',
            KeyConditionExpression: since ? 'gsi3pk = :pk AND gsi3sk >= :since' : 'gsi3pk = :pk',
            ExpressionAttributeValues: { ':pk': ticketLists.byStatus(companyId, status, shard), ...(since ? { ':since': since } : {}) },
            Limit: TICKETS_PAGE,
            ExclusiveStartKey,
          }),
        );
        for (const item of out.Items ?? []) yield stripKeys<TicketRecord>(item);
        ExclusiveStartKey = out.LastEvaluatedKey;
      } while (ExclusiveStartKey);
    }
  }
}

/** Up to `limit` of the ticket's messages older than `cutoff` (epoch ms), oldest first. */
export async function messagesBefore(companyId: number, ticketId: number, cutoff: number, limit = 100): Promise<StoredMessage[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :bound',
      ExpressionAttributeValues: { ':pk': ticketPk(companyId, ticketId), ':first': 'MSG#', ':bound': messageSortKeyAt(cutoff) },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => stripKeys<StoredMessage>(item));
}

/** Removes the message with its lookups and its counted words (see the header). False when it was already gone. */
export async function removeStoredMessage(message: StoredMessage): Promise<boolean> {
  const { companyId, ticketId, id } = message;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getItem<StoredMessage>(ticketPk(companyId, ticketId), `MSG#${id}`);
    if (!current) return false;
    const words = current.isDeleted ? [] : (current.searchWords ?? []);
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: table(),
                Key: { pk: ticketPk(companyId, ticketId), sk: `MSG#${id}` },
                ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
                ExpressionAttributeValues: { ':seen': current.updatedAt },
              },
            },
            ...messageSideKeys(companyId, current as unknown as Record<string, unknown>).map((Key) => ({
              Delete: { TableName: table(), Key },
            })),
            ...(await messageWordRemovals(companyId, ticketId, words)),
          ],
        }),
      );
      return true;
    } catch (error) {
      const codes = transactionCancellationCodes(error);
      if (!codes?.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) throw error;
    }
  }
  throw new Error(`Message ${id} of ticket ${ticketId} kept changing under its removal`);
}

/**
 * The ticket's copy of its last message (the lists' preview) goes when that message is past the
 * cutoff: it is the message's text too. Conditional on the copy read, so a newer message wins.
 */
export async function clearLastMessageBefore(ticket: TicketRecord, cutoff: number): Promise<boolean> {
  if (!ticket.lastMessage || ticket.lastMessageAt >= cutoff) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: ticketKey(ticket.companyId, ticket.id),
        UpdateExpression: 'SET lastMessage = :empty',
        ConditionExpression: 'attribute_exists(pk) AND lastMessageAt = :seen',
        ExpressionAttributeValues: { ':empty': '', ':seen': ticket.lastMessageAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
