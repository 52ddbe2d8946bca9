/** Internal chat (SPEC 7 "/chats"): members-only conversations of a company's users; the plan must have useInternalChat. */
import {
  createChatSchema,
  listChatMessagesQuerySchema,
  listChatsQuerySchema,
  readChatSchema,
  sendChatMessageSchema,
  updateChatSchema,
} from '#contracts/chats';
import {
  createChatFor,
  deleteChatFor,
  getChatFor,
  listChatMessagesFor,
  listChatsFor,
  markChatReadFor,
  sendChatMessageFor,
  updateChatFor,
} from '#domain/chats/chats';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('chats', {
  'GET /chats': async (ctx) => listChatsFor(requireIdentity(ctx), parseInput(listChatsQuerySchema, ctx.query, 'query')),
  'GET /chats/{id}': async (ctx) => getChatFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /chats': async (ctx) => created(await createChatFor(requireIdentity(ctx), parseInput(createChatSchema, ctx.body ?? {}))),
  'PUT /chats/{id}': async (ctx) => updateChatFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateChatSchema, ctx.body ?? {})),
  'DELETE /chats/{id}': async (ctx) => {
    await deleteChatFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'GET /chats/{id}/messages': async (ctx) =>
    listChatMessagesFor(requireIdentity(ctx), parseId(ctx.params), parseInput(listChatMessagesQuerySchema, ctx.query, 'query')),
  'POST /chats/{id}/messages': async (ctx) =>
    created(await sendChatMessageFor(requireIdentity(ctx), parseId(ctx.params), parseInput(sendChatMessageSchema, ctx.body ?? {}))),
  'POST /chats/{id}/read': async (ctx) =>
    markChatReadFor(requireIdentity(ctx), parseId(ctx.params), parseInput(readChatSchema, ctx.body ?? {})),
});
