import type { Mention } from '@conversa/functions/contracts/mentions';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../api-client.ts';

/**
 * The caller's mentions by colleagues' notes (issue 22 §6): the bell lists them (features/
 * notifications, which loads them and keeps them live from `company-{id}-mention`), the side menu's
 * dot on Atendimentos reads the same query, and opening a ticket marks its mentions read.
 */
export interface MentionList {
  mentions: Mention[];
  unread: number;
}

export const mentionKeys = { all: ['mentions'] as const, list: (userId: number | undefined) => ['mentions', userId] as const };

export const mentionsQueryOptions = (userId: number | undefined) =>
  queryOptions({
    queryKey: mentionKeys.list(userId),
    queryFn: () => api<MentionList>('/mentions'),
    enabled: userId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });

const recount = (mentions: Mention[]): MentionList => ({ mentions, unread: mentions.filter((m) => m.readAt === null).length });

/** The list with `mention` first (once). */
export const withMention = (list: MentionList, mention: Mention): MentionList =>
  recount([mention, ...list.mentions.filter((m) => m.id !== mention.id)]);

/** The list with the ticket's unread mentions read at `at`. */
export const withTicketRead = (list: MentionList, ticketId: number, at: string): MentionList =>
  recount(list.mentions.map((m) => (m.ticketId === ticketId && m.readAt === null ? { ...m, readAt: at } : m)));

export const hasUnreadMention = (list: MentionList | undefined, ticketId: number): boolean =>
  Boolean(list?.mentions.some((m) => m.ticketId === ticketId && m.readAt === null));

/** POST /mentions/read for one ticket, and the cache updated at once (other tabs hear the event). */
export async function markTicketMentionsRead(queryClient: QueryClient, userId: number, ticketId: number): Promise<void> {
  const key = mentionKeys.list(userId);
  queryClient.setQueryData<MentionList>(key, (list) => (list ? withTicketRead(list, ticketId, new Date().toISOString()) : list));
  await api<{ read: number }>('/mentions/read', { method: 'POST', body: { ticketId } });
}
