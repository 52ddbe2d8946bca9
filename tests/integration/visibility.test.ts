/**
 * Who receives which ticket event (issue 4): every change to a ticket goes to exactly the sockets
 * entitled to it (SPEC 6: admins see every ticket, a user the tickets of their queues and those
 * assigned to them, allTicket users the pending tickets with no queue; never another tenant), and a
 * viewer who loses a ticket gets the `delete` that drops it from their lists (SPEC 4: "A ticket
 * leaves a list when its status no longer matches, when its queue is not among the selected
 * queues, or when it is deleted").
 *
 * Real WebSocket clients over the local stack, one per viewer, each joined to every room a client
 * may ask for (ticket lists, notifications, and the conversation of each ticket, as a snooping
 * client would): rooms must never widen what a user sees. Each step is a row of the matrix: what is
 * done, then for each event kind the viewers that receive it; everyone else must receive nothing
 * about the ticket. A step ends on a sentinel (ping -> pong on every socket, after the expected
 * frames arrived) plus a short quiet window, not on long sleeps.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { ContactEvent } from '@conversa/functions/contracts/contacts';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { Ticket, TicketEvent } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  connectSocket,
  type Frame,
  ok,
  type Simulator,
  type Socket,
  simulator,
  sleep,
  waitUntil,
} from './whatsapp-kit.ts';

const viewerNames = ['admin', 'inQueue', 'otherQueue', 'allTicketOn', 'allTicketOff', 'otherTenant'] as const;
type ViewerName = (typeof viewerNames)[number];

/** What a client can observe about one ticket. Message acks (appMessage update) arrive when the phone acks: not part of a step. */
type Kind = 'ticket:update' | 'ticket:delete' | 'ticket:updateUnread' | 'appMessage:create' | 'contact:update';

/** One row of the matrix: for each event kind, the viewers that receive it (a name twice: twice); nobody else receives anything. */
type Expected = Partial<Record<Kind, ViewerName[]>>;

interface Viewer {
  id: number;
  token: string;
  socket: Socket;
}

/** The ticket a step is about: its contact's number (known first) and id (once the first event told it). */
interface Subject {
  number: string;
  ticketId?: number;
  contactId?: number;
}

const QUIET_MS = 300;
/** Contacts are the tenant's (the contacts page): their events go to every user of the tenant. */
const wholeTenant: ViewerName[] = ['admin', 'inQueue', 'otherQueue', 'allTicketOn', 'allTicketOff'];

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let companyId: number;
let inQueueConnection: ConnectionSetup;
let noQueueConnection: ConnectionSetup;
let q1: number;
let q2: number;
const viewers = {} as Record<ViewerName, Viewer>;

/** The kinds this frame shows about the subject; undefined when it is about something else. */
function kindOf(frame: Frame, subject: Subject): Kind | undefined {
  if (frame.event === channels.ticket(companyId)) {
    const data = frame.data as TicketEvent;
    if (data.action === 'update') return data.ticket.contact.number === subject.number ? 'ticket:update' : undefined;
    return data.ticketId === subject.ticketId ? `ticket:${data.action}` : undefined;
  }
  if (frame.event === channels.appMessage(companyId)) {
    const data = frame.data as AppMessageEvent;
    return data.action === 'create' && data.ticket.contact.number === subject.number ? 'appMessage:create' : undefined;
  }
  if (frame.event === channels.contact(companyId)) {
    const data = frame.data as ContactEvent;
    return data.action === 'update' && data.contact.number === subject.number ? 'contact:update' : undefined;
  }
  return undefined;
}

const kindsSince = (viewer: ViewerName, mark: number, subject: Subject): Kind[] =>
  viewers[viewer].socket.frames
    .slice(mark)
    .flatMap((frame) => kindOf(frame, subject) ?? [])
    .sort();

function perViewer(expected: Expected): Record<ViewerName, Kind[]> {
  const out = Object.fromEntries(viewerNames.map((name) => [name, [] as Kind[]])) as Record<ViewerName, Kind[]>;
  for (const [kind, names] of Object.entries(expected) as [Kind, ViewerName[]][]) for (const name of names) out[name].push(kind);
  for (const name of viewerNames) out[name].sort();
  return out;
}

/** Every socket answers a ping after what was posted to it before; then a short quiet window for stragglers. */
async function sentinel(): Promise<void> {
  await Promise.all(
    viewerNames.map(async (name) => {
      const { socket } = viewers[name];
      // A socket the server closed (its user was deleted) answers nothing, and receives nothing.
      if (socket.ws.readyState !== socket.ws.OPEN) return;
      const pongs = socket.frames.filter((f) => f.event === 'pong').length;
      socket.send('ping');
      await waitUntil(`${name} pong`, async () => socket.frames.filter((f) => f.event === 'pong').length > pongs, 15_000, 20);
    }),
  );
  await sleep(QUIET_MS);
}

/**
 * Runs `act`, waits until every entitled viewer has what it should, then asserts the whole row:
 * each viewer received exactly the expected kinds about the subject, no more, no fewer. Returns the
 * frames each viewer received during the step, for payload checks.
 */
async function step(subject: Subject, act: () => Promise<unknown>, expected: Expected): Promise<Record<ViewerName, Frame[]>> {
  const marks = Object.fromEntries(viewerNames.map((name) => [name, viewers[name].socket.frames.length])) as Record<ViewerName, number>;
  await act();
  const want = perViewer(expected);
  await Promise.all(
    viewerNames.map((name) =>
      waitUntil(
        `${name} receives ${want[name].join(', ') || 'nothing'}`,
        async () => {
          const got = kindsSince(name, marks[name], subject);
          return want[name].every((kind) => got.filter((k) => k === kind).length >= want[name].filter((k) => k === kind).length);
        },
        30_000,
        25,
      ).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; got ${JSON.stringify(kindsSince(name, marks[name], subject))}`);
      }),
    ),
  );
  await sentinel();
  const got = Object.fromEntries(viewerNames.map((name) => [name, kindsSince(name, marks[name], subject)]));
  expect(got).toEqual(want);
  return Object.fromEntries(viewerNames.map((name) => [name, viewers[name].socket.frames.slice(marks[name])])) as Record<
    ViewerName,
    Frame[]
  >;
}

/**
 * The ticket as the last event of a step showed it to a viewer: a `ticket:update`, or a new
 * message's `appMessage:create`, which carries its ticket (an inbound message publishes only that).
 */
function updated(frames: Frame[]): Ticket {
  const last = frames
    .filter(
      (f) =>
        (f.event === channels.ticket(companyId) && (f.data as TicketEvent).action === 'update') ||
        (f.event === channels.appMessage(companyId) && (f.data as AppMessageEvent).action === 'create'),
    )
    .at(-1);
  if (!last) throw new Error('no ticket update');
  return (last.data as { ticket: Ticket }).ticket;
}

/** Every socket asks for every room a client can join; the ticket's conversation once its id is known. */
function joinEverything(ticketId?: number): void {
  for (const name of viewerNames) {
    const { socket } = viewers[name];
    if (ticketId !== undefined) {
      socket.send('joinChatBox', ticketId);
      continue;
    }
    for (const status of ['open', 'pending', 'closed']) socket.send('joinTickets', status);
    socket.send('joinNotification');
  }
}

async function user(label: string, body: Record<string, unknown>): Promise<Omit<Viewer, 'socket'>> {
  const email = `${label}@${tenant.marker}.test`;
  const created = await ok<{ id: number }>(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: `Viewer ${label}`, email, password: PASSWORD, profile: 'user', ...body },
  });
  const session = await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
  return { id: created.id, token: session.token };
}

const put = (viewer: ViewerName, path: string, body: unknown) => ok(call, 'PUT', path, { token: viewers[viewer].token, body });
const contactSays = (setup: ConnectionSetup, subject: Subject, body: string) => () => sim.send(setup.simId, subject.number, body, 'Maria');

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  const [a, b] = await Promise.all([createTenant(call, superToken, planId, 'vis-a'), createTenant(call, superToken, planId, 'vis-b')]);
  tenant = a;
  companyId = a.companyId;
  // One queue on the connection: an inbound ticket takes it at once (no chatbot menu).
  inQueueConnection = await connectedConnection(call, sim, {
    token: a.admin.token,
    companyId,
    queues: ['Vis Q1'],
    greeting: '',
    connection: { complationMessage: 'Obrigado pelo contato!' },
  });
  // No queue at all: its tickets stay pending without a queue.
  noQueueConnection = await connectedConnection(call, sim, { token: a.admin.token, companyId, queues: [], greeting: '' });
  q1 = inQueueConnection.queueIds[0] as number;
  q2 = (
    await ok<{ id: number }>(call, 'POST', '/queue', { token: a.admin.token, body: { name: 'Vis Q2', color: '#aa3300', orderQueue: 2 } })
  ).id;
  for (const key of ['sendGreetingAccepted', 'sendMsgTransfTicket'])
    await ok(call, 'PUT', `/settings/${key}`, { token: a.admin.token, body: { value: 'enabled' } });

  const identities: Record<ViewerName, Omit<Viewer, 'socket'>> = {
    admin: { id: a.admin.id, token: a.admin.token },
    inQueue: await user('in-queue', { queueIds: [q1] }),
    otherQueue: await user('other-queue', { queueIds: [q2] }),
    allTicketOn: await user('all-on', { queueIds: [], allTicket: 'enabled' }),
    allTicketOff: { id: a.user.id, token: a.user.token },
    otherTenant: { id: b.admin.id, token: b.admin.token },
  };
  for (const name of viewerNames)
    viewers[name] = { ...identities[name], socket: await connectSocket(inject('wsUrl'), identities[name].token) };
  joinEverything();
  await sentinel();
});

afterAll(() => {
  for (const name of viewerNames) viewers[name]?.socket.close();
});

describe('ticket events reach exactly the viewers entitled to them', () => {
  const subject: Subject = { number: `55119${randomInt(10_000_000, 99_999_999)}` };

  it('a ticket in a queue: new, accept, messages, unread, tags, contact, transfer, resolve, reopen, delete', async () => {
    // A contact writes: a new pending ticket in Q1.
    const created = await step(subject, contactSays(inQueueConnection, subject, 'Hello, I need help'), {
      'appMessage:create': ['admin', 'inQueue'],
      'contact:update': wholeTenant,
    });
    const fresh = updated(created.admin);
    subject.ticketId = fresh.id;
    subject.contactId = fresh.contactId;
    expect(fresh).toMatchObject({ status: 'pending', queueId: q1, userId: null, unreadMessages: 1 });
    joinEverything(fresh.id);
    await sentinel();

    // The queue's attendant accepts: open, theirs, unread back to 0; the greeting (sendGreetingAccepted) goes out in their name.
    const accepted = await step(
      subject,
      () => put('inQueue', `/tickets/${subject.ticketId}`, { status: 'open', userId: viewers.inQueue.id }),
      { 'appMessage:create': ['admin', 'inQueue'], 'ticket:update': ['admin', 'inQueue'] },
    );
    expect(updated(accepted.inQueue)).toMatchObject({ status: 'open', userId: viewers.inQueue.id, unreadMessages: 0 });

    // The contact writes on the open ticket.
    const inbound = await step(subject, contactSays(inQueueConnection, subject, 'Are you there?'), {
      'appMessage:create': ['admin', 'inQueue'],
    });
    expect(updated(inbound.admin).unreadMessages).toBe(1);

    // The attendant opens the conversation: the unread count goes back to 0 for everyone who sees it.
    await step(subject, () => ok(call, 'GET', `/messages/${subject.ticketId}`, { token: viewers.inQueue.token }), {
      'ticket:updateUnread': ['admin', 'inQueue'],
    });

    // The attendant answers.
    await step(
      subject,
      () => ok(call, 'POST', `/messages/${subject.ticketId}`, { token: viewers.inQueue.token, body: { body: 'Yes, how can I help?' } }),
      { 'appMessage:create': ['admin', 'inQueue'], 'ticket:update': ['admin', 'inQueue'] },
    );

    // A tag is put on the ticket.
    const tag = await ok<{ id: number }>(call, 'POST', '/tags', { token: tenant.admin.token, body: { name: 'Vis tag', color: '#123456' } });
    const tagged = await step(
      subject,
      () => ok(call, 'POST', '/tags/sync', { token: tenant.admin.token, body: { ticketId: subject.ticketId, tags: [tag.id] } }),
      { 'ticket:update': ['admin', 'inQueue'] },
    );
    expect(updated(tagged.inQueue).tags.map((t) => t.id)).toEqual([tag.id]);

    // The contact is renamed: contacts are the tenant's, every user of the tenant is told; the open
    // ticket's rows show the contact's name, so its viewers (and only they) get its update too.
    const renamed = await step(subject, () => put('admin', `/contacts/${subject.contactId}`, { name: 'Maria Renamed' }), {
      'contact:update': wholeTenant,
      'ticket:update': ['admin', 'inQueue'],
    });
    expect(updated(renamed.inQueue)).toMatchObject({ id: subject.ticketId, status: 'open', contact: { name: 'Maria Renamed' } });
    // Extra info is not on the ticket: only the contact event.
    await step(subject, () => put('admin', `/contacts/${subject.contactId}`, { extraInfo: [{ name: 'CPF', value: '123' }] }), {
      'contact:update': wholeTenant,
    });

    // Transfer to Q2 with no user: pending in Q2. Q1's attendant loses it (delete), Q2's gains it, with the transfer notice.
    const transferred = await step(subject, () => put('admin', `/tickets/${subject.ticketId}`, { queueId: q2, userId: null }), {
      'appMessage:create': ['admin', 'otherQueue'],
      'ticket:update': ['admin', 'otherQueue'],
      'ticket:delete': ['inQueue'],
    });
    expect(updated(transferred.otherQueue)).toMatchObject({ status: 'pending', queueId: q2, userId: null });

    // Resolve: closed, with the connection's completion message.
    const resolved = await step(subject, () => put('admin', `/tickets/${subject.ticketId}`, { status: 'closed' }), {
      'appMessage:create': ['admin', 'otherQueue'],
      'ticket:update': ['admin', 'otherQueue'],
    });
    expect(updated(resolved.otherQueue)).toMatchObject({ status: 'closed', queueId: q2 });

    // Q2's attendant reopens it for themselves.
    const reopened = await step(
      subject,
      () => put('otherQueue', `/tickets/${subject.ticketId}`, { status: 'open', userId: viewers.otherQueue.id, queueId: q2 }),
      { 'ticket:update': ['admin', 'otherQueue'] },
    );
    expect(updated(reopened.admin)).toMatchObject({ status: 'open', queueId: q2, userId: viewers.otherQueue.id });

    // The admin deletes it.
    await step(subject, () => ok(call, 'DELETE', `/tickets/${subject.ticketId}`, { token: tenant.admin.token }), {
      'ticket:delete': ['admin', 'otherQueue'],
    });
  });
});

describe('a pending ticket without a queue', () => {
  const subject: Subject = { number: `55118${randomInt(10_000_000, 99_999_999)}` };

  it('reaches admins and allTicket users only, and leaves the allTicket list when it gets a queue', async () => {
    const created = await step(subject, contactSays(noQueueConnection, subject, 'Hi, anyone?'), {
      'appMessage:create': ['admin', 'allTicketOn'],
      'contact:update': wholeTenant,
    });
    const fresh = updated(created.admin);
    subject.ticketId = fresh.id;
    expect(fresh).toMatchObject({ status: 'pending', queueId: null, userId: null });
    joinEverything(fresh.id);
    await sentinel();

    await step(subject, contactSays(noQueueConnection, subject, 'Hello?'), {
      'appMessage:create': ['admin', 'allTicketOn'],
    });

    await step(subject, () => ok(call, 'GET', `/messages/${subject.ticketId}`, { token: viewers.allTicketOn.token }), {
      'ticket:updateUnread': ['admin', 'allTicketOn'],
    });

    // The admin moves it to Q1, unassigned: the allTicket user no longer sees it, Q1's attendant does.
    const moved = await step(subject, () => put('admin', `/tickets/${subject.ticketId}`, { queueId: q1, userId: null }), {
      'appMessage:create': ['admin', 'inQueue'],
      'ticket:update': ['admin', 'inQueue'],
      'ticket:delete': ['allTicketOn'],
    });
    expect(updated(moved.inQueue)).toMatchObject({ status: 'pending', queueId: q1, userId: null });
  });

  it('an allTicket user who accepts it keeps it as its attendant; returning it to the queue-less pool keeps it theirs to see', async () => {
    const other: Subject = { number: `55117${randomInt(10_000_000, 99_999_999)}` };
    const created = await step(other, contactSays(noQueueConnection, other, 'Good morning'), {
      'appMessage:create': ['admin', 'allTicketOn'],
      'contact:update': wholeTenant,
    });
    other.ticketId = updated(created.admin).id;

    const accepted = await step(
      other,
      () => put('allTicketOn', `/tickets/${other.ticketId}`, { status: 'open', userId: viewers.allTicketOn.id }),
      { 'appMessage:create': ['admin', 'allTicketOn'], 'ticket:update': ['admin', 'allTicketOn'] },
    );
    expect(updated(accepted.allTicketOn)).toMatchObject({
      status: 'open',
      queueId: null,
      userId: viewers.allTicketOn.id,
      unreadMessages: 0,
    });

    await step(other, () => put('allTicketOn', `/tickets/${other.ticketId}`, { status: 'pending' }), {
      'ticket:update': ['admin', 'allTicketOn'],
    });
  });
});

describe('the chatbot gives a queue-less ticket a queue', () => {
  const subject: Subject = { number: `55116${randomInt(10_000_000, 99_999_999)}` };

  it('allTicket users, who saw it during the menu, lose it; the chosen queue gains it', async () => {
    // Prepare: a connection with both queues, so a new ticket waits in the menu without a queue.
    const menu = await connectedConnection(call, sim, {
      token: tenant.admin.token,
      companyId,
      queues: [],
      greeting: 'Choose a department:',
      connection: { queueIds: [q1, q2] },
    });
    const menuShown = (f: Frame) =>
      f.event === channels.appMessage(companyId) &&
      (f.data as AppMessageEvent).ticket.contact.number === subject.number &&
      (f.data as AppMessageEvent).message.body.includes('Choose a department:');
    // The contact's message and the bot's menu: two messages, one ticket update.
    const created = await step(
      subject,
      async () => {
        await sim.send(menu.simId, subject.number, 'Hi', 'Maria');
        await viewers.admin.socket.waitFor('the menu', menuShown);
      },
      {
        'appMessage:create': ['admin', 'admin', 'allTicketOn', 'allTicketOn'],
        'ticket:update': ['admin', 'allTicketOn'],
        'contact:update': wholeTenant,
      },
    );
    subject.ticketId = updated(created.admin).id;

    // Act + Assess: the contact picks the first queue (no greeting, no options: the bot says nothing).
    const chosen = await step(subject, contactSays(menu, subject, '1'), {
      'appMessage:create': ['admin', 'inQueue'],
      'ticket:delete': ['allTicketOn'],
    });
    expect(updated(chosen.inQueue)).toMatchObject({ status: 'pending', queueId: q1, chatbot: false });
  });
});

describe('a ticket opened from the inbox (POST /tickets)', () => {
  const subject: Subject = { number: `55114${randomInt(10_000_000, 99_999_999)}` };

  it('reaches the admins and its queue, open for its creator', async () => {
    const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
      token: viewers.otherQueue.token,
      body: { name: 'Joana Inbox', number: subject.number },
    });
    const body = {
      contactId: contact.id,
      queueId: q2,
      whatsappId: inQueueConnection.connectionId,
      userId: viewers.otherQueue.id,
      status: 'open',
    };
    const created = await step(subject, () => ok(call, 'POST', '/tickets', { token: viewers.otherQueue.token, body }), {
      'ticket:update': ['admin', 'otherQueue'],
    });
    expect(updated(created.otherQueue)).toMatchObject({ status: 'open', queueId: q2, userId: viewers.otherQueue.id });
  });
});

describe('a contact writes again after their ticket was resolved', () => {
  const subject: Subject = { number: `55113${randomInt(10_000_000, 99_999_999)}` };

  it('the ticket reopens pending in its queue: an attendant who had it from outside the queue gets its delete', async () => {
    // Prepare: a ticket of Q1, transferred to the allTicket user (not a member of Q1), who sees it
    // as theirs; then resolved.
    const created = await step(subject, contactSays(inQueueConnection, subject, 'Hello there'), {
      'appMessage:create': ['admin', 'inQueue'],
      'contact:update': wholeTenant,
    });
    subject.ticketId = updated(created.admin).id;
    joinEverything(subject.ticketId);
    await sentinel();
    const assigned = await step(
      subject,
      () => put('admin', `/tickets/${subject.ticketId}`, { queueId: q1, userId: viewers.allTicketOn.id, status: 'open' }),
      {
        'appMessage:create': ['admin', 'inQueue', 'allTicketOn'],
        'ticket:update': ['admin', 'inQueue', 'allTicketOn'],
      },
    );
    expect(updated(assigned.allTicketOn)).toMatchObject({ status: 'open', queueId: q1, userId: viewers.allTicketOn.id });
    await step(subject, () => put('allTicketOn', `/tickets/${subject.ticketId}`, { status: 'closed' }), {
      'appMessage:create': ['admin', 'inQueue', 'allTicketOn'],
      'ticket:update': ['admin', 'inQueue', 'allTicketOn'],
    });

    // Act: the contact writes again within timeCreateNewTicket.
    const reopened = await step(subject, contactSays(inQueueConnection, subject, 'One more question'), {
      'appMessage:create': ['admin', 'inQueue'],
      'ticket:delete': ['allTicketOn'],
    });

    // Assess: the same ticket, pending in Q1 with no attendant; its former attendant's lists drop it.
    expect(updated(reopened.inQueue)).toMatchObject({ id: subject.ticketId, status: 'pending', queueId: q1, userId: null });
  });
});

describe('sockets entitled to no ticket', () => {
  it('received no ticket or message event at all so far, message acks (appMessage update) included', () => {
    const ticketOrMessage = (f: Frame) => f.event === channels.ticket(companyId) || f.event === channels.appMessage(companyId);
    expect(viewers.allTicketOff.socket.frames.filter(ticketOrMessage)).toEqual([]);
    expect(viewers.otherTenant.socket.frames.filter(ticketOrMessage)).toEqual([]);
  });
});

describe("a user's edit moves what their open socket receives, without reconnecting", () => {
  const subject: Subject = { number: `55115${randomInt(10_000_000, 99_999_999)}` };

  it('a user put in Q1 receives its tickets; a user taken out of Q1 no longer does', async () => {
    // Prepare: the admin swaps the queues of two users whose sockets stay open.
    await put('admin', `/users/${viewers.allTicketOff.id}`, { queueIds: [q1] });
    await put('admin', `/users/${viewers.inQueue.id}`, { queueIds: [q2] });
    // Act + Assess
    await step(subject, contactSays(inQueueConnection, subject, 'Hello again'), {
      'appMessage:create': ['admin', 'allTicketOff'],
      'contact:update': wholeTenant,
    });
  });
});

describe('a deleted user', () => {
  const subject: Subject = { number: `55116${randomInt(10_000_000, 99_999_999)}` };

  it('is told the session ended, their socket is closed, and it receives nothing more', async () => {
    // Act: the admin deletes a user of Q1 whose socket is open.
    await ok(call, 'DELETE', `/users/${viewers.allTicketOff.id}`, { token: viewers.admin.token });
    // Assess: the web signs out on this event; then the server closes the socket; after it, not even
    // the tenant-wide contact event arrives.
    const { socket } = viewers.allTicketOff;
    await waitUntil('the session-ended event', async () =>
      socket.frames.some(
        (f) => f.event === `company-${companyId}-auth` && (f.data as { sessionJti?: string }).sessionJti === 'session-ended',
      ),
    );
    await waitUntil('the socket closed by the server', async () => socket.ws.readyState === socket.ws.CLOSED);
    await step(subject, contactSays(inQueueConnection, subject, 'Anyone there?'), {
      'appMessage:create': ['admin'],
      'contact:update': wholeTenant.filter((name) => name !== 'allTicketOff'),
    });
  });
});

describe('the other tenant', () => {
  it('received nothing of this tenant on any channel', () => {
    const leaked = viewers.otherTenant.socket.frames.filter((f) => f.event.startsWith(`company-${companyId}-`));
    expect(leaked).toEqual([]);
  });
});
