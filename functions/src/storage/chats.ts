/**
 * Internal chats (SPEC 3 "Internal chat", "Chat message").
 *
 *   chat        pk = C#<cid>                  sk = CHAT#<padded id>
 *               { id, uuid, title, ownerId, memberIds, unreads: {<userId>: n}, lastMessage, createdAt, updatedAt }
 *               -> the unread counts live on the chat, one number per member: a message adds one to
 *                  each other member's count in the same write that stores the message, and a read
 *                  zeroes the reader's; nothing is ever counted by reading messages back.
 *   membership  pk = C#<cid>                  sk = CHATMEMBER#<padded userId>#<padded chatId>   { chatId, userId }
 *               -> a copy of `memberIds` as keys, so "my chats" is one Query of my memberships plus a
 *                  batched read of those chats, never a scan of the company's chats.
 *   message     pk = C#<cid>#CHAT#<padded id> sk = MSG#<padded message id>
 *               { id, chatId, senderId, senderName, message, createdAt }
 *               -> a chat's messages are their own partition, read newest first by key. `senderName`
 *                  is the name at the time of sending, so a page needs no user reads.
 */
import { BatchWriteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getItemBatched } from './batch-get.ts';
import { db, isConditionalCheckFailed, nextId, queryAll, stripKeys, table, transactionCancellationCodes } from './db.ts';
import { pad, tenantPk } from './table.ts';

export interface ChatRecord {
  id: number;
  uuid: string;
  companyId: number;
  title: string;
  ownerId: number;
  memberIds: number[];
  unreads: Record<string, number>;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
}

export interface ChatMessageRecord {
  id: number;
  chatId: number;
  senderId: number;
  senderName: string;
  message: string;
  createdAt: string;
}

const chatKey = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `CHAT#${pad(id)}` });
const memberPrefix = (userId: number) => `CHATMEMBER#${pad(userId)}#`;
const membershipKey = (companyId: number, userId: number, chatId: number) => ({
  pk: tenantPk(companyId),
  sk: `${memberPrefix(userId)}${pad(chatId)}`,
});
const messagesPk = (companyId: number, chatId: number) => `${tenantPk(companyId)}#CHAT#${pad(chatId)}`;
const messageKey = (companyId: number, chatId: number, id: number) => ({ pk: messagesPk(companyId, chatId), sk: `MSG#${pad(id)}` });

/** Thrown by writes conditioned on the chat as the caller read it: it changed or went away meanwhile. */
export class ChatChangedError extends Error {}

export const newChatId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'CHAT');
const newChatMessageId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'CHAT_MESSAGE');

export function getChat(companyId: number, id: number): Promise<ChatRecord | undefined> {
  return getItemBatched<ChatRecord>(chatKey(companyId, id));
}

/** The chats `userId` is a member of (a Query of their memberships, then one batched read). */
export async function listChatsOf(companyId: number, userId: number): Promise<ChatRecord[]> {
  const memberships = await queryAll<{ chatId: number }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': memberPrefix(userId) },
  });
  const chats = await Promise.all(memberships.map((m) => getChat(companyId, m.chatId)));
  // A membership whose chat is gone, or that the chat no longer lists, is not a chat of theirs.
  return chats.filter((chat): chat is ChatRecord => Boolean(chat?.memberIds.includes(userId)));
}

const membershipPut = (companyId: number, userId: number, chatId: number) => ({
  Put: { TableName: table(), Item: { ...membershipKey(companyId, userId, chatId), entity: 'chatMember', chatId, userId } },
});
const membershipDelete = (companyId: number, userId: number, chatId: number) => ({
  Delete: { TableName: table(), Key: membershipKey(companyId, userId, chatId) },
});

export async function createChat(record: ChatRecord): Promise<ChatRecord> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: table(),
            Item: { ...chatKey(record.companyId, record.id), entity: 'chat', ...record },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...record.memberIds.map((userId) => membershipPut(record.companyId, userId, record.id)),
      ],
    }),
  );
  return record;
}

/**
 * Title and members, conditioned on the members as `before` had them (so two edits never leave the
 * memberships and `memberIds` disagreeing). Added members start at 0 unread; removed ones lose theirs.
 */
export async function updateChat(before: ChatRecord, patch: { title?: string; memberIds?: number[] }): Promise<ChatRecord> {
  const memberIds = patch.memberIds ?? before.memberIds;
  const added = memberIds.filter((id) => !before.memberIds.includes(id));
  const removed = before.memberIds.filter((id) => !memberIds.includes(id));
  const names: Record<string, string> = { '#title': 'title', '#members': 'memberIds', '#at': 'updatedAt' };
  if (added.length || removed.length) names['#unreads'] = 'unreads';
  const values: Record<string, unknown> = {
    ':title': patch.title ?? before.title,
    ':members': memberIds,
    ':before': before.memberIds,
    ':at': new Date().toISOString(),
  };
  const sets = ['#title = :title', '#members = :members', '#at = :at'];
  // DynamoDB refuses a value no expression uses: :zero only when someone is added.
  if (added.length) values[':zero'] = 0;
  for (const id of added) {
    names[`#u${id}`] = String(id);
    sets.push(`#unreads.#u${id} = :zero`);
  }
  for (const id of removed) names[`#u${id}`] = String(id);
  const removes = removed.map((id) => `#unreads.#u${id}`);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: chatKey(before.companyId, before.id),
              UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
              ConditionExpression: 'attribute_exists(pk) AND #members = :before',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          ...added.map((userId) => membershipPut(before.companyId, userId, before.id)),
          ...removed.map((userId) => membershipDelete(before.companyId, userId, before.id)),
        ],
      }),
    );
  } catch (error) {
    if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw new ChatChangedError();
    throw error;
  }
  const after = await getChat(before.companyId, before.id);
  if (!after) throw new ChatChangedError();
  return after;
}

/** The chat and its memberships at once, then its messages (unreachable once the chat is gone). */
export async function deleteChat(chat: ChatRecord): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table(), Key: chatKey(chat.companyId, chat.id) } },
        ...chat.memberIds.map((userId) => membershipDelete(chat.companyId, userId, chat.id)),
      ],
    }),
  );
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': messagesPk(chat.companyId, chat.id) },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: start,
        Limit: 100,
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk }));
    for (let i = 0; i < keys.length; i += 25) {
      let requests = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      for (let round = 0; requests.length && round < 8; round++) {
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: requests } }));
        requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * Stores a message and, in the same transaction, makes it the chat's last message and adds one to
 * every other member's unread count. Refused (ChatChangedError) when the sender is no longer a member.
 */
export async function addChatMessage(chat: ChatRecord, senderId: number, senderName: string, text: string): Promise<ChatMessageRecord> {
  const record: ChatMessageRecord = {
    id: await newChatMessageId(chat.companyId),
    chatId: chat.id,
    senderId,
    senderName,
    message: text,
    createdAt: new Date().toISOString(),
  };
  const names: Record<string, string> = { '#members': 'memberIds', '#last': 'lastMessage', '#at': 'updatedAt' };
  const values: Record<string, unknown> = { ':text': text, ':at': record.createdAt, ':sender': senderId };
  const sets = ['#last = :text', '#at = :at'];
  const others = chat.memberIds.filter((member) => member !== senderId);
  // DynamoDB refuses names and values the expressions do not use, so the unread-count ones are sent
  // only when someone else is there to count for (an owner alone in a chat has nobody).
  if (others.length > 0) {
    names['#unreads'] = 'unreads';
    Object.assign(values, { ':zero': 0, ':one': 1 });
  }
  for (const id of others) {
    names[`#u${id}`] = String(id);
    // if_not_exists: a member added by an edit that raced this send has no count yet.
    sets.push(`#unreads.#u${id} = if_not_exists(#unreads.#u${id}, :zero) + :one`);
  }
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: { ...messageKey(chat.companyId, chat.id, record.id), entity: 'chatMessage', ...record },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: table(),
              Key: chatKey(chat.companyId, chat.id),
              UpdateExpression: `SET ${sets.join(', ')}`,
              ConditionExpression: 'attribute_exists(pk) AND contains(#members, :sender)',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (transactionCancellationCodes(error)?.includes('ConditionalCheckFailed')) throw new ChatChangedError();
    throw error;
  }
  return record;
}

/** Zeroes `userId`'s unread count; undefined when the chat is gone or they are not a member. */
export async function markChatRead(companyId: number, chatId: number, userId: number): Promise<ChatRecord | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: chatKey(companyId, chatId),
        UpdateExpression: 'SET #unreads.#u = :zero',
        ConditionExpression: 'attribute_exists(pk) AND contains(#members, :user)',
        ExpressionAttributeNames: { '#unreads': 'unreads', '#u': String(userId), '#members': 'memberIds' },
        ExpressionAttributeValues: { ':zero': 0, ':user': userId },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ChatRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/** One page of a chat's messages, newest first, after the message id `before` when given. */
export async function listChatMessages(
  companyId: number,
  chatId: number,
  limit: number,
  before?: number,
): Promise<{ messages: ChatMessageRecord[]; hasMore: boolean }> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: before === undefined ? 'pk = :pk' : 'pk = :pk AND sk < :before',
      ExpressionAttributeValues: {
        ':pk': messagesPk(companyId, chatId),
        ...(before === undefined ? {} : { ':before': messageKey(companyId, chatId, before).sk }),
      },
      ScanIndexForward: false,
      // One more than asked: whether another page exists, without answering an empty last page.
      Limit: limit + 1,
    }),
  );
  const items = (out.Items ?? []).map((item) => stripKeys<ChatMessageRecord>(item));
  return { messages: items.slice(0, limit), hasMore: items.length > limit };
}
