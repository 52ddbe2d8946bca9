/**
 * The internal chat's API (SPEC 3 "Internal chat", "Chat message"; 7 "/chats"), shared by the
 * functions and the web app. A chat is a titled conversation between users of one company; only its
 * members see it, its messages and its `company-{id}-chat` events.
 */
import * as z from 'zod';

const required = 'Obrigatório';
const tooLong = 'Too Long!';

/** Members of one chat, the owner included: every message updates each member's unread count in one write. */
export const MAX_CHAT_MEMBERS = 50;
export const CHAT_MESSAGE_MAX_LENGTH = 5_000;
export const CHATS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 20;

/** A member as the web sends it (`{id, name}` from the users list) or a bare id. */
const memberSchema = z.union([
  z.number().int().positive(),
  z.object({ id: z.coerce.number().int().positive() }).transform((user) => user.id),
]);
const membersSchema = z
  .array(memberSchema, { error: 'Invalid users' })
  .max(MAX_CHAT_MEMBERS, tooLong)
  .transform((ids) => [...new Set(ids)]);
const titleSchema = z.string({ error: required }).trim().min(1, required).max(100, tooLong);

export const createChatSchema = z.object({ title: titleSchema, users: membersSchema.optional().default([]) }).strip();
export type CreateChatInput = z.output<typeof createChatSchema>;

export const updateChatSchema = z.object({ title: titleSchema.optional(), users: membersSchema.optional() }).strip();
export type UpdateChatInput = z.output<typeof updateChatSchema>;

export const listChatsQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});
export type ListChatsQuery = z.output<typeof listChatsQuerySchema>;

/** Messages newest first; `cursor` is the signed position the previous page answered. */
export const listChatMessagesQuerySchema = z.object({ cursor: z.string().max(500).optional() });
export type ListChatMessagesQuery = z.output<typeof listChatMessagesQuerySchema>;

export const sendChatMessageSchema = z
  .object({ message: z.string({ error: required }).trim().min(1, required).max(CHAT_MESSAGE_MAX_LENGTH, tooLong) })
  .strip();
export type SendChatMessageInput = z.output<typeof sendChatMessageSchema>;

/** SPEC 7: `userId` in the body. The server reads the caller from the token; another user's id is refused. */
export const readChatSchema = z.object({ userId: z.coerce.number().int().positive().optional() }).strip();
export type ReadChatInput = z.output<typeof readChatSchema>;

export interface ChatMember {
  userId: number;
  unreads: number;
  user: { id: number; name: string };
}

export interface Chat {
  id: number;
  uuid: string;
  title: string;
  ownerId: number;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  users: ChatMember[];
}

export interface ChatMessage {
  id: number;
  chatId: number;
  senderId: number;
  sender: { id: number; name: string };
  message: string;
  createdAt: string;
}

export interface ChatList {
  records: Chat[];
  hasMore: boolean;
  /** Chats with unread messages for the caller, across every page: the menu's dot (SPEC 4 "Badges"). */
  unreadChats: number;
}

export interface ChatMessagesPage {
  records: ChatMessage[];
  hasMore: boolean;
  cursor?: string;
}

/** `company-{id}-chat` payloads, sent to the chat's members only. */
export type ChatEvent =
  | { action: 'new-message'; chat: Chat; newMessage: ChatMessage }
  | { action: 'update'; chat: Chat }
  | { action: 'delete'; id: number };
