/**
 * A WhatsApp conversation end to end over the local stack (issue 3 "Done means"): a simulated
 * contact writes to a connection with two queues, the chatbot's menu and option tree answer on the
 * contact's phone, the ticket reaches the attendants of its queue (and only them) over the socket,
 * the attendant accepts and replies, the phone receives the reply and reads it, and the read ack
 * comes back to the socket. Everything goes through the public API, the simulator's phones and the
 * real session-host process.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { WhatsappSessionEvent } from '@conversa/functions/contracts/connections';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { TicketEvent } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from './tenants.ts';
import {
  type ChatEntry,
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
let adminSocket: Socket;
let attendant2: { id: number; token: string; socket: Socket };
let attendant1: { id: number; token: string; socket: Socket };
const number = `55119${randomInt(10_000_000, 99_999_999)}`;
const sockets: Socket[] = [];

async function attendant(queueId: number, label: string): Promise<{ id: number; token: string; socket: Socket }> {
  const email = `${label}@${tenant.marker}.test`;
  const user = await ok<{ id: number }>(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: `Attendant ${label}`, email, password: PASSWORD, profile: 'user', queueIds: [queueId] },
  });
  const session = await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
  const socket = await connectSocket(inject('wsUrl'), session.token);
  sockets.push(socket);
  return { id: user.id, token: session.token, socket };
}

/** Our messages on the contact's phone beyond the first `seen`, once there are at least `count` more. */
async function phoneReceives(seen: number, count = 1): Promise<ChatEntry[]> {
  return waitUntil(`${count} more message(s) on the contact's phone`, async () => {
    const ours = (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us');
    return ours.length >= seen + count ? ours.slice(seen) : undefined;
  });
}

const ourCount = async () => (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us').length;

/** The contact writes `body` and waits for the bot's one answer. */
async function contactSays(body: string): Promise<string> {
  const seen = await ourCount();
  await sim.send(setup.simId, number, body, 'Maria');
  const [reply] = await phoneReceives(seen);
  return reply?.body ?? '';
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'wa-flow');
  adminSocket = await connectSocket(inject('wsUrl'), tenant.admin.token);
  sockets.push(adminSocket);
});

afterAll(() => {
  for (const socket of sockets) socket.close();
});

describe('a WhatsApp conversation over the local stack', () => {
  it('connects: the phone scans the QR, the connection is CONNECTED in REST and on the admin socket', async () => {
    setup = await connectedConnection(call, sim, {
      token: tenant.admin.token,
      companyId: tenant.companyId,
      queues: ['Sales', 'Support'],
      greeting: 'Welcome to Conversa!',
    });
    const connected = await adminSocket.waitFor(
      'whatsappSession CONNECTED',
      (f) =>
        f.event === channels.whatsappSession(tenant.companyId) &&
        (f.data as WhatsappSessionEvent).session.id === setup.connectionId &&
        (f.data as WhatsappSessionEvent).session.status === 'CONNECTED',
    );
    expect((connected.data as WhatsappSessionEvent).session.number).toMatch(/^\d+$/);
    // Queue 2's option tree: Billing (with two children) and Technical (a leaf).
    const option = (body: Record<string, unknown>) =>
      ok<{ id: number }>(call, 'POST', '/queue-options', { token: tenant.admin.token, body: { queueId: setup.queueIds[1], ...body } });
    const billing = await option({ option: '1', title: 'Billing', message: 'About your bill:' });
    await option({ option: '1', title: 'Invoices', message: 'Invoices are in the portal.', parentId: billing.id });
    await option({ option: '2', title: 'Refunds', message: 'Refunds take 5 days.', parentId: billing.id });
    await option({ option: '2', title: 'Technical', message: 'A technician will answer you here.' });
    attendant2 = await attendant(setup.queueIds[1] as number, 'support-agent');
    attendant1 = await attendant(setup.queueIds[0] as number, 'sales-agent');
  });

  let ticketId: number;

  it('answers a first message with the greeting and the queue menu', async () => {
    const reply = await contactSays('Hi there');
    expect(reply).toContain('Welcome to Conversa!');
    expect(reply).toContain('*[ 1 ]* - Sales');
    expect(reply).toContain('*[ 2 ]* - Support');
    const created = await adminSocket.waitFor(
      'appMessage for the contact',
      (f) => f.event === channels.appMessage(tenant.companyId) && (f.data as AppMessageEvent).contact.number === number,
    );
    ticketId = (created.data as AppMessageEvent).ticket.id;
    const ticket = await ok<{ status: string; queueId: number | null }>(call, 'GET', `/tickets/${ticketId}`, { token: tenant.admin.token });
    expect(ticket).toMatchObject({ status: 'pending', queueId: null });
  });

  it('puts the ticket in the second queue on `2` and walks its option tree with a number, 0 and #', async () => {
    let reply = await contactSays('2');
    expect(reply).toContain('*[ 1 ]* - Billing');
    expect(reply).toContain('*[ 2 ]* - Technical');
    const inQueue = await ok<{ queueId: number }>(call, 'GET', `/tickets/${ticketId}`, { token: tenant.admin.token });
    expect(inQueue.queueId).toBe(setup.queueIds[1]);

    reply = await contactSays('1');
    expect(reply).toContain('About your bill:');
    expect(reply).toContain('*[ 1 ]* - Invoices');
    expect(reply).toContain('*[ 0 ]* - Menu anterior');

    reply = await contactSays('0');
    expect(reply).toContain('*[ 1 ]* - Billing');
    expect(reply).not.toContain('Invoices');

    reply = await contactSays('#');
    expect(reply).toContain('*[ 1 ]* - Sales');
    expect(reply).toContain('*[ 2 ]* - Support');

    reply = await contactSays('2');
    expect(reply).toContain('*[ 2 ]* - Technical');
    reply = await contactSays('2');
    expect(reply).toBe('A technician will answer you here.');

    const ticket = await ok<{ status: string; queueId: number; chatbot: boolean }>(call, 'GET', `/tickets/${ticketId}`, {
      token: tenant.admin.token,
    });
    expect(ticket).toMatchObject({ status: 'pending', queueId: setup.queueIds[1], chatbot: false });
  });

  it("delivers the ticket and its messages to the queue's attendant, not to another queue's", async () => {
    const mine = (f: { event: string; data: unknown }) =>
      (f.event === channels.ticket(tenant.companyId) && (f.data as TicketEvent & { ticket?: { id: number } }).ticket?.id === ticketId) ||
      (f.event === channels.appMessage(tenant.companyId) && (f.data as AppMessageEvent).ticket.id === ticketId);
    await attendant2.socket.waitFor('ticket event', (f) => f.event === channels.ticket(tenant.companyId) && mine(f));
    await attendant2.socket.waitFor(
      "the contact's last message",
      (f) =>
        f.event === channels.appMessage(tenant.companyId) &&
        mine(f) &&
        (f.data as AppMessageEvent).message.body === '2' &&
        !(f.data as AppMessageEvent).message.fromMe,
    );
    await attendant2.socket.waitFor(
      "the bot's reply",
      (f) => mine(f) && (f.data as AppMessageEvent).message?.body === 'A technician will answer you here.',
    );
    expect(attendant1.socket.frames.filter(mine)).toEqual([]);
  });

  it('the attendant accepts and replies; the phone receives it, reads it, and the read ack reaches the socket', async () => {
    const accepted = await call('PUT', `/tickets/${ticketId}`, {
      token: attendant2.token,
      body: { status: 'open', userId: attendant2.id },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'open', userId: attendant2.id });

    const seen = await ourCount();
    const sent = await call('POST', `/messages/${ticketId}`, { token: attendant2.token, body: { body: 'Hello Maria, how can I help?' } });
    expect(sent.status).toBeLessThan(300);
    const [delivered] = await phoneReceives(seen);
    expect(delivered?.body).toContain('Hello Maria, how can I help?');

    await sim.ack(setup.simId, number, delivered?.waMessageId as string, 3);
    const read = await attendant2.socket.waitFor(
      'appMessage update with ack >= 3',
      (f) =>
        f.event === channels.appMessage(tenant.companyId) &&
        (f.data as AppMessageEvent).action === 'update' &&
        (f.data as AppMessageEvent).message.body.includes('Hello Maria, how can I help?') &&
        (f.data as AppMessageEvent).message.ack >= 3,
    );
    expect((read.data as AppMessageEvent).message.fromMe).toBe(true);
    // REST agrees with the socket.
    const page = await ok<{ messages: { body: string; ack: number }[] }>(call, 'GET', `/messages/${ticketId}`, { token: attendant2.token });
    expect(page.messages.find((m) => m.body.includes('Hello Maria'))?.ack).toBeGreaterThanOrEqual(3);
  });
});
