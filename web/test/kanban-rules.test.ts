/** The kanban board's loader (issue 25): a board of more than one page shows every card. Prepare / Act / Assess. */
import type { TicketPageResponse } from '@conversa/functions/contracts/ticket-requests';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { describe, expect, it } from 'vitest';
import { fetchKanbanTickets, MAX_KANBAN_PAGES } from '../src/features/kanban/api/kanban.ts';

const ticket = (id: number) => ({ id, contact: { id, name: `Contact ${id}`, number: '5511999990000' }, tags: [] }) as unknown as Ticket;
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => ticket(from + i));

describe('fetchKanbanTickets', () => {
  it('follows nextCursor past the first 200 cards until hasMore is false', async () => {
    // Prepare: the server's three pages of a 450-ticket board.
    const pages: Record<string, TicketPageResponse> = {
      start: { tickets: range(1, 200), hasMore: true, nextCursor: 'c1' },
      c1: { tickets: range(201, 200), hasMore: true, nextCursor: 'c2' },
      c2: { tickets: range(401, 50), hasMore: false },
    };
    const asked: (string | undefined)[] = [];
    // Act
    const board = await fetchKanbanTickets(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'start'] as TicketPageResponse;
    });
    // Assess
    expect(asked).toEqual([undefined, 'c1', 'c2']);
    expect(board.tickets.map((t) => t.id)).toEqual(range(1, 450).map((t) => t.id));
    expect(board.hasMore).toBe(false);
  });

  it('a card read twice (it moved between pages) is one card; a server that never ends is read a bounded number of pages', async () => {
    const twice = await fetchKanbanTickets(async (cursor) =>
      cursor ? { tickets: [ticket(2), ticket(3)], hasMore: false } : { tickets: [ticket(1), ticket(2)], hasMore: true, nextCursor: 'x' },
    );
    expect(twice.tickets.map((t) => t.id)).toEqual([1, 2, 3]);

    let reads = 0;
    await fetchKanbanTickets(async () => ({ tickets: [ticket(++reads)], hasMore: true, nextCursor: `c${reads}` }));
    expect(reads).toBe(MAX_KANBAN_PAGES);
  });
});
