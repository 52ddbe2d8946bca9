/**
 * The realtime rule of a ticket change (realtime/publisher.ts header, domain/tickets/notify.ts),
 * with no network: for each transition, which sockets get the one `update` and which get the
 * `delete` that drops the ticket from their lists. The sockets are a tenant's admin, super user,
 * members of queues 1 and 2, an allTicket user, a plain user without queues and another tenant's
 * admin; a plain user reads the ticket by a colleague's mention (its messages only, never its
 * ticket events), another's mention has ended.
 */
import { describe, expect, it } from 'vitest';
import type { Contact } from '../src/contracts/contacts.ts';
import type { Message } from '../src/contracts/messages.ts';
import type { Ticket, TicketStatus } from '../src/contracts/tickets.ts';
import type { Effects } from '../src/domain/messages/effects.ts';
import { publishTicketChange, publishTicketDeleted } from '../src/domain/tickets/notify.ts';
import { type AudienceFilter, matches, ticketViewers, viewersMayShrink } from '../src/realtime/audience.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import type { ConnectionRecord } from '../src/storage/ws-connections.ts';

const TICKET_ID = 42;

const socket = (connectionId: string, overrides: Partial<ConnectionRecord>): ConnectionRecord => ({
  connectionId,
  companyId: 1,
  userId: 0,
  profile: 'user',
  super: false,
  queueIds: [],
  allTicket: 'desabled',
  tokenExpiresAt: Math.floor(Date.now() / 1000) + 3600,
  tokenIssuedAt: 0,
  tokenJti: '',
  tokenOrigin: '',
  connectedAt: '',
  lastSeenAt: '',
  status: 'online',
  expiresAt: 0,
  ...overrides,
});

const sockets = [
  socket('admin', { userId: 10, profile: 'admin' }),
  socket('super', { userId: 11, super: true }),
  socket('q1', { userId: 12, queueIds: [1] }),
  socket('q2', { userId: 13, queueIds: [2] }),
  socket('allTicket', { userId: 14, allTicket: 'enabled' }),
  socket('plain', { userId: 15 }),
  socket('reader', { userId: 16, reading: { ticketId: TICKET_ID, ref: String(TICKET_ID), until: '2099-01-01T00:00:00.000Z' } }),
  socket('readerEnded', { userId: 17, reading: { ticketId: TICKET_ID, ref: String(TICKET_ID), until: '2020-01-01T00:00:00.000Z' } }),
  socket('otherTenant', {
    companyId: 2,
    userId: 10,
    profile: 'admin',
    reading: { ticketId: TICKET_ID, ref: String(TICKET_ID), until: '2099-01-01T00:00:00.000Z' },
  }),
];

interface State {
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
}

const ticket = (state: State): Ticket =>
  ({ id: TICKET_ID, uuid: 'b5a3c8e0-0000-4000-8000-000000000042', companyId: 1, contactId: 7, ...state }) as Ticket;

/** Publishes through a fake transport that delivers to the sockets of the tenant the event names. */
function recording() {
  const received: { to: string; action: string; event: string }[] = [];
  const effects: Effects = {
    now: () => new Date(),
    sendCommand: async () => undefined,
    publish: async (companyId, event, data, target: AudienceFilter) => {
      for (const s of sockets)
        if (s.companyId === companyId && matches(target, s))
          received.push({ to: s.connectionId, event, action: (data as { action: string }).action });
    },
  };
  const to = (event: string, action: string) =>
    received
      .filter((r) => r.event === event && r.action === action)
      .map((r) => r.to)
      .sort();
  return { effects, received, to };
}

const pendingQ1: State = { status: 'pending', queueId: 1, userId: null };
const pendingNoQueue: State = { status: 'pending', queueId: null, userId: null };

const transitions: { name: string; before: State | undefined; after: State; update: string[]; delete: string[] }[] = [
  { name: 'new pending ticket in queue 1', before: undefined, after: pendingQ1, update: ['admin', 'q1', 'super'], delete: [] },
  {
    name: 'new pending ticket with no queue',
    before: undefined,
    after: pendingNoQueue,
    update: ['admin', 'allTicket', 'super'],
    delete: [],
  },
  {
    name: 'accept by a member of queue 1',
    before: pendingQ1,
    after: { status: 'open', queueId: 1, userId: 12 },
    update: ['admin', 'q1', 'super'],
    delete: [],
  },
  {
    name: 'transfer from queue 1 to queue 2, unassigned',
    before: { status: 'open', queueId: 1, userId: 12 },
    after: { status: 'pending', queueId: 2, userId: null },
    update: ['admin', 'q2', 'super'],
    delete: ['q1'],
  },
  {
    name: 'transfer to queue 2 assigned to a member of queue 1: the attendant keeps it',
    before: { status: 'open', queueId: 1, userId: 12 },
    after: { status: 'open', queueId: 2, userId: 12 },
    update: ['admin', 'q1', 'q2', 'super'],
    delete: [],
  },
  {
    name: 'a queue-less ticket gets a queue: allTicket users lose it',
    before: pendingNoQueue,
    after: pendingQ1,
    update: ['admin', 'q1', 'super'],
    delete: ['allTicket'],
  },
  {
    name: 'an allTicket user accepts a queue-less ticket',
    before: pendingNoQueue,
    after: { status: 'open', queueId: null, userId: 14 },
    update: ['admin', 'allTicket', 'super'],
    delete: [],
  },
  {
    name: 'a user without allTicket returns a queue-less ticket to the pool: they lose it',
    before: { status: 'open', queueId: null, userId: 15 },
    after: pendingNoQueue,
    update: ['admin', 'allTicket', 'super'],
    delete: ['plain'],
  },
  {
    name: 'resolve: closed, still its queue and attendant',
    before: { status: 'open', queueId: 2, userId: 13 },
    after: { status: 'closed', queueId: 2, userId: 13 },
    update: ['admin', 'q2', 'super'],
    delete: [],
  },
];

describe('publishTicketChange', () => {
  it.each(transitions)('$name', async ({ before, after, update, delete: deleted }) => {
    // Prepare
    const { effects, to } = recording();
    // Act
    await publishTicketChange(effects, before && ticket(before), ticket(after));
    // Assess
    expect(to('company-1-ticket', 'update')).toEqual(update);
    expect(to('company-1-ticket', 'delete')).toEqual(deleted);
  });

  it('publishes nothing but the update when nobody loses the ticket (no empty delete fan-out)', async () => {
    const { effects, received } = recording();
    await publishTicketChange(effects, ticket(pendingQ1), ticket({ status: 'pending', queueId: 1, userId: null }));
    expect(new Set(received.map((r) => r.action))).toEqual(new Set(['update']));
  });

  it("an action's messages go first as appMessage create, then ONE update, to the viewers after the change", async () => {
    const { effects, received } = recording();
    const messages = [{ id: 'm1' }, { id: 'm2' }] as unknown as Message[];
    await publishTicketChange(effects, ticket(pendingQ1), ticket({ status: 'open', queueId: 1, userId: 12 }), {
      messages,
      contact: { id: 7 } as Contact,
    });
    const forQ1 = received.filter((r) => r.to === 'q1').map((r) => `${r.event}:${r.action}`);
    expect(forQ1).toEqual(['company-1-appMessage:create', 'company-1-appMessage:create', 'company-1-ticket:update']);
    // The mention's reader gets the messages of the thread it has open, and not the ticket's update
    // (which would place the ticket in its lists); an ended reading and other tenants get nothing.
    expect(received.filter((r) => r.to === 'reader').map((r) => `${r.event}:${r.action}`)).toEqual([
      'company-1-appMessage:create',
      'company-1-appMessage:create',
    ]);
    expect(received.filter((r) => ['q2', 'plain', 'readerEnded', 'otherTenant'].includes(r.to))).toEqual([]);
  });
});

describe('viewersMayShrink', () => {
  it('is false only when every socket that saw the ticket before still sees it after (all transitions)', () => {
    const states: State[] = [];
    for (const status of ['pending', 'open', 'closed'] as const)
      for (const queueId of [null, 1, 2]) for (const userId of [null, 12, 13, 14, 15]) states.push({ status, queueId, userId });
    const losers = (before: State, after: State) =>
      sockets.filter((s) => matches(ticketViewers(before), s) && !matches(ticketViewers(after), s)).map((s) => s.connectionId);
    for (const before of states)
      for (const after of states) {
        if (!viewersMayShrink(before, after)) expect(losers(before, after), JSON.stringify({ before, after })).toEqual([]);
      }
    // And it does say so for the transitions that lose someone.
    expect(viewersMayShrink(pendingNoQueue, pendingQ1)).toBe(true);
    expect(viewersMayShrink({ status: 'open', queueId: 1, userId: 12 }, { status: 'pending', queueId: 1, userId: null })).toBe(true);
  });
});

describe('publishTicketDeleted', () => {
  it('tells every viewer of the ticket, not a socket that only joined its chat box', async () => {
    const { effects, to } = recording();
    await publishTicketDeleted(effects, ticket({ status: 'open', queueId: 2, userId: 12 }) as unknown as TicketRecord);
    expect(to('company-1-ticket', 'delete')).toEqual(['admin', 'q1', 'q2', 'super']);
  });
});
