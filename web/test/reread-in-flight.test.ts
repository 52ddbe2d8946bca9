/**
 * A change written into the cache while a read of the same list is in flight survives that read's
 * answer (lib/realtime/reread-in-flight.ts): the list is read again once the read in flight settles,
 * once however many changes arrive meanwhile, and a stream of changes never starves the reads.
 */
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { describe, expect, it, vi } from 'vitest';
import { putTicket } from '../src/features/tickets/api/ticket-cache.ts';
import type { TicketFilters, TicketPage } from '../src/features/tickets/api/tickets.ts';
import { ticketKeys } from '../src/lib/lookups/tickets.ts';
import { heldReads } from './support/held-reads.ts';

const ME = 5;
const pending: TicketFilters = { status: 'pending' };
const ticket = (id: number, at: string): Ticket =>
  ({ id, uuid: `u${id}`, status: 'pending', userId: null, queueId: null, tags: [], updatedAt: at }) as unknown as Ticket;

/** The pending list, loaded, with a read of it in flight; `server` is what the next reads will see. */
async function listBeingRead() {
  const server: Ticket[] = [ticket(1, '2030-01-01T10:00:00.000Z')];
  const list = heldReads(ticketKeys.list(pending), server, (tickets) => ({ tickets, hasMore: false }) as TicketPage);
  await list.loadThenReadAgain();
  return { ...list, server, ids: () => list.firstPage()?.tickets.map((t) => t.id) };
}

describe('a change during a read in flight', () => {
  it('a new pending ticket put while the list is read again is in the list once that read answered', async () => {
    // Prepare: the list loaded; a read of it in flight; then the server gets a new ticket.
    const list = await listBeingRead();
    const fresh = ticket(2, '2030-01-01T10:05:00.000Z');
    list.server.unshift(fresh);
    // Act: its event, then the old read's answer (without it)
    putTicket(list.client, fresh, ME);
    expect(list.ids()).toEqual([2, 1]);
    list.answer();
    // Assess: one more read, and the ticket stays
    await vi.waitFor(() => expect(list.reads).toHaveLength(1));
    list.answer();
    await vi.waitFor(() => expect(list.ids()).toEqual([2, 1]));
    expect(list.reads).toHaveLength(0);
    list.unsubscribe();
  });

  it('many changes during one read make one more read, and each read runs to its answer', async () => {
    const list = await listBeingRead();
    // Act: ten events while the read is out
    for (let i = 2; i <= 11; i++) {
      const next = ticket(i, `2030-01-01T10:${String(i).padStart(2, '0')}:00.000Z`);
      list.server.unshift(next);
      putTicket(list.client, next, ME);
    }
    // Assess: the read in flight was not cancelled; it answers, then exactly one more read follows
    list.answer();
    await vi.waitFor(() => expect(list.reads).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(list.reads).toHaveLength(1);
    list.answer();
    await vi.waitFor(() => expect(list.ids()).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]));
    list.unsubscribe();
  });
});
