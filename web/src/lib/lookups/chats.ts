import { channels } from '@conversa/functions/contracts/channels';
import type { Chat, ChatEvent, ChatList, ChatMessage, ChatMessagesPage } from '@conversa/functions/contracts/chats';
import { type InfiniteData, type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * The internal chat (SPEC 2 "Internal chat", 4 "Badges"): the top bar's popover and the side menu's
 * dot read `chatKeys.list()` (the latest chats and the caller's unread count), the Chats screen
 * (features/chats) pages through `chatKeys.pages(search)` and a chat's messages under
 * `chatKeys.messages(id)`. `useChatsLive` keeps all of them current from `company-{id}-chat`.
 */
export const chatKeys = {
  all: ['chats'] as const,
  list: () => [...chatKeys.all, 'list'] as const,
  pages: (searchParam: string) => [...chatKeys.all, 'pages', searchParam] as const,
  allPages: () => [...chatKeys.all, 'pages'] as const,
  detail: (chatId: number) => [...chatKeys.all, 'detail', chatId] as const,
  messages: (chatId: number) => [...chatKeys.all, 'messages', chatId] as const,
};

/** A message the browser shows before the server stored it (SPEC 2: the sending marker). */
export type ShownChatMessage = ChatMessage & { isTemp?: boolean };
export type ChatMessagesCache = InfiniteData<ChatMessagesPage & { records: ShownChatMessage[] }, string | undefined>;

export const fetchChats = (searchParam: string, pageNumber: number) => api<ChatList>('/chats', { query: { searchParam, pageNumber } });
export const latestChatsQueryOptions = () => queryOptions({ queryKey: chatKeys.list(), queryFn: () => fetchChats('', 1) });
export const useLatestChats = (enabled: boolean) => useQuery({ ...latestChatsQueryOptions(), enabled });

export const unreadsOf = (chat: Chat, userId: number | undefined): number => chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/** Puts a stored message into a chat's pages (newest first) once, replacing nothing else. */
export function addChatMessage(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<ChatMessagesCache>(chatKeys.messages(message.chatId), (data) => {
    if (!data) return data;
    if (data.pages.some((page) => page.records.some((known) => known.id === message.id))) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, records: [message, ...first.records] }, ...rest] };
  });
}

/** `company-{id}-chat` (members only, server side), mounted app-wide (src/app/realtime-bridge.tsx). */
export function useChatsLive(companyId: number | undefined, enabled: boolean): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<ChatEvent>(enabled && companyId ? channels.chat(companyId) : undefined, (event) => {
    if (event.action === 'new-message') addChatMessage(queryClient, event.newMessage);
    if (event.action === 'delete') {
      queryClient.removeQueries({ queryKey: chatKeys.messages(event.id) });
      queryClient.removeQueries({ queryKey: chatKeys.detail(event.id) });
    } else queryClient.setQueryData(chatKeys.detail(event.chat.id), event.chat);
    invalidateOnce(queryClient, chatKeys.list(), chatKeys.allPages());
  });
}
