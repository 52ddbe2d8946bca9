import type { Message, QuotedMessage } from '@conversa/functions/contracts/messages';
import type { ThreadEvent } from '@conversa/functions/contracts/ticket-history';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { type InfiniteData, infiniteQueryOptions, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { rereadInFlight } from '../../../lib/realtime/reread-in-flight.ts';

/** GET /messages/{ticketId} answer (SPEC 7): page 1 holds the newest messages. */
export interface MessagePage {
  /** Oldest to newest within the page. */
  messages: Message[];
  /** The ticket's activity lines (transfers, resolves, bot failures...) of this page's stretch of time. */
  events?: ThreadEvent[];
  /** The ticket as it stood when the page was read. */
  ticket?: Ticket;
  hasMore: boolean;
  /** The next (older) page's cursor: cheaper than its page number. */
  cursor?: string | null;
}
export type Pages = InfiniteData<MessagePage>;

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
      last.hasMore ? { pageNumber: pages.length + 1, cursor: last.cursor ?? undefined } : undefined,
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

/** The activity lines of every loaded page, oldest first, one per id. */
export function flattenEvents(data: Pages | undefined): ThreadEvent[] {
  if (!data) return [];
  const byId = new Map<string, ThreadEvent>();
  for (const page of data.pages) for (const event of page.events ?? []) byId.set(event.id, event);
  return [...byId.values()].sort((a, b) => a.at.localeCompare(b.at));
}

export const LOCAL_ID_PREFIX = 'local-';
export const isLocalMessage = (message: Pick<Message, 'id'>) => message.id.startsWith(LOCAL_ID_PREFIX);

/** What a reply shows of the message it quotes. */
export const toQuoted = (message: Message): QuotedMessage => ({
  id: message.id,
  body: message.body,
  fromMe: message.fromMe,
  mediaType: message.mediaType,
  mediaUrl: message.mediaUrl,
  contact: message.contact,
});

/**
 * The copy of a text the attendant just sent, shown at once (pending) until the server's replaces it
 * (putMessage matches it by body and sender). `body` is as the server will store it (signed or not).
 */
export function pendingTextMessage(input: {
  ticket: { id: number; contactId: number; whatsappId: number };
  user: { id: number; companyId: number } | undefined;
  body: string;
  replyTo: Message | null;
  isPrivate: boolean;
  mentions: NonNullable<Message['mentions']>;
}): Message {
  const { ticket, user, body, replyTo, isPrivate, mentions } = input;
  const now = new Date().toISOString();
  return {
    id: `${LOCAL_ID_PREFIX}${Date.now()}`,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    companyId: user?.companyId ?? 0,
    whatsappId: ticket.whatsappId,
    waId: null,
    body,
    fromMe: true,
    read: true,
    mediaType: null,
    mediaPath: null,
    mediaUrl: null,
    mediaName: null,
    ack: 0,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: replyTo?.id ?? null,
    quotedMsg: replyTo ? toQuoted(replyTo) : null,
    contact: null,
    pending: true,
    error: null,
    bot: false,
    userId: user?.id ?? null,
    ...(isPrivate ? { isPrivate: true } : {}),
    ...(mentions.length ? { mentions } : {}),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Copies of one message arrive out of order: a send's HTTP answer (ack 0) can land after the socket
 * already delivered its ack update. The later write wins, and an ack never goes back (SPEC 4).
 */
function newerOf(known: Message, incoming: Message): Message {
  const latest = incoming.updatedAt >= known.updatedAt ? incoming : known;
  const ack = Math.max(known.ack, incoming.ack);
  return latest.ack === ack ? latest : { ...latest, ack };
}

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
        pages: data.pages.map((page) => ({ ...page, messages: page.messages.map((m) => (m.id === message.id ? newerOf(m, message) : m)) })),
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

/**
 * A realtime event's message (new, acked, edited, deleted) into the cache. A read of the conversation
 * in flight (a remount, a state change's refetch) may have left the server before the message was
 * stored, and its answer would drop it from the open thread: the thread is read again after it
 * (lib/realtime/reread-in-flight.ts).
 */
export function putLiveMessage(queryClient: QueryClient, message: Message): void {
  putMessage(queryClient, message);
  rereadInFlight(queryClient, ticketMessagesKey(message.ticketId));
}

export function dropMessage(queryClient: QueryClient, ticketId: number, messageId: string): void {
  queryClient.setQueryData<Pages>(ticketMessagesKey(ticketId), (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, messages: page.messages.filter((m) => m.id !== messageId) })) } : data,
  );
}

/** POST /messages/{id}/retry: a failed message of ours goes again (pending once more); safe to repeat. */
export const retryMessage = (messageId: string) => api<Message>(`/messages/${encodeURIComponent(messageId)}/retry`, { method: 'POST' });

/** DELETE /messages/{id}: the message stays, marked deleted, and comes back so. */
export const deleteMessage = (messageId: string) => api<Message>(`/messages/${encodeURIComponent(messageId)}`, { method: 'DELETE' });

/** What POST /messages/{ticketId} answers: the stored messages (still pending until the session sends). */
export interface SentMessages {
  messages: Message[];
}

/**
 * POST /messages/{ticketId} with text (SPEC 7): a reply carries the quoted message; `signMessage`
 * asks the server to prefix the user's name in bold (it knows the name as stored). `isPrivate`
 * makes it a private note (issue 22 §6): kept in the thread for the team, never sent, never signed.
 */
export const sendTextMessage = (
  ticketId: number,
  body: string,
  quotedMsg: QuotedMessage | null,
  signMessage: boolean,
  isPrivate = false,
  /** Colleagues a note mentions (issue 22 §6); a message to the customer mentions nobody. */
  mentions: number[] = [],
) =>
  api<SentMessages>(`/messages/${ticketId}`, {
    method: 'POST',
    body: isPrivate
      ? { body, quotedMsg: quotedMsg ?? undefined, isPrivate: true, ...(mentions.length ? { mentions } : {}) }
      : { body, fromMe: true, read: true, quotedMsg: quotedMsg ?? undefined, signMessage },
  });

/**
 * POST /messages/{ticketId} with a file already stored (SPEC 7 `mediaUrl`): a quick reply's
 * attachment goes out with its text as the caption, without a new upload.
 */
export const sendStoredMedia = (ticketId: number, mediaUrl: string, body: string, signMessage: boolean) =>
  api<SentMessages>(`/messages/${ticketId}`, { method: 'POST', body: { body, mediaUrl, fromMe: true, read: true, signMessage } });

/** Writes the answer of a send into the cache (replacing the local pending copy). */
export function putSent(queryClient: QueryClient, sent: SentMessages | undefined): void {
  for (const message of sent?.messages ?? []) putMessage(queryClient, message);
}
