/**
 * GET /tickets and GET /ticket/kanban over the list partitions of storage/tickets/tickets.ts.
 *
 * A query becomes a PLAN: the partitions ("sources") whose rows are exactly what the caller may see
 * for it, plus an optional row predicate. The sources depend on the caller and the filters only
 * (statuses x selected queues, or statuses x users), never on the tenant's ticket count:
 *   - own view (everyone without showAll): pending of the caller's (selected) queues, gsi1 one per
 *     queue, plus pending with no queue for admins and allTicket users; open / closed assigned to
 *     the caller, gsi2 (narrowed to the selected queues by predicate);
 *   - admin showAll: gsi1 per (status, selected queue + no queue), or gsi3 per status;
 *   - admin user filter: gsi2 per (status, user).
 * Sources are read newest first and k-way merged on the shared sort key (updatedAt#id). A busy
 * tenant's queue and status lists are written in shards (storage/list-shards.ts): each such source
 * is then one per shard, merged the same way. Its pages cost one Query per shard, still in one
 * round, and end sooner (a shard is a small random slice that runs dry early): measured with 4
 * shards, 24-39 rows a page at up to 2.5 items read a row. A second read per shard fills the page but
 * doubled the p50 (51 against 21 ms), and a person waits on the list while scrolling fetches more.
 *
 * Cost of a page (the issue 4 rule): a plain list of one source reads `pageSize + 1` rows in one
 * Query; with k sources each reads its share, about pageSize / k rows, once, and the page ends where
 * a source ran dry (readPage's fixedCost): k Queries and about a page of rows, not k pages. Lists with a
 * predicate (short search terms, unread only, created day, service-level state, queue narrowing of one's own tickets) read at most FILTERED_READS x FILTERED_LIMIT rows per source and return what matched
 * with hasMore; the next page continues where the reads stopped. Either way a page costs at most
 * sources x FILTERED_READS Queries plus the presentation reads, whatever the tenant's size.
 *
 * Paging: every page returns `nextCursor`, one sort key per source (storage/tickets/lists.ts), which
 * a client passes back as `cursor`. The spec's `pageNumber` alone is honoured by walking the pages
 * before it (cost grows with the page number, capped at 100, never with the tenant's size).
 *
 * Tag filter (tags=[..], a ticket must carry them all): the plan's sources are narrowed to the tag
 * links of the tag with the fewest tickets (tickets.ts tagListPartition: the same lists scoped to
 * the tag), and the other tags are a row predicate. A page costs the list's Queries over the tag's
 * links plus one BatchGet of their tickets.
 *
 * Text search (searchParam with a word of 3+ characters): the search index (search-index.ts). The
 * term's longest word is looked up as a prefix among the words of the tickets' contacts (name and
 * number) first, then among the words of their messages; a contact hit also needs the term's other
 * words to prefix words of the contact (a message hit is on the longest word alone). Hits come
 * newest ticket first within a word (prefix matches of several words: word by word); each read is one
 * Query of the index and one BatchGet of its tickets, filtered by visibility and the other filters,
 * at most SEARCH_READS reads a page (search-page.ts). Shorter terms keep the bounded predicate over the lists.
 */
import type { KanbanQuery, ListTicketsQuery, TicketPageResponse } from '#contracts/ticket-requests';
import type { TicketListStatus, TicketStatus } from '#contracts/tickets';
import { InvalidCursorError, openCursor, scopeOf, sealCursor } from '#storage/cursors';
import { listShardsOf } from '#storage/list-shards';
import { MIN_WORD, termWords } from '#storage/search-index';
import { listTags } from '#storage/tags';
import { shardedPartition, tagListPartition, ticketLists } from '#storage/tickets/list-keys';
import { type ListIndex, readListSlice } from '#storage/tickets/lists';
import type { TicketRecord } from '#storage/tickets/record';
import { canSeeTicket, type Viewer, viewerIsAdmin } from './access.ts';
import { presentTickets } from './present-page.ts';
import { allOf, hasTags, type Predicate, slaIs } from './row-filters.ts';
import { decodeSearchCursor, searchPage } from './search-page.ts';

export const PAGE_SIZE = 40;
export const FILTERED_READS = 3;
export const FILTERED_LIMIT = 100;
const searchSizes = { pageSize: PAGE_SIZE, readLimit: FILTERED_LIMIT };
const KANBAN_PAGE_SIZE = 200;
const END = 1;

type Row = TicketRecord & { listSk: string };

interface Source {
  index: ListIndex;
  partition: string;
  /** Extra row filter of this source (queue narrowing of one's own tickets). */
  predicate?: Predicate;
  /** The partition is this tag's (its rows are tag links). */
  tagId?: number;
  /** A write shard (storage/list-shards.ts) of the source at this index of the plan, its shard 0. */
  shardOf?: number;
}

/** The caller, with the company read fresh with its identity: the tenant's list shards (storage/list-shards.ts). */
export type ListViewer = Viewer & { company: { listShards?: number } };

/**
 * The sources with each queue or status list (gsi1, gsi3) repeated for the tenant's write shards:
 * first every source as given (shard 0), then shard 1 of each sharded one, then shard 2, ... So the
 * sources of a plan made with fewer shards are a prefix of these, and its cursor still opens
 * (decodePositions). Lists of one user (gsi2) are never sharded.
 */
function withShards(sources: Source[], shards: number): Source[] {
  const sharded = sources.flatMap((source, i) => (source.index === 'gsi2' ? [] : [{ source, i }]));
  const more: Source[] = [];
  for (let shard = 1; shard < shards; shard++)
    for (const { source, i } of sharded) more.push({ ...source, partition: shardedPartition(source.partition, shard), shardOf: i });
  return [...sources, ...more];
}

export interface ListPlan {
  sources: Source[];
  /** Drops rows the sources hold but the query does not want (search, unread, created day, ...). */
  rowFilter?: Predicate;
  /** Visibility (SPEC 6): the sources only hold visible rows; checked again as defence in depth. */
  visible: Predicate;
  range?: { from: string; to: string };
}

type Position = string | null | typeof END;

/** Without a status filter: every list but the snoozed one (a snoozed ticket is out of the lists until it wakes). */
const allStatuses: TicketListStatus[] = ['open', 'pending', 'closed'];

/** Terms the index cannot serve (no word of MIN_WORD+ characters): a predicate over the rows read. */
function shortTermPredicate(term: string): Predicate | undefined {
  const words = termWords(term);
  if (!words.length) return undefined;
  const fold = (text: string) => termWords(text).join(' ');
  return (ticket) => {
    const haystack = `${fold(ticket.contact.name)} ${ticket.contact.number} ${fold(ticket.lastMessage ?? '')}`;
    return words.every((word) => haystack.includes(word));
  };
}

const indexedTerm = (term: string): string[] | undefined => {
  const words = termWords(term);
  return words[0] && words[0].length >= MIN_WORD ? words : undefined;
};

/**
 * The partitions and filters that answer `query` for `viewer` (see the header). `tagId`: read the
 * lists of that tag (the caller picks the query's most selective tag).
 */
export function planList(viewer: ListViewer, query: ListTicketsQuery, statuses?: TicketListStatus[], tagId?: number): ListPlan {
  const { companyId } = viewer;
  const admin = viewerIsAdmin(viewer);
  const wanted = statuses ?? (query.status ? [query.status] : allStatuses);
  const selected = query.queueIds?.length ? query.queueIds : undefined;
  const inSelection: Predicate | undefined = selected && ((t) => t.queueId === null || selected.includes(t.queueId));
  const users = query.users?.length ? query.users : undefined;
  const sources: Source[] = [];

  if (admin && users) {
    for (const status of wanted)
      for (const userId of users)
        sources.push({ index: 'gsi2', partition: ticketLists.byStatusAndUser(companyId, status, userId), predicate: inSelection });
  } else if (admin && query.showAll) {
    for (const status of wanted) {
      if (!selected) sources.push({ index: 'gsi3', partition: ticketLists.byStatus(companyId, status) });
      else
        for (const queueId of [...selected, null])
          sources.push({ index: 'gsi1', partition: ticketLists.byStatusAndQueue(companyId, status, queueId) });
    }
  } else {
    const mine = viewer.user.queueIds;
    const queues = admin ? (selected ?? mine) : (selected ?? mine).filter((id) => mine.includes(id));
    for (const status of wanted) {
      if (status === 'pending') {
        for (const queueId of new Set(queues))
          sources.push({ index: 'gsi1', partition: ticketLists.byStatusAndQueue(companyId, status, queueId) });
        if (admin || viewer.user.allTicket === 'enabled')
          sources.push({ index: 'gsi1', partition: ticketLists.byStatusAndQueue(companyId, status, null) });
      } else {
        sources.push({ index: 'gsi2', partition: ticketLists.byStatusAndUser(companyId, status, viewer.userId), predicate: inSelection });
      }
    }
  }

  const date = query.date;
  const tags = query.tags?.length ? query.tags : undefined;
  const shardedSources = withShards(sources, listShardsOf(viewer.company));
  return {
    sources:
      tagId === undefined
        ? shardedSources
        : shardedSources.map((source) => ({ ...source, tagId, partition: tagListPartition(companyId, tagId, source.partition) })),
    rowFilter: allOf([
      date ? (t) => t.createdAt.startsWith(date) : undefined,
      query.withUnreadMessages ? (t) => t.unreadMessages > 0 : undefined,
      query.sla ? slaIs(query.sla) : undefined,
      // The tag read is the partition's; the others must be carried too.
      tags && (tags.length > 1 || tagId === undefined) ? hasTags(tags) : undefined,
      indexedTerm(query.searchParam) ? undefined : shortTermPredicate(query.searchParam),
      users && !admin ? (t) => t.userId !== null && users.includes(t.userId) : undefined,
    ]),
    visible: (t) => canSeeTicket(viewer, t),
    range: query.updatedAt ? { from: query.updatedAt, to: `${query.updatedAt}~` } : undefined,
  };
}

/**
 * The list's cursor scope (storage/cursors.ts): tenant, caller and every filter, so a cursor opens
 * only for the same list it was made for. Positions are sort keys of the caller's own partitions,
 * and the sources come from the caller and the query, never from the cursor.
 */
function cursorScope(viewer: Viewer, query: ListTicketsQuery, kind: 'list' | 'search'): string {
  const { cursor: _cursor, pageNumber: _pageNumber, ...filters } = query;
  return scopeOf('tickets', kind, viewer.companyId, viewer.userId, filters);
}

/** A list sort key (storage/tickets/tickets.ts listSortKey: `<updatedAt>#<padded id>`), inside the day filtered on. */
const LIST_SORT_KEY = /^\d{4}-\d{2}-\d{2}T[\d:.]{1,20}Z#\d{10}$/;

/**
 * The positions a cursor holds, one per source. A cursor made before the tenant's lists were sharded
 * further holds a prefix of the sources (withShards); each new shard starts where its shard 0 is:
 * every row it holds was written after the cursor was made, so it sits above that position, as a
 * ticket that moves during paging does.
 */
async function decodePositions(scope: string, cursor: string, plan: ListPlan): Promise<Position[]> {
  const value = await openCursor(scope, cursor);
  const inRange = (sk: string) => !plan.range || (sk >= plan.range.from && sk <= plan.range.to);
  const bases = plan.sources.filter((source) => source.shardOf === undefined).length;
  const perShard = plan.sources.filter((source, i) => source.shardOf === undefined && plan.sources.some((s) => s.shardOf === i)).length;
  const madeWith = (length: number) =>
    length === plan.sources.length || (length >= bases && perShard > 0 && (length - bases) % perShard === 0);
  if (
    Array.isArray(value) &&
    value.length <= plan.sources.length &&
    madeWith(value.length) &&
    value.every((p) => p === null || p === END || (typeof p === 'string' && LIST_SORT_KEY.test(p) && inRange(p)))
  )
    return plan.sources.map((source, i) => (i < value.length ? value[i] : value[source.shardOf as number]) as Position);
  throw new InvalidCursorError();
}

interface SourceState {
  source: Source;
  predicate: Predicate;
  filtered: boolean;
  /** Where the next read continues (sort key of the last row read). */
  readSk: string | undefined;
  exhausted: boolean;
  reads: number;
  buffer: Row[];
  lastTaken?: string;
  start: Position;
}

/**
 * One merged page from `positions` (one per source). Sources are read lazily: a source is read
 * (again) only while it may hold the newest row not yet taken, i.e. its buffer is empty and where
 * it stopped is newer than the best row buffered elsewhere. A filtered source reads FILTERED_LIMIT
 * rows at a time, at most FILTERED_READS times a page; a source out of budget that may still hold
 * newer rows ends the page there (the cursor resumes it).
 *
 * `fixedCost` (the inbox list): an unfiltered source reads once, its share (pageSize / k + 1), so a
 * page of k sources costs exactly k Queries and about a page of rows whatever the data; the page is
 * then shorter than pageSize when one source held most of the newest rows (hasMore says go on).
 * Without it (kanban, one page that must be full) a source that runs dry reads on.
 */
export async function readPage(
  companyId: number,
  plan: ListPlan,
  positions: Position[],
  pageSize: number,
  options: { fixedCost?: boolean } = {},
): Promise<{ tickets: TicketRecord[]; positions: Position[]; hasMore: boolean }> {
  const states: SourceState[] = plan.sources.map((source, i) => {
    const start = positions[i] ?? null;
    return {
      source,
      predicate: allOf([plan.visible, plan.rowFilter, source.predicate]) ?? plan.visible,
      filtered: Boolean(plan.rowFilter || source.predicate),
      readSk: typeof start === 'string' ? start : undefined,
      exhausted: start === END,
      reads: 0,
      buffer: [],
      start,
    };
  });
  const share = states.length > 1 ? Math.ceil(pageSize / states.length) + 1 : pageSize + 1;
  const read = async (state: SourceState, wanted: number) => {
    const slice = await readListSlice(companyId, state.source.index, state.source.partition, {
      limit: state.filtered ? FILTERED_LIMIT : Math.max(2, Math.min(share, wanted + 1)),
      afterSk: state.readSk,
      range: plan.range,
      tagId: state.source.tagId,
    });
    state.reads++;
    state.readSk = slice.lastSk;
    state.exhausted = slice.exhausted;
    state.buffer.push(...slice.tickets.filter(state.predicate));
  };
  // Unfiltered sources only drop rows their partition should not hold (visibility, defence in depth): a cap all the same.
  // fixedCost: one read of its share per source, the page ends where a source that may hold newer rows ran dry.
  const maxReads = (state: SourceState) => (state.filtered ? FILTERED_READS : options.fixedCost ? 1 : Math.ceil(pageSize / share) + 2);
  const canRead = (state: SourceState) => !state.exhausted && state.reads < maxReads(state);
  const newestHead = () => {
    let best: SourceState | undefined;
    for (const state of states) {
      const head = state.buffer[0];
      if (head && (!best || head.listSk > (best.buffer[0] as Row).listSk)) best = state;
    }
    return best;
  };

  const page: TicketRecord[] = [];
  const seen = new Set<number>();
  while (page.length < pageSize) {
    // Sources that may hold a row newer than every buffered head: read them (in parallel) first.
    const head = newestHead()?.buffer[0];
    const behind = states.filter((s) => !s.buffer.length && !s.exhausted && (s.readSk === undefined || !head || s.readSk > head.listSk));
    const readable = behind.filter(canRead);
    if (readable.length) {
      await Promise.all(readable.map((state) => read(state, pageSize - page.length)));
      continue;
    }
    // A source out of budget may still hold rows newer than the best head: stop there.
    if (behind.length) break;
    const best = newestHead();
    if (!best) break;
    const row = best.buffer.shift() as Row;
    best.lastTaken = row.listSk;
    if (!seen.has(row.id)) {
      seen.add(row.id);
      const { listSk, ...ticket } = row;
      page.push(ticket);
    }
  }

  const next: Position[] = states.map((state) => {
    if (state.buffer.length) return state.lastTaken ?? state.start;
    if (state.exhausted) return END;
    return state.readSk ?? null;
  });
  return { tickets: page, positions: next, hasMore: next.some((p) => p !== END) };
}

/** The tag of `tagIds` with the fewest tickets (its lists are the smallest to read); undefined when one does not exist. */
async function mostSelectiveTag(companyId: number, tagIds: number[]): Promise<number | undefined> {
  const tags = new Map((await listTags(companyId)).map((tag) => [tag.id, tag]));
  let best: { id: number; count: number } | undefined;
  for (const id of tagIds) {
    const tag = tags.get(id);
    if (!tag) return undefined;
    if (!best || tag.ticketsCount < best.count) best = { id, count: tag.ticketsCount };
  }
  return best?.id;
}

export async function listTickets(viewer: ListViewer, query: ListTicketsQuery): Promise<TicketPageResponse> {
  const tagIds = query.tags?.length ? query.tags : undefined;
  const words = indexedTerm(query.searchParam);
  if (words) {
    const scope = cursorScope(viewer, query, 'search');
    let position = await decodeSearchCursor(scope, query.cursor, words[0] as string);
    for (let page = 1; !query.cursor && page < query.pageNumber && position.phase < 2; page++)
      position = (await searchPage(viewer, query, words, position, tagIds, searchSizes)).position;
    if (position.phase === 2) return { tickets: [], hasMore: false };
    const found = await searchPage(viewer, query, words, position, tagIds, searchSizes);
    const hasMore = found.position.phase < 2;
    return {
      tickets: await presentTickets(viewer.companyId, found.tickets),
      hasMore,
      nextCursor: hasMore ? await sealCursor(scope, { p: found.position.phase, k: found.position.afterSk }) : undefined,
    };
  }

  const tagId = tagIds ? await mostSelectiveTag(viewer.companyId, tagIds) : undefined;
  if (tagIds && tagId === undefined) return { tickets: [], hasMore: false };
  const plan = planList(viewer, query, undefined, tagId);
  const scope = cursorScope(viewer, query, 'list');
  let positions: Position[] = query.cursor ? await decodePositions(scope, query.cursor, plan) : plan.sources.map(() => null);
  // pageNumber without a cursor: walk the pages before it.
  for (let page = 1; !query.cursor && page < query.pageNumber; page++) {
    const skipped = await readPage(viewer.companyId, plan, positions, PAGE_SIZE, { fixedCost: true });
    if (!skipped.hasMore) return { tickets: [], hasMore: false };
    positions = skipped.positions;
  }
  const page = await readPage(viewer.companyId, plan, positions, PAGE_SIZE, { fixedCost: true });
  return {
    tickets: await presentTickets(viewer.companyId, page.tickets),
    hasMore: page.hasMore,
    nextCursor: page.hasMore ? await sealCursor(scope, page.positions) : undefined,
  };
}

/**
 * GET /ticket/kanban: open and pending tickets of the caller's queues (SPEC 6 "Kanban loads tickets
 * for the queues of the current user"). An admin sees the company's whole board, as an admin's
 * inbox may (issue 25 item 5: the owner created at sign-up has no queues, and saw an empty board
 * beside the company's tickets); queueIds narrow it to those queues and the tickets of none.
 */
export async function listKanbanTickets(viewer: ListViewer, query: KanbanQuery): Promise<TicketPageResponse> {
  const { companyId } = viewer;
  const mine = viewer.user.queueIds;
  const selected = query.queueIds?.length ? [...new Set(query.queueIds)] : undefined;
  const byQueue = (queues: (number | null)[]) => (status: TicketStatus) =>
    queues.map((queueId) => ({ index: 'gsi1' as const, partition: ticketLists.byStatusAndQueue(companyId, status, queueId) }));
  const perStatus: (status: TicketStatus) => Source[] = !viewerIsAdmin(viewer)
    ? byQueue([...new Set(selected ?? mine)].filter((id) => mine.includes(id)))
    : selected
      ? byQueue([...selected, null])
      : (status) => [{ index: 'gsi3', partition: ticketLists.byStatus(companyId, status) }];
  const sources: Source[] = withShards((['open', 'pending'] as const).flatMap(perStatus), listShardsOf(viewer.company));
  const plan: ListPlan = { sources, visible: (t) => canSeeTicket(viewer, t) };
  // A board past one page (issue 25: the cards after 200 were missing) continues from the cursor,
  // which opens only for this caller's board with the same queues.
  const scope = scopeOf('tickets', 'kanban', companyId, viewer.userId, { queueIds: selected });
  const positions = query.cursor ? await decodePositions(scope, query.cursor, plan) : sources.map(() => null);
  const page = await readPage(viewer.companyId, plan, positions, KANBAN_PAGE_SIZE);
  return {
    tickets: await presentTickets(viewer.companyId, page.tickets),
    hasMore: page.hasMore,
    nextCursor: page.hasMore ? await sealCursor(scope, page.positions) : undefined,
  };
}
