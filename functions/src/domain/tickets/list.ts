/**
 * GET /tickets and GET /ticket/kanban over the list partitions of storage/tickets.ts.
 *
 * A query becomes a PLAN: the partitions ("sources") whose rows are exactly what the caller may see
 * for it, plus an optional row predicate. The sources depend on the caller and the filters only
 * (statuses x selected queues, or statuses x users), never on the tenant's ticket count:
 *   - own view (everyone without showAll): pending of the caller's (selected) queues, gsi1 one per
 *     queue, plus pending with no queue for admins and allTicket users; open / closed assigned to
 *     the caller, gsi2 (narrowed to the selected queues by predicate);
 *   - admin showAll: gsi1 per (status, selected queue + no queue), or gsi3 per status;
 *   - admin user filter: gsi2 per (status, user).
 * Sources are read newest first and k-way merged on the shared sort key (updatedAt#id).
 *
 * Cost of a page (the issue 4 rule): plain lists read `pageSize + 1` rows per source in one Query.
 * Lists with a predicate (text search, unread only, created day, queue narrowing of one's own
 * tickets) read at most FILTERED_READS x FILTERED_LIMIT rows per source and return what matched
 * with hasMore; the next page continues where the reads stopped. Either way a page costs at most
 * sources x FILTERED_READS Queries plus the presentation reads, whatever the tenant's size.
 *
 * Paging: every page returns `nextCursor`, one sort key per source (storage/ticket-lists.ts), which
 * a client passes back as `cursor`. The spec's `pageNumber` alone is honoured by walking the pages
 * before it (cost grows with the page number, capped at 100, never with the tenant's size).
 *
 * Text search: until issue 4's search index exists, `searchParam` is (a) an exact contact-number
 * lookup when it holds 8+ digits (one GetItem + the contact's tickets) and (b) otherwise a predicate
 * over the newest rows of the visible lists (contact name, number, last message), bounded as above.
 * The index plugs in at `searchByNumber`'s place: term -> ticket ids -> BatchGet -> same filters.
 */
import { ValidationError } from '#commons/errors';
import { numberDigits } from '#contracts/contacts';
import type { ListTicketsQuery, TicketPageResponse } from '#contracts/ticket-requests';
import type { TicketStatus } from '#contracts/tickets';
import { getContactByNumber } from '#storage/contacts';
import { type ListIndex, readListSlice } from '#storage/ticket-lists';
import { listContactTickets, type TicketRecord, ticketLists } from '#storage/tickets';
import { canSeeTicket, type Viewer, viewerIsAdmin } from './access.ts';
import { presentTickets } from './present-page.ts';

export const PAGE_SIZE = 40;
export const FILTERED_READS = 3;
export const FILTERED_LIMIT = 100;
const KANBAN_PAGE_SIZE = 200;
const END = 1;

type Row = TicketRecord & { listSk: string };
type Predicate = (ticket: TicketRecord) => boolean;

interface Source {
  index: ListIndex;
  partition: string;
  /** Extra row filter of this source (queue narrowing of one's own tickets). */
  predicate?: Predicate;
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

const allStatuses: TicketStatus[] = ['open', 'pending', 'closed'];
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

function searchPredicate(term: string): Predicate | undefined {
  const folded = fold(term.trim());
  if (!folded) return undefined;
  const digits = numberDigits(term);
  return (ticket) =>
    fold(ticket.contact.name).includes(folded) ||
    (digits.length > 0 && ticket.contact.number.includes(digits)) ||
    fold(ticket.lastMessage ?? '').includes(folded);
}

const allOf = (predicates: (Predicate | undefined)[]): Predicate | undefined => {
  const active = predicates.filter((p): p is Predicate => Boolean(p));
  if (!active.length) return undefined;
  return (ticket) => active.every((p) => p(ticket));
};

/** The partitions and filters that answer `query` for `viewer` (see the header). */
export function planList(viewer: Viewer, query: ListTicketsQuery, statuses?: TicketStatus[]): ListPlan {
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
  return {
    sources,
    rowFilter: allOf([
      date ? (t) => t.createdAt.startsWith(date) : undefined,
      query.withUnreadMessages ? (t) => t.unreadMessages > 0 : undefined,
      searchPredicate(query.searchParam),
      users && !admin ? (t) => t.userId !== null && users.includes(t.userId) : undefined,
    ]),
    visible: (t) => canSeeTicket(viewer, t),
    range: query.updatedAt ? { from: query.updatedAt, to: `${query.updatedAt}~` } : undefined,
  };
}

function encodePositions(positions: Position[]): string {
  return Buffer.from(JSON.stringify(positions)).toString('base64url');
}

function decodePositions(cursor: string, count: number): Position[] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === count &&
      value.every((p) => p === null || p === END || (typeof p === 'string' && p.length < 200))
    )
      return value as Position[];
  } catch {
    // reported below
  }
  throw new ValidationError('cursor', 'Invalid cursor');
}

interface SourceState {
  source: Source;
  predicate: Predicate;
  filtered: boolean;
  /** Where the next read continues (sort key of the last row read). */
  readSk: string | undefined;
  exhausted: boolean;
  buffer: Row[];
  lastTaken?: string;
  start: Position;
}

/** One merged page from `positions` (one per source). */
export async function readPage(
  companyId: number,
  plan: ListPlan,
  positions: Position[],
  pageSize: number,
): Promise<{ tickets: TicketRecord[]; positions: Position[]; hasMore: boolean }> {
  const states: SourceState[] = plan.sources.map((source, i) => {
    const start = positions[i] ?? null;
    return {
      source,
      predicate: allOf([plan.visible, plan.rowFilter, source.predicate]) ?? plan.visible,
      filtered: Boolean(plan.rowFilter || source.predicate),
      readSk: typeof start === 'string' ? start : undefined,
      exhausted: start === END,
      buffer: [],
      start,
    };
  });

  await Promise.all(
    states.map(async (state) => {
      const limit = state.filtered ? FILTERED_LIMIT : pageSize + 1;
      const maxReads = state.filtered ? FILTERED_READS : 1;
      for (let reads = 0; !state.exhausted && state.buffer.length < pageSize && reads < maxReads; reads++) {
        const slice = await readListSlice(companyId, state.source.index, state.source.partition, {
          limit,
          afterSk: state.readSk,
          range: plan.range,
        });
        state.readSk = slice.lastSk;
        state.exhausted = slice.exhausted;
        state.buffer.push(...slice.tickets.filter(state.predicate));
      }
    }),
  );

  const page: TicketRecord[] = [];
  const seen = new Set<number>();
  while (page.length < pageSize) {
    let best: SourceState | undefined;
    for (const state of states) {
      const head = state.buffer[0];
      if (head && (!best || head.listSk > (best.buffer[0] as Row).listSk)) best = state;
    }
    if (!best) break;
    const head = best.buffer[0] as Row;
    // A source that stopped reading (budget) may still hold rows newer than `head`: stop there.
    const blocked = states.some((s) => !s.buffer.length && !s.exhausted && s.readSk !== undefined && s.readSk > head.listSk);
    if (blocked) break;
    best.buffer.shift();
    best.lastTaken = head.listSk;
    if (!seen.has(head.id)) {
      seen.add(head.id);
      const { listSk, ...ticket } = head;
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

async function searchByNumber(viewer: Viewer, query: ListTicketsQuery, plan: ListPlan): Promise<TicketRecord[] | undefined> {
  const digits = numberDigits(query.searchParam);
  if (digits.length < 8 || /[a-z]/i.test(query.searchParam)) return undefined;
  const contact = await getContactByNumber(viewer.companyId, digits);
  if (!contact) return undefined;
  const statuses = query.status ? [query.status] : allStatuses;
  const tickets = await listContactTickets(viewer.companyId, contact.id, PAGE_SIZE);
  return tickets.filter(
    (t) =>
      statuses.includes(t.status) &&
      plan.visible(t) &&
      (!plan.rowFilter || plan.rowFilter(t)) &&
      (!plan.range || (t.updatedAt >= plan.range.from && t.updatedAt <= plan.range.to)),
  );
}

export async function listTickets(viewer: Viewer, query: ListTicketsQuery): Promise<TicketPageResponse> {
  // Tag filter seam: no ticket carries tags until the tags feature stores them, so a tag filter matches nothing.
  if (query.tags?.length) return { tickets: [], hasMore: false };
  const plan = planList(viewer, query);

  if (query.searchParam && !query.cursor && query.pageNumber === 1) {
    const found = await searchByNumber(viewer, query, plan);
    if (found) return { tickets: await presentTickets(viewer.companyId, found), hasMore: false };
  }

  let positions: Position[] = query.cursor ? decodePositions(query.cursor, plan.sources.length) : plan.sources.map(() => null);
  // pageNumber without a cursor: walk the pages before it.
  for (let page = 1; !query.cursor && page < query.pageNumber; page++) {
    const skipped = await readPage(viewer.companyId, plan, positions, PAGE_SIZE);
    if (!skipped.hasMore) return { tickets: [], hasMore: false };
    positions = skipped.positions;
  }
  const page = await readPage(viewer.companyId, plan, positions, PAGE_SIZE);
  return {
    tickets: await presentTickets(viewer.companyId, page.tickets),
    hasMore: page.hasMore,
    nextCursor: page.hasMore ? encodePositions(page.positions) : undefined,
  };
}

/** GET /ticket/kanban: open and pending tickets of the caller's queues (SPEC 6 "Kanban loads tickets for the queues of the current user"). */
export async function listKanbanTickets(viewer: Viewer, queueIds: number[] | undefined): Promise<TicketPageResponse> {
  const mine = viewer.user.queueIds;
  const queues = (queueIds?.length ? queueIds : mine).filter((id) => mine.includes(id));
  const sources: Source[] = (['open', 'pending'] as const).flatMap((status) =>
    [...new Set(queues)].map((queueId) => ({
      index: 'gsi1' as const,
      partition: ticketLists.byStatusAndQueue(viewer.companyId, status, queueId),
    })),
  );
  const plan: ListPlan = { sources, visible: (t) => canSeeTicket(viewer, t) };
  const page = await readPage(
    viewer.companyId,
    plan,
    sources.map(() => null),
    KANBAN_PAGE_SIZE,
  );
  return { tickets: await presentTickets(viewer.companyId, page.tickets), hasMore: page.hasMore };
}
