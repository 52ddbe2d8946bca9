/**
 * A page of the ticket text search (list.ts "Text search"): the term's longest word looked up as a
 * prefix in the search index (storage/search-index.ts), first among the words of the tickets'
 * contacts, then among the words of their messages; each read is one Query of the index and one
 * BatchGet of its tickets, filtered by visibility and the list's other filters, at most
 * SEARCH_READS reads a page. The cursor is the phase and the last index key consumed.
 *
 * A ticket has one message-word item per message holding the word (search-index.ts): the hits of one
 * ticket for one word come together, and once the first is taken or passed over the others are too,
 * on this page and on the next (the cursor's key names the ticket and the word).
 */
import type { ListTicketsQuery } from '#contracts/ticket-requests';
import type { TicketListStatus } from '#contracts/tickets';
import { InvalidCursorError, openCursor } from '#storage/cursors';
import { listShardsOf } from '#storage/list-shards';
import { searchHitTicketPart, searchPrefix } from '#storage/search-index';
import { readSearchHits } from '#storage/search-reads';
import { listStatusOf } from '#storage/tickets/list-keys';
import { getTickets } from '#storage/tickets/lists';
import type { TicketRecord } from '#storage/tickets/record';
import { canSeeTicket, type Viewer, viewerIsAdmin } from './access.ts';
import { allOf, contactHasWords, hasTags, type Predicate, slaIs } from './row-filters.ts';

export const SEARCH_READS = 4;

/** Search cursor: the phase (0 contact words, 1 message words) and the last index key consumed. */
export type SearchPosition = { phase: 0 | 1 | 2; afterSk?: string };

export async function decodeSearchCursor(scope: string, cursor: string | undefined, primary: string): Promise<SearchPosition> {
  if (!cursor) return { phase: 0 };
  const value = (await openCursor(scope, cursor)) as { p?: unknown; k?: unknown } | null;
  if (value && (value.p === 0 || value.p === 1)) {
    const afterSk = value.k;
    // The last index key read, of this phase's word range (readSearchHits' prefix).
    if (afterSk === undefined || (typeof afterSk === 'string' && afterSk.startsWith(searchPrefix(value.p === 0 ? 'N' : 'M', primary))))
      return { phase: value.p, afterSk };
  }
  throw new InvalidCursorError();
}

/** Message words: a ticket's messages often share a word (one hit each), so a row takes more than one hit. */
const MESSAGE_HITS_PER_ROW = 1.25;

/**
 * The hits to ask for: a phase's first read asks for the rows the page lacks (a hit a row for
 * contact words, MESSAGE_HITS_PER_ROW for message words); later reads for as many as the phase's
 * hits per row so far say those rows take, a quarter more, up to `readLimit` (filters that pass few
 * tickets read big).
 */
function readSize(phase: number, missing: number, seen: number, listed: number, readLimit: number): number {
  if (!seen) return phase === 1 ? Math.ceil(missing * MESSAGE_HITS_PER_ROW) : missing;
  return Math.min(readLimit, Math.max(missing, Math.ceil((missing * seen * 1.25) / Math.max(1, listed))));
}

/**
 * One page of a text search through the index (see the header): contact-word hits, then
 * message-word hits (a ticket found by its contact is not listed again for its messages).
 */
export async function searchPage(
  viewer: Viewer & { company?: { listShards?: number } },
  query: ListTicketsQuery,
  words: string[],
  position: SearchPosition,
  tagIds: number[] | undefined,
  sizes: { pageSize: number; readLimit: number },
): Promise<{ tickets: TicketRecord[]; position: SearchPosition }> {
  const { pageSize, readLimit } = sizes;
  // A search finds snoozed tickets too; a status filter means the list the ticket is in (listStatusOf).
  const statuses: TicketListStatus[] = query.status ? [query.status] : ['open', 'pending', 'closed', 'snoozed'];
  const admin = viewerIsAdmin(viewer);
  const selected = query.queueIds?.length ? query.queueIds : undefined;
  const users = query.users?.length ? query.users : undefined;
  const [primary, ...others] = words as [string, ...string[]];
  const wanted = allOf([
    (t) => canSeeTicket(viewer, t),
    (t) => statuses.includes(listStatusOf(t)),
    // Without showAll, the caller's own view as the lists have it: pending, and what is assigned to them.
    admin && query.showAll ? undefined : (t) => t.status === 'pending' || t.userId === viewer.userId,
    selected ? (t) => t.queueId === null || selected.includes(t.queueId) : undefined,
    users ? (t) => t.userId !== null && users.includes(t.userId) : undefined,
    tagIds ? hasTags(tagIds) : undefined,
    query.date ? (t) => t.createdAt.startsWith(query.date as string) : undefined,
    query.updatedAt ? (t) => t.updatedAt.startsWith(query.updatedAt as string) : undefined,
    query.withUnreadMessages ? (t) => t.unreadMessages > 0 : undefined,
    query.sla ? slaIs(query.sla) : undefined,
  ]) as Predicate;
  const byContact = (t: TicketRecord) => contactHasWords(t, words);

  const page: TicketRecord[] = [];
  let { phase, afterSk } = position;
  // The (word, ticket) parts already taken or passed over: a ticket's other messages holding the word.
  const decided = new Set(afterSk ? [searchHitTicketPart(afterSk)] : []);
  const shards = listShardsOf(viewer.company);
  // This phase's hits consumed and tickets listed: how many hits a row has taken so far.
  let seen = 0;
  let listed = 0;
  for (let reads = 0; phase < 2 && page.length < pageSize && reads < SEARCH_READS; reads++) {
    const limit = readSize(phase, pageSize - page.length, seen, listed, readLimit);
    const hits = await readSearchHits(viewer.companyId, phase === 0 ? 'N' : 'M', primary, { limit, afterSk, shards });
    const tickets = new Map(
      (
        await getTickets(
          viewer.companyId,
          hits.items.filter((hit) => !decided.has(searchHitTicketPart(hit.sk))).map((hit) => hit.id),
        )
      ).map((t) => [t.id, t]),
    );
    let consumed = 0;
    for (const hit of hits.items) {
      consumed++;
      afterSk = hit.sk;
      const part = searchHitTicketPart(hit.sk);
      if (decided.has(part)) continue;
      decided.add(part);
      const ticket = tickets.get(hit.id);
      const fits = ticket && wanted(ticket) && (phase === 0 ? others.length === 0 || byContact(ticket) : !byContact(ticket));
      // Two words of one ticket may share the prefix ("ana", "anabel"): list it once.
      if (fits && !page.some((row) => row.id === ticket.id)) {
        page.push(ticket);
        listed++;
      }
      if (page.length >= pageSize) break;
    }
    seen += consumed;
    if (consumed === hits.items.length && hits.exhausted) {
      phase = phase === 0 ? 1 : 2;
      afterSk = undefined;
      seen = 0;
      listed = 0;
    }
  }
  return { tickets: page, position: { phase, afterSk } };
}
