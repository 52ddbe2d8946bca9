import type { Chat, ChatMessage, ChatMessagesPage, CreateChatInput, UpdateChatInput } from '@conversa/functions/contracts/chats';
import { infiniteQueryOptions, type QueryClient, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { addChatMessage, type ChatMessagesCache, chatKeys, fetchChats, type ShownChatMessage } from '../../../lib/lookups/chats.ts';

/** The chats the caller is a member of, 20 a page, most recently active first (SPEC 7 GET /chats). */
export const chatsInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: chatKeys.pages(searchParam),
    queryFn: ({ pageParam }) => fetchChats(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });
export const useChatsPage = (searchParam: string) => useInfiniteQuery(chatsInfiniteQueryOptions(searchParam));

export const fetchChat = (id: number) => api<Chat>(`/chats/${id}`);
export const useChat = (id: number | undefined) =>
  useQuery({ queryKey: chatKeys.detail(id ?? 0), queryFn: () => fetchChat(id ?? 0), enabled: Boolean(id) });

/** A chat's messages newest first; the next page is the older one, opened with the server's signed cursor. */
export const chatMessagesInfiniteQueryOptions = (chatId: number) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(chatId),
    queryFn: ({ pageParam }) => api<ChatMessagesPage>(`/chats/${chatId}/messages`, { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.cursor : undefined),
  });
export const useChatMessages = (chatId: number) => useInfiniteQuery(chatMessagesInfiniteQueryOptions(chatId));

const refreshChats = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: chatKeys.all });

export function useSaveChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: CreateChatInput | UpdateChatInput }) =>
      id ? api<Chat>(`/chats/${id}`, { method: 'PUT', body: input }) : api<Chat>('/chats', { method: 'POST', body: input }),
    onSettled: () => refreshChats(queryClient),
  });
}

export function useDeleteChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/chats/${id}`, { method: 'DELETE' }),
    onSuccess: () => refreshChats(queryClient),
  });
}

export function useMarkChatRead() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: (chatId: number) => api<Chat>(`/chats/${chatId}/read`, { method: 'POST', body: { userId: user?.id } }),
    // The answer is the chat with the caller's count at 0: the open conversation stops asking again
    // at once, without waiting for the socket's update (which may never come on a dropped socket).
    onSuccess: (chat) =>
      Promise.all([
        queryClient.setQueryData(chatKeys.detail(chat.id), chat),
        queryClient.invalidateQueries({ queryKey: chatKeys.list() }),
        queryClient.invalidateQueries({ queryKey: chatKeys.allPages() }),
      ]),
  });
}

let tempIds = 0;

/**
 * SPEC 2: the message shows at once with a sending marker (a temporary message, negative id); the
 * stored one replaces it when the server answers (or is already there, when the socket was faster).
 */
export function useSendChatMessage(chatId: number) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const key = chatKeys.messages(chatId);
  const setTemps = (change: (records: ShownChatMessage[]) => ShownChatMessage[]) =>
    queryClient.setQueryData<ChatMessagesCache>(key, (data) => {
      const [first, ...rest] = data?.pages ?? [];
      if (!data || !first) return data;
      return { ...data, pages: [{ ...first, records: change(first.records) }, ...rest] };
    });
  return useMutation({
    mutationFn: ({ message }: { message: string; tempId: number }) =>
      api<ChatMessage>(`/chats/${chatId}/messages`, { method: 'POST', body: { message } }),
    onMutate: ({ message, tempId }) => {
      const temp: ShownChatMessage = {
        id: tempId,
        chatId,
        senderId: user?.id ?? 0,
        sender: { id: user?.id ?? 0, name: user?.name ?? '' },
        message,
        createdAt: new Date().toISOString(),
        isTemp: true,
      };
      setTemps((records) => [temp, ...records]);
    },
    onSuccess: (stored, { tempId }) => {
      setTemps((records) => records.filter((record) => record.id !== tempId));
      addChatMessage(queryClient, stored);
    },
    onError: (_error, { tempId }) => setTemps((records) => records.filter((record) => record.id !== tempId)),
  });
}

export const nextTempId = () => --tempIds;
