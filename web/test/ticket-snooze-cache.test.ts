/**
 * Issue 22 §5 in the list cache: a snoozed ticket belongs to the Snoozed list only, whatever its
 * status, so an update that snoozes it drops it from Atendendo/Esperando at once and one that wakes
 * it puts it back; an unassigned snoozed ticket is left to the server's snoozer list.
 */
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { belongsTo, putTicket } from '../src/features/tickets/api/ticket-cache.ts';
import type { TicketFilters, TicketPage } from '../src/features/tickets/api/tickets.ts';
import { ticketKeys } from '../src/lib/lookups/tickets.ts';

const ME = 5;
const ticket = (overrides: Partial<Ticket> = {}): Ticket =>
  ({
    id: 1,
    uuid: 'u1',
    status: 'open',
    userId: ME,
    queueId: null,
    tags: [],
    snoozedUntil: null,
    updatedAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  }) as Ticket;

const open: TicketFilters = { status: 'open' };
const pending: TicketFilters = { status: 'pending' };
const snoozed: TicketFilters = { status: 'snoozed' };
const later = '2030-01-02T09:00:00.000Z';

describe('belongsTo with snooze', () => {
  it('puts a snoozed ticket in the Snoozed list only', () => {
    const sleeping = ticket({ snoozedUntil: later });
    expect(belongsTo(open, sleeping, ME)).toBe(false);
    expect(belongsTo(pending, ticket({ status: 'pending', userId: null, snoozedUntil: later }), ME)).toBe(false);
    expect(belongsTo(snoozed, sleeping, ME)).toBe(true);
    expect(belongsTo(snoozed, ticket(), ME)).toBe(false);
    expect(belongsTo(open, ticket(), ME)).toBe(true);
    // Nobody attends it: whose snooze it is, the server knows (rows already held stay).
    expect(belongsTo(snoozed, ticket({ status: 'pending', userId: null, snoozedUntil: later }), ME)).toBeUndefined();
    // Someone else's open ticket is not in my Snoozed list.
    expect(belongsTo(snoozed, ticket({ userId: 9, snoozedUntil: later }), ME)).toBe(false);
  });

  it('moves a ticket between Atendendo and Snoozed as updates snooze and wake it', () => {
    const client = new QueryClient();
    const page = (tickets: Ticket[]): InfiniteData<TicketPage> => ({ pages: [{ tickets, hasMore: false }], pageParams: [{}] });
    client.setQueryData(ticketKeys.list(open), page([ticket()]));
    client.setQueryData(ticketKeys.list(snoozed), page([]));
    const ids = (filters: TicketFilters) =>
      client.getQueryData<InfiniteData<TicketPage>>(ticketKeys.list(filters))?.pages[0]?.tickets.map((t) => t.id);

    putTicket(client, ticket({ snoozedUntil: later }), ME);
    expect(ids(open)).toEqual([]);
    expect(ids(snoozed)).toEqual([1]);

    putTicket(client, ticket({ snoozedUntil: null, updatedAt: later }), ME);
    expect(ids(open)).toEqual([1]);
    expect(ids(snoozed)).toEqual([]);
  });
});
