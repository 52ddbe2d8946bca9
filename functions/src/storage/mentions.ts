/**
 * Mentions (issue 22 §6, contracts/mentions.ts): two items per mentioned user, both written in the
 * note's own transaction (storeMessage `extra`), so a note is never stored without its mentions nor
 * the reverse.
 *
 *   mention  pk = C#<cid>#MN#<padded userId>   sk = MN#<createdAt>#<messageId>
 *            what the bell lists, newest first; readAt once its user opened the ticket. TTL 30 days.
 *   grant    pk = <the ticket's partition>     sk = MENTION#<padded userId>
 *            unread (how many of the user's mentions on this ticket are unread) and until (the
 *            newest mention's time + MENTION_GRANT_HOURS). The user may read the ticket while
 *            unread > 0 or until is ahead. One GetItem, only when the ordinary rule said no; it goes
 *            with the ticket when the ticket is deleted (its partition), and by TTL otherwise.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { MENTION_GRANT_HOURS, type Mention } from '#contracts/mentions';
import { db, getItem, queryUpTo, type TransactItem, table, transactionCancellationCodes, updateIf } from './db.ts';
import { pad, tenantPk } from './table.ts';
import { ticketPk } from './tickets/tickets.ts';

const KEEP_DAYS = 30;

export interface MentionRecord extends Mention {
  companyId: number;
  userId: number;
}

export interface GrantRecord {
  unread: number;
  until: string;
}

const mentionPk = (companyId: number, userId: number) => `${tenantPk(companyId)}#MN#${pad(userId)}`;
const mentionSk = (createdAt: string, id: string) => `MN#${createdAt}#${id}`;
const grantKey = (companyId: number, ticketId: number, userId: number) => ({
  pk: ticketPk(companyId, ticketId),
  sk: `MENTION#${pad(userId)}`,
});
const expiresAt = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + KEEP_DAYS * 86_400;

/** The items that record `mention` for each of `userIds` (for the note's transaction). */
export function mentionItems(companyId: number, userIds: readonly number[], mention: Omit<Mention, 'readAt'>): TransactItem[] {
  const until = new Date(Date.parse(mention.createdAt) + MENTION_GRANT_HOURS * 3_600_000).toISOString();
  return userIds.flatMap((userId): TransactItem[] => [
    {
      Put: {
        TableName: table(),
        Item: {
          pk: mentionPk(companyId, userId),
          sk: mentionSk(mention.createdAt, mention.id),
          entity: 'mention',
          companyId,
          userId,
          ...mention,
          readAt: null,
          expiresAt: expiresAt(mention.createdAt),
        },
      },
    },
    {
      Update: {
        TableName: table(),
        Key: grantKey(companyId, mention.ticketId, userId),
        UpdateExpression: 'SET entity = :entity, #until = :until, expiresAt = :exp ADD unread :one',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':entity': 'mentionGrant', ':until': until, ':exp': expiresAt(mention.createdAt), ':one': 1 },
      },
    },
  ]);
}

/** The grant by which `userId` may read the ticket at `now` (ISO), or undefined when they may not. */
export async function findMentionGrant(companyId: number, ticketId: number, userId: number, now: string): Promise<GrantRecord | undefined> {
  const { pk, sk } = grantKey(companyId, ticketId, userId);
  const grant = await getItem<GrantRecord>(pk, sk);
  return grant && (grant.unread > 0 || grant.until > now) ? { unread: grant.unread, until: grant.until } : undefined;
}

/** Whether `userId` may read the ticket by a mention at `now` (ISO). */
export const hasMentionGrant = async (companyId: number, ticketId: number, userId: number, now: string): Promise<boolean> =>
  Boolean(await findMentionGrant(companyId, ticketId, userId, now));

const strip = (item: Record<string, unknown>): MentionRecord => {
  const { pk: _pk, sk: _sk, entity: _entity, expiresAt: _expiresAt, ...mention } = item;
  return mention as unknown as MentionRecord;
};

/** The user's newest mentions, at most `limit`. */
export async function listMentions(companyId: number, userId: number, limit: number): Promise<MentionRecord[]> {
  const items = await queryUpTo(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': mentionPk(companyId, userId), ':prefix': 'MN#' },
      ScanIndexForward: false,
    },
    limit,
  );
  return items.map(strip);
}

/** The user's unread mentions on one ticket (their partition holds 30 days of mentions at most). */
async function unreadOnTicket(companyId: number, userId: number, ticketId: number): Promise<MentionRecord[]> {
  const items = await queryUpTo(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'ticketId = :ticket AND readAt = :null',
      ExpressionAttributeValues: { ':pk': mentionPk(companyId, userId), ':prefix': 'MN#', ':ticket': ticketId, ':null': null },
      ScanIndexForward: false,
    },
    1_000,
    200,
  );
  return items.map(strip);
}

/**
 * Marks the user's unread mentions of a ticket read at `at`, each with the grant's count in one
 * transaction (a mention read twice at once counts down once). The mentions it marked.
 */
export async function markMentionsRead(companyId: number, userId: number, ticketId: number, at: string): Promise<MentionRecord[]> {
  const marked: MentionRecord[] = [];
  for (const mention of await unreadOnTicket(companyId, userId, ticketId)) {
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table(),
                Key: { pk: mentionPk(companyId, userId), sk: mentionSk(mention.createdAt, mention.id) },
                UpdateExpression: 'SET readAt = :at',
                ConditionExpression: 'attribute_exists(pk) AND readAt = :null',
                ExpressionAttributeValues: { ':at': at, ':null': null },
              },
            },
            {
              Update: {
                TableName: table(),
                Key: grantKey(companyId, ticketId, userId),
                UpdateExpression: 'ADD unread :minus',
                // The ticket (and its grant with it) may have been deleted meanwhile: nothing to count down.
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
          ],
        }),
      );
      marked.push({ ...mention, readAt: at });
    } catch (error) {
      const codes = transactionCancellationCodes(error);
      if (!codes) throw error;
      // Read by another tab meanwhile: nothing to do.
      if (codes[0] === 'ConditionalCheckFailed') continue;
      // The grant is gone with its ticket: the mention alone is marked.
      await markAlone(companyId, userId, mention, at);
      marked.push({ ...mention, readAt: at });
    }
  }
  return marked;
}

async function markAlone(companyId: number, userId: number, mention: MentionRecord, at: string): Promise<void> {
  await updateIf({
    Key: { pk: mentionPk(companyId, userId), sk: mentionSk(mention.createdAt, mention.id) },
    UpdateExpression: 'SET readAt = :at',
    ConditionExpression: 'attribute_exists(pk) AND readAt = :null',
    ExpressionAttributeValues: { ':at': at, ':null': null },
  });
}
