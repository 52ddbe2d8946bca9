/**
 * Internal chat (SPEC 2 "Internal chat", 3, 4 "Badges", 7 "/chats"): titled conversations between
 * users of one company. Only members see a chat: to anyone else, another tenant included, it does
 * not exist (404). Members write and read; the owner or an admin renames it, changes its members or
 * deletes it. The owner always stays a member.
 *
 * Events go on `company-{id}-chat` to the chat's members only (audience.users), never to the
 * company: a chat's title and messages are private to it. A member removed by an edit, or every
 * member when the chat is deleted, gets `{action: 'delete', id}`.
 */
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#commons/errors';
import { channels } from '#contracts/channels';
import {
  CHAT_MESSAGES_PAGE_SIZE,
  CHATS_PAGE_SIZE,
  type Chat,
  type ChatEvent,
  type ChatList,
  type ChatMessage,
  type ChatMessagesPage,
  type CreateChatInput,
  type ListChatMessagesQuery,
  type ListChatsQuery,
  MAX_CHAT_MEMBERS,
  type ReadChatInput,
  type SendChatMessageInput,
  type UpdateChatInput,
} from '#contracts/chats';
import type { Identity } from '#domain/identity';
import { audience, publish } from '#realtime/publisher';
import * as store from '#storage/chats';
import { InvalidCursorError, openCursor, scopeOf, sealCursor } from '#storage/cursors';
import { getUser, listUsers } from '#storage/users/users';

/** Edits retried when another edit changed the members between our read and our write. */
const EDIT_ATTEMPTS = 3;

const isAdmin = (identity: Identity) => identity.profile === 'admin' || identity.super;
const canManage = (identity: Identity, chat: store.ChatRecord) => chat.ownerId === identity.userId || isAdmin(identity);

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

type Names = Map<number, string>;

async function namesOf(companyId: number): Promise<Names> {
  // One Query of the company's users (bounded by the plan's user limit) names every member of a page.
  return new Map((await listUsers(companyId)).map((user) => [user.id, user.name]));
}

export const presentChat = (chat: store.ChatRecord, names: Names): Chat => ({
  id: chat.id,
  uuid: chat.uuid,
  title: chat.title,
  ownerId: chat.ownerId,
  lastMessage: chat.lastMessage,
  createdAt: chat.createdAt,
  updatedAt: chat.updatedAt,
  users: chat.memberIds.map((userId) => ({
    userId,
    unreads: chat.unreads[String(userId)] ?? 0,
    user: { id: userId, name: names.get(userId) ?? '' },
  })),
});

export const presentMessage = (message: store.ChatMessageRecord): ChatMessage => ({
  id: message.id,
  chatId: message.chatId,
  senderId: message.senderId,
  sender: { id: message.senderId, name: message.senderName },
  message: message.message,
  createdAt: message.createdAt,
});

const publishTo = (companyId: number, userIds: readonly number[], event: ChatEvent) =>
  userIds.length ? publish(companyId, channels.chat(companyId), event, audience.users(userIds)) : Promise.resolve(undefined);

/** The chat, when the caller is one of its members; 404 otherwise (it does not exist for them). */
async function findMemberChat(identity: Identity, id: number): Promise<store.ChatRecord> {
  const chat = await store.getChat(identity.companyId, id);
  if (!chat || chat.companyId !== identity.companyId || !chat.memberIds.includes(identity.userId)) throw new NotFoundError('ERR_NOT_FOUND');
  return chat;
}

async function findManagedChat(identity: Identity, id: number): Promise<store.ChatRecord> {
  const chat = await findMemberChat(identity, id);
  if (!canManage(identity, chat)) throw new ForbiddenError('ERR_NO_PERMISSION');
  return chat;
}

/** The members of a create or edit: the owner first, then the chosen users, each a user of this company. */
function membersFrom(ownerId: number, chosen: readonly number[], names: Names): number[] {
  const ids = [...new Set([ownerId, ...chosen])];
  if (ids.length > MAX_CHAT_MEMBERS) throw new ValidationError('users', 'Too Long!');
  const stranger = chosen.findIndex((id) => !names.has(id));
  if (stranger >= 0) throw new ValidationError(`users.${stranger}`, 'User not found', 'ERR_NO_USER_FOUND');
  return ids;
}

export async function listChatsFor(identity: Identity, query: ListChatsQuery): Promise<ChatList> {
  const [chats, names] = await Promise.all([store.listChatsOf(identity.companyId, identity.userId), namesOf(identity.companyId)]);
  const needle = fold(query.searchParam);
  const found = chats
    .filter((chat) => !needle || fold(chat.title).includes(needle) || fold(chat.lastMessage).includes(needle))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
  const start = (query.pageNumber - 1) * CHATS_PAGE_SIZE;
  return {
    records: found.slice(start, start + CHATS_PAGE_SIZE).map((chat) => presentChat(chat, names)),
    hasMore: found.length > start + CHATS_PAGE_SIZE,
    unreadChats: chats.filter((chat) => (chat.unreads[String(identity.userId)] ?? 0) > 0).length,
  };
}

export async function getChatFor(identity: Identity, id: number): Promise<Chat> {
  const [chat, names] = await Promise.all([findMemberChat(identity, id), namesOf(identity.companyId)]);
  return presentChat(chat, names);
}

export async function createChatFor(identity: Identity, input: CreateChatInput): Promise<Chat> {
  const names = await namesOf(identity.companyId);
  const memberIds = membersFrom(identity.userId, input.users, names);
  const at = new Date().toISOString();
  const record = await store.createChat({
    id: await store.newChatId(identity.companyId),
    uuid: crypto.randomUUID(),
    companyId: identity.companyId,
    title: input.title,
    ownerId: identity.userId,
    memberIds,
    unreads: Object.fromEntries(memberIds.map((id) => [String(id), 0])),
    lastMessage: '',
    createdAt: at,
    updatedAt: at,
  });
  const chat = presentChat(record, names);
  await publishTo(identity.companyId, memberIds, { action: 'update', chat });
  return chat;
}

export async function updateChatFor(identity: Identity, id: number, input: UpdateChatInput): Promise<Chat> {
  const names = await namesOf(identity.companyId);
  for (let attempt = 1; ; attempt++) {
    const before = await findManagedChat(identity, id);
    const memberIds = input.users ? membersFrom(before.ownerId, input.users, names) : undefined;
    try {
      const after = await store.updateChat(before, { title: input.title, memberIds });
      const chat = presentChat(after, names);
      const removed = before.memberIds.filter((member) => !after.memberIds.includes(member));
      await Promise.all([
        publishTo(identity.companyId, after.memberIds, { action: 'update', chat }),
        publishTo(identity.companyId, removed, { action: 'delete', id }),
      ]);
      return chat;
    } catch (error) {
      if (!(error instanceof store.ChatChangedError)) throw error;
      if (attempt >= EDIT_ATTEMPTS) throw new ConflictError('ERR_CHAT_CHANGED');
    }
  }
}

export async function deleteChatFor(identity: Identity, id: number): Promise<void> {
  const chat = await findManagedChat(identity, id);
  await store.deleteChat(chat);
  await publishTo(identity.companyId, chat.memberIds, { action: 'delete', id });
}

/** The cursor is bound to this tenant and chat: another chat's (or tenant's) cursor does not verify. */
const messagesScope = (identity: Identity, chatId: number) => scopeOf('chat-messages', identity.companyId, chatId);

export async function listChatMessagesFor(identity: Identity, id: number, query: ListChatMessagesQuery): Promise<ChatMessagesPage> {
  await findMemberChat(identity, id);
  let before: number | undefined;
  if (query.cursor !== undefined) {
    const position = await openCursor(messagesScope(identity, id), query.cursor);
    if (!Number.isSafeInteger(position) || (position as number) < 1) throw new InvalidCursorError();
    before = position as number;
  }
  const page = await store.listChatMessages(identity.companyId, id, CHAT_MESSAGES_PAGE_SIZE, before);
  const last = page.messages.at(-1);
  return {
    records: page.messages.map(presentMessage),
    hasMore: page.hasMore,
    cursor: page.hasMore && last ? await sealCursor(messagesScope(identity, id), last.id) : undefined,
  };
}

export async function sendChatMessageFor(identity: Identity, id: number, input: SendChatMessageInput): Promise<ChatMessage> {
  const [chat, sender] = await Promise.all([findMemberChat(identity, id), getUser(identity.companyId, identity.userId)]);
  let stored: store.ChatMessageRecord;
  try {
    stored = await store.addChatMessage(chat, identity.userId, sender?.name ?? '', input.message);
  } catch (error) {
    // Removed from the chat, or the chat deleted, between the read and the write.
    if (error instanceof store.ChatChangedError) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
  const newMessage = presentMessage(stored);
  const [after, names] = await Promise.all([store.getChat(identity.companyId, id), namesOf(identity.companyId)]);
  if (after) await publishTo(identity.companyId, after.memberIds, { action: 'new-message', chat: presentChat(after, names), newMessage });
  return newMessage;
}

/** Zeroes the caller's unread count (SPEC 2: opening a chat with unread messages marks it read). */
export async function markChatReadFor(identity: Identity, id: number, input: ReadChatInput): Promise<Chat> {
  if (input.userId !== undefined && input.userId !== identity.userId) throw new ForbiddenError('ERR_NO_PERMISSION');
  await findMemberChat(identity, id);
  const after = await store.markChatRead(identity.companyId, id, identity.userId);
  if (!after) throw new NotFoundError('ERR_NOT_FOUND');
  const chat = presentChat(after, await namesOf(identity.companyId));
  // The reader's other tabs clear their dot; the other members' counts did not change.
  await publishTo(identity.companyId, [identity.userId], { action: 'update', chat });
  return chat;
}
