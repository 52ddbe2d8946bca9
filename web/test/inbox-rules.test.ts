/** The inbox's pure rules (issue 4): paging, cache updates, notifications, notes. Prepare / Act / Assess. */
import type { TicketPageResponse } from '@conversa/functions/contracts/ticket-requests';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { encodeMp3, MIN_AUDIO_BYTES } from '../src/features/messages/api/voice.ts';
import {
  applyTicket,
  fetchUnreadTickets,
  MAX_UNREAD_PAGES,
  notifies,
  withoutTicket,
} from '../src/features/notifications/api/unread-tickets.ts';
import { putContact, putTicket } from '../src/features/tickets/api/ticket-cache.ts';
import { noteProblem } from '../src/features/tickets/api/ticket-notes.ts';
import { refetchChangedTickets, ticketListQueryOptions } from '../src/features/tickets/api/tickets.ts';
import { ApiError } from '../src/lib/api-client.ts';
import { ticketKeys } from '../src/lib/lookups/tickets.ts';
import { fillMessageVariables, greetingAt, MESSAGE_VARIABLES } from '../src/lib/message-variables.ts';
import { AUTO_FILL_PAGES, shortListAction } from '../src/lib/use-fill-box.ts';

const ticket = (id: number, over: Partial<Ticket> = {}): Ticket => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  companyId: 1,
  status: 'open',
  userId: 7,
  user: { id: 7, name: 'Ana' },
  queueId: 1,
  queue: { id: 1, name: 'Vendas', color: '#123456' },
  contactId: id,
  contact: { id, name: `Contact ${id}`, number: '5511999990000', profilePicUrl: '' },
  whatsappId: 1,
  whatsapp: { id: 1, name: 'Phone' },
  tags: [],
  lastMessage: 'hi',
  lastMessageDeleted: false,
  unreadMessages: 0,
  isGroup: false,
  chatbot: false,
  awaitingRating: false,
  rating: null,
  useIntegration: false,
  promptId: null,
  integrationId: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: `2026-01-01T10:00:${String(id).padStart(2, '0')}.000Z`,
  ...over,
});

describe('ticket list paging (SPEC 9 infinite scroll)', () => {
  it("asks for the next page with the server's nextCursor, and stops when hasMore is false", () => {
    // Prepare
    const options = ticketListQueryOptions({ status: 'open' });
    const first: TicketPageResponse = { tickets: [ticket(1)], hasMore: true, nextCursor: 'opaque-1' };
    const last: TicketPageResponse = { tickets: [ticket(2)], hasMore: false };
    // Act
    const next = options.getNextPageParam(first, [first], { pageNumber: 1 }, [{ pageNumber: 1 }]);
    const end = options.getNextPageParam(last, [first, last], { pageNumber: 2, cursor: 'opaque-1' }, [{ pageNumber: 1 }]);
    // Assess
    expect(next).toEqual({ pageNumber: 2, cursor: 'opaque-1' });
    expect(end).toBeUndefined();
  });

  it('fills a box that short pages leave without a scroll, then asks with a button; never loads what nobody can ask for', () => {
    // Prepare: the server says there is more; the rows reach 600 px below the box's bottom (a scroll will ask)
    const tall = { hasMore: true, loading: false, autoLoaded: 0, spareBelowPx: 600, nextPagePx: 100 };
    // Act + Assess
    expect(shortListAction(tall)).toBe('none');
    // A short page (or a tall screen): the rows end inside the box, nothing to scroll
    const unscrollable = { ...tall, spareBelowPx: 0 };
    expect(shortListAction(unscrollable)).toBe('load');
    expect(shortListAction({ ...unscrollable, autoLoaded: AUTO_FILL_PAGES - 1 })).toBe('load');
    expect(shortListAction({ ...unscrollable, autoLoaded: AUTO_FILL_PAGES })).toBe('button');
    expect(shortListAction({ ...unscrollable, loading: true })).toBe('none');
    expect(shortListAction({ ...unscrollable, hasMore: false })).toBe('none');
  });
});

describe('ticket cache', () => {
  it("a tag change (the sync's answer or its realtime update) shows on the row it already holds", () => {
    // Prepare
    const queryClient = new QueryClient();
    const filters = { status: 'open' as const, queueIds: [1] };
    queryClient.setQueryData<InfiniteData<TicketPageResponse>>(ticketKeys.list(filters), {
      pages: [{ tickets: [ticket(2), ticket(1)], hasMore: false }],
      pageParams: [{ pageNumber: 1 }],
    });
    // Act
    putTicket(queryClient, ticket(1, { tags: [{ id: 3, name: 'VIP', color: '#ff0000' }] }), 7);
    // Assess
    const rows = queryClient.getQueryData<InfiniteData<TicketPageResponse>>(ticketKeys.list(filters))?.pages[0]?.tickets;
    expect(rows?.map((t) => t.id)).toEqual([2, 1]);
    expect(rows?.[1]?.tags).toEqual([{ id: 3, name: 'VIP', color: '#ff0000' }]);
  });

  it("a contact's edit renames its rows and its open conversation, and no other", () => {
    // Prepare
    const queryClient = new QueryClient();
    const filters = { status: 'open' as const };
    queryClient.setQueryData<InfiniteData<TicketPageResponse>>(ticketKeys.list(filters), {
      pages: [{ tickets: [ticket(2), ticket(1)], hasMore: false }],
      pageParams: [{ pageNumber: 1 }],
    });
    queryClient.setQueryData(['tickets', 'uuid', ticket(1).uuid], ticket(1));
    // Act
    putContact(queryClient, { id: 1, name: 'Contact 1 Silva', number: '5511888887777', profilePicUrl: '' });
    // Assess
    const rows = queryClient.getQueryData<InfiniteData<TicketPageResponse>>(ticketKeys.list(filters))?.pages[0]?.tickets;
    expect(rows?.map((t) => t.contact.name)).toEqual(['Contact 2', 'Contact 1 Silva']);
    expect(queryClient.getQueryData<Ticket>(['tickets', 'uuid', ticket(1).uuid])?.contact.number).toBe('5511888887777');
  });

  it('ERR_TICKET_CHANGED marks every ticket list stale (they are read again); other errors do not', () => {
    // Prepare
    const queryClient = new QueryClient();
    queryClient.setQueryData(ticketKeys.list({ status: 'open' }), { pages: [], pageParams: [] });
    const state = () => queryClient.getQueryState(ticketKeys.list({ status: 'open' }))?.isInvalidated;
    // Act / Assess
    refetchChangedTickets(queryClient, new ApiError(400, { error: 'ERR_VALIDATION' }));
    expect(state()).toBe(false);
    refetchChangedTickets(queryClient, new ApiError(409, { error: 'ERR_TICKET_CHANGED' }));
    expect(state()).toBe(true);
  });
});

describe('unread-ticket notifications (SPEC 2 "Top bar", 4 "Session and sockets")', () => {
  const me = { id: 7, allTicket: 'desabled' as const };
  const all = { id: 7, allTicket: 'enabled' as const };

  it("counts the user's own open tickets with unread messages; pending ones only with allTicket enabled", () => {
    expect(notifies(ticket(1, { unreadMessages: 2 }), me)).toBe(true);
    expect(notifies(ticket(1, { unreadMessages: 0 }), me)).toBe(false);
    expect(notifies(ticket(1, { unreadMessages: 2, userId: 8 }), me)).toBe(false);
    expect(notifies(ticket(1, { unreadMessages: 2, status: 'pending', userId: null }), me)).toBe(false);
    expect(notifies(ticket(1, { unreadMessages: 2, status: 'pending', userId: null }), all)).toBe(true);
    expect(notifies(ticket(1, { unreadMessages: 2, status: 'closed' }), all)).toBe(false);
  });

  it('a live update adds a ticket once (newest first), and a read or resolved ticket leaves the list', () => {
    // Prepare
    let list = applyTicket([], ticket(1, { unreadMessages: 1 }), me);
    // Act
    list = applyTicket(list, ticket(2, { unreadMessages: 1 }), me);
    list = applyTicket(list, ticket(1, { unreadMessages: 3, updatedAt: '2026-01-01T11:00:00.000Z' }), me);
    // Assess
    expect(list.map((t) => [t.id, t.unreadMessages])).toEqual([
      [1, 3],
      [2, 1],
    ]);
    expect(applyTicket(list, ticket(2, { unreadMessages: 1, status: 'closed' }), me).map((t) => t.id)).toEqual([1]);
    expect(withoutTicket(list, 1).map((t) => t.id)).toEqual([2]);
  });

  it('the bell reads every page of unread tickets (following nextCursor), not only the first', async () => {
    // Prepare: 85 unread open tickets of the user over three pages (the last one short), and
    // 2 unread pending ones; the server's pages may be short and still have more.
    const open = Array.from({ length: 85 }, (_, i) => ticket(i + 1, { unreadMessages: 1 }));
    const pending = [
      ticket(901, { unreadMessages: 1, status: 'pending', userId: null }),
      ticket(902, { unreadMessages: 2, status: 'pending', userId: null }),
    ];
    const pages: Record<string, TicketPageResponse[]> = {
      open: [
        { tickets: open.slice(0, 40), hasMore: true, nextCursor: 'open-2' },
        { tickets: open.slice(40, 60), hasMore: true, nextCursor: 'open-3' },
        { tickets: open.slice(60), hasMore: false },
      ],
      pending: [{ tickets: pending, hasMore: false }],
    };
    const asked: string[] = [];
    const getPage = async (query: { status: string; withUnreadMessages: 'true'; cursor?: string }) => {
      asked.push(`${query.status}:${query.cursor ?? 'first'}:${query.withUnreadMessages}`);
      const list = pages[query.status] as TicketPageResponse[];
      return list[query.cursor ? Number(query.cursor.split('-')[1]) - 1 : 0] as TicketPageResponse;
    };
    // Act
    const mine = await fetchUnreadTickets(me, getPage);
    const withPending = await fetchUnreadTickets(all, getPage);
    // Assess
    expect(mine).toHaveLength(85);
    expect(withPending).toHaveLength(87);
    expect(asked.filter((q) => q.startsWith('open'))).toEqual([
      'open:first:true',
      'open:open-2:true',
      'open:open-3:true',
      'open:first:true',
      'open:open-2:true',
      'open:open-3:true',
    ]);
  });

  it('stops after MAX_UNREAD_PAGES pages of one list', async () => {
    let reads = 0;
    const endless = async () => {
      reads++;
      return { tickets: [ticket(reads, { unreadMessages: 1 })], hasMore: true, nextCursor: `c${reads}` };
    };
    expect(await fetchUnreadTickets(me, endless)).toHaveLength(MAX_UNREAD_PAGES);
    expect(reads).toBe(MAX_UNREAD_PAGES);
  });
});

describe('quick reply variables (SPEC 2 "Quick messages": the insert-at-cursor helper)', () => {
  // Local time: the attendant's clock, as the browser has it.
  const at = (hour: number, minute = 5) => new Date(2026, 10, 3, hour, minute, 9);
  const context = (now: Date) => ({ contactName: '  Maria da Silva ', ticketId: 42, now });

  it("fills the contact's name and first name, the greeting, protocol, date and hour", () => {
    // Act
    const text = fillMessageVariables(
      '{{greeting}}, {{firstName}}! ({{name}}) Protocolo {{protocol}} em {{date}} às {{hour}}. {{ ms }} {{hora}}',
      context(at(9)),
    );
    // Assess
    expect(text).toBe('Bom dia, Maria! (Maria da Silva) Protocolo 2026110309050942 em 03/11/2026 às 09:05. Bom dia 09:05');
  });

  it('greets by the local hour: Bom dia, Boa tarde, Boa noite', () => {
    expect([5, 11, 12, 17, 18, 23, 0, 4].map((hour) => greetingAt(at(hour)))).toEqual([
      'Bom dia',
      'Bom dia',
      'Boa tarde',
      'Boa tarde',
      'Boa noite',
      'Boa noite',
      'Boa noite',
      'Boa noite',
    ]);
  });

  it('leaves unknown placeholders and plain text as written; every variable the dialog offers is filled', () => {
    expect(fillMessageVariables('Olá {{unknown}} {{constructor}} {name}', context(at(14)))).toBe('Olá {{unknown}} {{constructor}} {name}');
    for (const key of MESSAGE_VARIABLES) expect(fillMessageVariables(`{{${key}}}`, context(at(14)))).not.toContain('{{');
  });
});

describe('ticket notes (SPEC 5)', () => {
  it('are required and at least 2 characters, blanks not counted', () => {
    expect(noteProblem('   ')).toBe('required');
    expect(noteProblem(' a ')).toBe('tooShort');
    expect(noteProblem('ok')).toBeUndefined();
  });
});

describe('voice messages (SPEC 9: mp3 at 128 kbps, at least 10000 bytes)', () => {
  const tone = (seconds: number, rate = 44_100) =>
    Float32Array.from({ length: seconds * rate }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate));

  it('encodes PCM to mp3 frames at 128 kbps: two seconds pass the minimum, a click does not', async () => {
    // Act
    const long = await encodeMp3(tone(2), 44_100);
    const click = await encodeMp3(tone(0.2), 44_100);
    // Assess: an MPEG-1 Layer III frame header (sync 0xFFF, bitrate index 9 = 128 kbps), ~16 KB a second.
    expect(long[0]).toBe(0xff);
    expect((long[1] ?? 0) & 0xe0).toBe(0xe0);
    expect((long[2] ?? 0) >> 4).toBe(9);
    expect(long.length).toBeGreaterThan(MIN_AUDIO_BYTES);
    expect(long.length).toBeGreaterThan(30_000);
    expect(click.length).toBeLessThan(MIN_AUDIO_BYTES);
  });
});
