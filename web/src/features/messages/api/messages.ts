import type { Message, QuotedMessage } from '@conversa/functions/contracts/messages';
import { type InfiniteData, infiniteQueryOptions, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /messages/{ticketId} answer (SPEC 7): page 1 holds the newest messages. */
export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
  nextCursor?: string;
}
type Pages = InfiniteData<MessagePage>;

export const messagesKey = ['messages'] as const;
export const ticketMessagesKey = (ticketId: number) => [...messagesKey, ticketId] as const;

interface PageParam {
  pageNumber: number;
  cursor?: string;
}

export const fetchMessages = (ticketId: number, page: PageParam) =>
  api<MessagePage>(`/messages/${ticketId}`, { query: { pageNumber: page.pageNumber, cursor: page.cursor } });

export const messagesQueryOptions = (ticketId: number) =>
  infiniteQueryOptions({
    queryKey: ticketMessagesKey(ticketId),
    queryFn: ({ pageParam }) => fetchMessages(ticketId, pageParam),
    initialPageParam: { pageNumber: 1 } as PageParam,
    getNextPageParam: (last, pages): PageParam | undefined =>
      last.hasMore ? { pageNumber: pages.length + 1, cursor: last.nextCursor } : undefined,
    // Live events keep it current while mounted; reopening a conversation reads it again.
    staleTime: 0,
  });

export const useMessages = (ticketId: number | undefined) =>
  useInfiniteQuery({ ...messagesQueryOptions(ticketId ?? 0), enabled: ticketId !== undefined });

/** Oldest first, one entry per id, whatever order the pages came in. */
export function flattenMessages(data: Pages | undefined): Message[] {
  if (!data) return [];
  const byId = new Map<string, Message>();
  for (const page of [...data.pages].reverse()) for (const message of page.messages ?? []) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export const LOCAL_ID_PREFIX = 'local-';
export const isLocalMessage = (message: Pick<Message, 'id'>) => message.id.startsWith(LOCAL_ID_PREFIX);

/**
 * Writes a message into its ticket's first page. A server message replaces the pending local one
 * with the same body and sender (SPEC 4 "Message ack"), or the stored copy with the same id.
 */
export function putMessage(queryClient: QueryClient, message: Message): void {
  queryClient.setQueryData<Pages>(ticketMessagesKey(message.ticketId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const known = data.pages.some((page) => page.messages.some((m) => m.id === message.id));
    if (known) {
      return {
        ...data,
        pages: data.pages.map((page) => ({ ...page, messages: page.messages.map((m) => (m.id === message.id ? message : m)) })),
      };
    }
    let replaced = false;
    const pages = data.pages.map((page) => ({
      ...page,
      messages: page.messages.filter((m) => {
        if (replaced || !isLocalMessage(m) || m.fromMe !== message.fromMe || m.body !== message.body) return true;
        replaced = true;
        return false;
      }),
    }));
    const [newest, ...older] = pages;
    if (!newest) return data;
    return { ...data, pages: [{ ...newest, messages: [...newest.messages, message] }, ...older] };
  });
}

export function dropMessage(queryClient: QueryClient, ticketId: number, messageId: string): void {
  queryClient.setQueryData<Pages>(ticketMessagesKey(ticketId), (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, messages: page.messages.filter((m) => m.id !== messageId) })) } : data,
  );
}

/** DELETE /messages/{id}: the message stays, marked deleted (the update event brings the mark). */
export const deleteMessage = (messageId: string) => api<unknown>(`/messages/${encodeURIComponent(messageId)}`, { method: 'DELETE' });

/** POST /messages/{ticketId} with text (SPEC 7): a reply carries the quoted message. */
export const sendTextMessage = (ticketId: number, body: string, quotedMsg: QuotedMessage | Message | null) =>
  api<Message | undefined>(`/messages/${ticketId}`, {
    method: 'POST',
    body: { body, fromMe: true, read: true, mediaUrl: '', quotedMsg: quotedMsg ?? undefined },
  });
