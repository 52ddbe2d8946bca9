/**
 * GET /messages/{ticketId}: a page of the conversation, newest page first (page 1 = the latest 20,
 * or `limit` of them, 1..100), each page in reading order (oldest to newest) for the web to prepend
 * as the user scrolls up.
 * Opening the conversation sets the ticket's unread count back to 0 (BEHAVIOUR) and tells the
 * ticket's viewers with `company-{id}-ticket` updateUnread.
 *
 * The page also carries the ticket's activity lines of its stretch of time (`events`, issue 25 item
 * 6: transfers, accepts, resolves, bot hand-offs and failures, tickets/thread-events.ts): from its
 * oldest message (the start of the conversation on the last page) up to the next page's oldest
 * (open on page 1), so every line shows once as the user scrolls. One more Query per page.
 *
 * Cost: a cursor page is one Query of limit + 1 items; `pageNumber` N reads N pages' worth from the
 * newest (capped at MAX_MESSAGES_WALK messages), which is why every answer also carries the cursor.
 */
import { channels } from '#contracts/channels';
import type { Message } from '#contracts/messages';
import type { ThreadEvent } from '#contracts/ticket-history';
import type { Ticket, TicketEvent } from '#contracts/tickets';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { messageIdTime } from '#domain/messages/message-id';
import { loadReadableTicket, type Viewer } from '#domain/tickets/access';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import { ticketAudience } from '#domain/tickets/publish';
import { listThreadEvents } from '#domain/tickets/thread-events';
import { listMessagesPage, type MessageRecord, messageCursor } from '#storage/messages/messages';
import { resetUnread } from '#storage/tickets/tickets';
import { type ListMessagesQuery, MESSAGES_PAGE_SIZE } from './input.ts';
import { presentMessage } from './present.ts';

export interface MessagesPage {
  /** Oldest to newest within the page. */
  messages: Message[];
  /** The ticket's activity lines in this page's stretch of time, oldest first (never sent to the phone). */
  events: ThreadEvent[];
  ticket: Ticket;
  hasMore: boolean;
  /** Pass as `cursor` for the next (older) page; null when there is none. */
  cursor: string | null;
}

/** Up to `count` messages older than `afterId` (newest first), and whether more remain. */
async function readNewest(companyId: number, ticketId: number, count: number, afterId?: string) {
  const found: MessageRecord[] = [];
  let cursor = afterId ? messageCursor(companyId, ticketId, afterId) : undefined;
  // One more than asked tells whether an older page exists; a 1 MB Query page may return fewer.
  while (found.length <= count) {
    const page = await listMessagesPage(companyId, ticketId, { limit: count + 1 - found.length, cursor });
    found.push(...page.messages);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  return { messages: found.slice(0, count), hasMore: found.length > count };
}

export async function listTicketMessages(
  viewer: Viewer,
  ticketId: number,
  query: Omit<ListMessagesQuery, 'limit'> & { limit?: number },
  effects: Effects = defaultEffects,
): Promise<MessagesPage> {
  // A colleague mentioned on the ticket reads it too (storage/mentions.ts), without touching its unread count.
  const { ticket, byMention } = await loadReadableTicket(viewer, { id: ticketId });
  const limit = query.limit ?? MESSAGES_PAGE_SIZE;
  const skip = query.cursor ? 0 : (query.pageNumber - 1) * limit;
  const read = await readNewest(viewer.companyId, ticket.id, skip + limit, query.cursor);
  const newestFirst = read.messages.slice(skip);
  // This page's stretch: from its oldest message (from the start on the last page) to the newer page's oldest.
  const newer = query.cursor ? new Date(messageIdTime(query.cursor)).toISOString() : read.messages[skip - 1]?.createdAt;
  const from = read.hasMore ? newestFirst.at(-1)?.createdAt : undefined;
  const events = skip > 0 && !newer ? Promise.resolve([]) : listThreadEvents(ticket.companyId, ticket.id, from, newer);

  let current = ticket;
  if (!byMention && ticket.unreadMessages > 0 && (await resetUnread(ticket.companyId, ticket.id))) {
    current = { ...ticket, unreadMessages: 0 };
    await effects.publish(
      ticket.companyId,
      channels.ticket(ticket.companyId),
      { action: 'updateUnread', ticketId: ticket.id } satisfies TicketEvent,
      ticketAudience(ticket),
    );
  }
  const oldest = newestFirst.at(-1);
  return {
    messages: newestFirst.reverse().map(presentMessage),
    events: await events,
    ticket: presentTicket(current, await loadTicketRefs(current)),
    hasMore: read.hasMore,
    cursor: read.hasMore && oldest ? oldest.id : null,
  };
}
