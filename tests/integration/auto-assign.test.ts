/**
 * Automatic assignment over the local stack (issue 22 §2): a roundRobin queue with two attendants
 * online over real sockets (maxOpenTickets 2); contacts write from the simulated phone; their tickets
 * reach the attendants already open, alternately; the fifth waits in Pending until a resolve frees a
 * seat; fifty first messages at once never put an attendant above 2 nor give a ticket twice. And the
 * fields' rules: a plain user cannot change them, garbage is a clean 400.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { Ticket, TicketEvent } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  connectSocket,
  ok,
  type Simulator,
  type Socket,
  simulator,
  waitUntil,
} from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let queueId: number;
const people: { id: number; token: string; socket: Socket }[] = [];

async function attendant(label: string): Promise<{ id: number; token: string; socket: Socket }> {
  const email = `${label}@${tenant.marker}.test`;
  const user = await ok<{ id: number }>(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: `Attendant ${label}`, email, password: PASSWORD, profile: 'user', queueIds: [queueId], maxOpenTickets: 2 },
  });
  const session = await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
  const socket = await connectSocket(inject('wsUrl'), session.token);
  socket.send('userStatus', 'online');
  return { id: user.id, token: session.token, socket };
}

/** The ticket of contact `number` as its open update reached one of the attendants' sockets. */
const openedFor = (number: string) =>
  Promise.any(
    people.map((p) =>
      p.socket.waitFor(
        `open ticket of ${number} on attendant ${p.id}`,
        (f) => {
          const e = f.data as TicketEvent;
          return (
            f.event === channels.ticket(tenant.companyId) &&
            e.action === 'update' &&
            e.ticket.status === 'open' &&
            e.ticket.contact?.number === number
          );
        },
        60_000,
      ),
    ),
  ).then((frame) => (frame.data as { ticket: Ticket }).ticket);

const newNumber = () => `55119${randomInt(10_000_000, 99_999_999)}`;

async function ticketOfContact(number: string): Promise<Ticket> {
  return waitUntil(`ticket of ${number}`, async () => {
    const page = await ok<{ tickets: Ticket[] }>(call, 'GET', '/tickets', {
      token: tenant.admin.token,
      query: { showAll: 'true', status: 'pending', queueIds: JSON.stringify([queueId]) },
    });
    return page.tickets.find((t) => t.contact?.number === number);
  });
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'auto-assign');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Support'] });
  queueId = setup.queueIds[0] as number;
});

afterAll(() => {
  for (const p of people) p.socket.close();
});

describe('automatic assignment fields', () => {
  it("a plain user cannot change their own limit or opt out, nor a queue's mode; garbage is a clean 400", async () => {
    const self = { token: tenant.user.token };
    for (const body of [{ maxOpenTickets: 9 }, { autoAssign: false }]) {
      const res = await call('PUT', `/users/${tenant.user.id}`, { ...self, body: { name: 'Plain User', ...body } });
      expect(res.status).toBe(403);
    }
    const queue = await call('PUT', `/queue/${queueId}`, { ...self, body: { autoAssign: 'roundRobin' } });
    expect(queue.status).toBe(403);
    for (const autoAssign of ['sometimes', 1, null, '']) {
      const res = await call('PUT', `/queue/${queueId}`, { token: tenant.admin.token, body: { autoAssign } });
      expect(res.status, JSON.stringify(autoAssign)).toBe(400);
      expect((res.body as { error: string }).error).toMatch(/^ERR_/);
    }
    for (const body of [{ maxOpenTickets: -1 }, { maxOpenTickets: 'lots' }, { maxOpenTickets: 1.5 }, { autoAssign: 'yes' }]) {
      const res = await call('PUT', `/users/${tenant.user.id}`, { token: tenant.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const user = await ok<{ maxOpenTickets: number; autoAssign: boolean }>(call, 'GET', `/users/${tenant.user.id}`, {
      token: tenant.admin.token,
    });
    expect([user.maxOpenTickets, user.autoAssign]).toEqual([0, true]);
  });
});

describe('a roundRobin queue with two attendants online (max 2 each)', () => {
  it('new conversations arrive open and alternate; the fifth waits; a resolve gives it to the one who resolved', async () => {
    await ok(call, 'PUT', `/queue/${queueId}`, { token: tenant.admin.token, body: { autoAssign: 'roundRobin' } });
    people.push(await attendant('a'), await attendant('b'));

    const owners: number[] = [];
    for (let i = 0; i < 4; i++) {
      const number = newNumber();
      const opened = openedFor(number);
      await sim.send(setup.simId, number, `hello ${i}`, `Contact ${i}`);
      owners.push((await opened).userId as number);
    }
    expect(owners[0]).not.toBe(owners[1]);
    expect(owners[2]).not.toBe(owners[3]);
    expect(owners.filter((id) => id === people[0]?.id)).toHaveLength(2);

    const fifth = newNumber();
    await sim.send(setup.simId, fifth, 'anyone there?', 'Contact 5');
    const waiting = await ticketOfContact(fifth);
    expect([waiting.status, waiting.userId]).toEqual(['pending', null]);

    const resolver = people[0] as (typeof people)[number];
    const theirs = await ok<{ tickets: Ticket[] }>(call, 'GET', '/tickets', { token: resolver.token, query: { status: 'open' } });
    const opened = openedFor(fifth);
    await ok(call, 'PUT', `/tickets/${theirs.tickets[0]?.id}`, { token: resolver.token, body: { status: 'closed' } });
    const given = await opened;
    expect([given.id, given.userId]).toEqual([waiting.id, resolver.id]);
  });

  it('fifty first messages at once: nobody above 2, no ticket given twice', async () => {
    // Free every seat first
    for (const p of people) {
      const open = await ok<{ tickets: Ticket[] }>(call, 'GET', '/tickets', { token: p.token, query: { status: 'open' } });
      for (const t of open.tickets) await ok(call, 'PUT', `/tickets/${t.id}`, { token: p.token, body: { status: 'closed' } });
    }
    // the waiting ones from the first test took the freed seats; free those too
    await waitUntil('no ticket of the queue open', async () => {
      let left = 0;
      for (const p of people) {
        const open = await ok<{ tickets: Ticket[] }>(call, 'GET', '/tickets', { token: p.token, query: { status: 'open' } });
        for (const t of open.tickets) await ok(call, 'PUT', `/tickets/${t.id}`, { token: p.token, body: { status: 'closed' } });
        left += open.tickets.length;
      }
      return left === 0;
    });
    const before = people.map((p) => p.socket.frames.length);

    const numbers = Array.from({ length: 50 }, newNumber);
    await Promise.all(numbers.map((n, i) => sim.send(setup.simId, n, `rush ${i}`, `Rush ${i}`)));
    const mine = new Set(numbers);
    const givenTo = () => {
      const got = new Map<number, Set<number>>();
      people.forEach((p, i) => {
        for (const f of p.socket.frames.slice(before[i])) {
          const e = f.data as TicketEvent;
          if (f.event !== channels.ticket(tenant.companyId) || e.action !== 'update' || e.ticket.status !== 'open') continue;
          if (!mine.has(e.ticket.contact?.number ?? '') || e.ticket.userId !== p.id) continue;
          got.set(e.ticket.id, (got.get(e.ticket.id) ?? new Set()).add(p.id));
        }
      });
      return got;
    };
    await waitUntil('four of the rush assigned', async () => givenTo().size >= 4, 90_000);
    // The others are stored and wait in Pending (a page of the list shows a good share of them).
    await waitUntil(
      'the rush stored',
      async () => {
        const page = await ok<{ tickets: Ticket[]; count?: number }>(call, 'GET', '/tickets', {
          token: tenant.admin.token,
          query: { status: 'pending', showAll: 'true', queueIds: JSON.stringify([queueId]) },
        });
        return page.tickets.filter((t) => mine.has(t.contact?.number ?? '')).length >= 20;
      },
      90_000,
    );
    const given = givenTo();
    expect(given.size).toBe(4);
    expect([...given.values()].every((owners) => owners.size === 1)).toBe(true);
    for (const p of people) {
      const open = await ok<{ tickets: Ticket[] }>(call, 'GET', '/tickets', { token: p.token, query: { status: 'open' } });
      expect(open.tickets.length, `attendant ${p.id}`).toBeLessThanOrEqual(2);
    }
  }, 420_000);
});
