/**
 * At-least-once delivery meets the pipeline's dedupe (issue 3 "Done means", BEHAVIOUR "Inbound
 * WhatsApp messages"): the same WhatsApp event delivered three times, and replayed as history after
 * the session-host restarts, stores one message; 50 concurrent first messages from a new contact
 * make one contact and one ticket. Redeliveries go on the real inbound queue with their own dedupe
 * ids, so SQS's own 5-minute dedupe cannot be what saves us.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { InboundEvent } from '@conversa/functions/contracts/session-events';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  connectSocket,
  type Simulator,
  type Socket,
  simulator,
  stackControl,
  waitLinked,
  waitUntil,
} from './whatsapp-kit.ts';
import { type StackStore, stackStore } from './whatsapp-store.ts';

let call: Call;
let sim: Simulator;
let store: StackStore;
let tenant: Tenant;
let setup: ConnectionSetup;
let adminSocket: Socket;

const newNumber = () => `55219${randomInt(10_000_000, 99_999_999)}`;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  store = await stackStore(inject('env'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'wa-delivery');
  adminSocket = await connectSocket(inject('wsUrl'), tenant.admin.token);
  // No queues: no chatbot replies, so every stored message is one the contact sent.
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: [] });
});

afterAll(() => {
  adminSocket?.close();
  store?.close();
});

/** The ticket of the contact's first message, as the admin's socket announced it. */
async function ticketOf(number: string): Promise<number> {
  const frame = await adminSocket.waitFor(
    `appMessage for ${number}`,
    (f) => f.event === channels.appMessage(tenant.companyId) && (f.data as AppMessageEvent).contact.number === number,
  );
  return (frame.data as AppMessageEvent).ticket.id;
}

async function storedOnce(ticketId: number, body: string) {
  return waitUntil(`message "${body}" stored`, async () => {
    const messages = await store.ticketMessages(tenant.companyId, ticketId);
    return messages.some((m) => m.body === body) ? messages : undefined;
  });
}

describe('inbound delivery', () => {
  it('stores one message for an event delivered 3 times and replayed as history after a session-host restart', async () => {
    // Prepare: the first delivery is the real one, from the contact's phone through the session-host.
    const number = newNumber();
    const original = await sim.send(setup.simId, number, 'Only once, please', 'Ana');
    const ticketId = await ticketOf(number);
    await storedOnce(ticketId, 'Only once, please');
    const event: InboundEvent = {
      kind: 'message',
      companyId: tenant.companyId,
      connectionId: setup.connectionId,
      message: {
        id: original.waMessageId,
        fromMe: false,
        number,
        isGroup: false,
        pushName: 'Ana',
        timestamp: original.timestamp,
        body: 'Only once, please',
      },
    };

    // Act: two more deliveries at once; then a message behind them in the same FIFO group.
    await Promise.all([1, 2].map((n) => store.deliverInbound(event, `${original.waMessageId}-again-${n}`)));
    await sim.send(setup.simId, number, 'Second', 'Ana');
    await storedOnce(ticketId, 'Second');
    // The host dies and comes back (same HOST_ID); the event is replayed as offline history, as Baileys does.
    await stackControl(inject('controlUrl')).killSessionHost();
    await stackControl(inject('controlUrl')).startSessionHost();
    await waitLinked(sim, setup.simId);
    await store.deliverInbound({ ...event, message: { ...event.message, history: true } }, `${original.waMessageId}-history`);
    await sim.send(setup.simId, number, 'After the restart', 'Ana');
    const messages = await storedOnce(ticketId, 'After the restart');

    // Assess: three distinct messages, the replayed one once; unread counts each message once.
    expect(messages.map((m) => m.body).sort()).toEqual(['After the restart', 'Only once, please', 'Second']);
    expect(messages.filter((m) => m.waId === original.waMessageId)).toHaveLength(1);
    expect((await store.getTicket(tenant.companyId, ticketId))?.unreadMessages).toBe(3);
  });

  it('makes one contact and one ticket of 50 concurrent first messages from a new number, through the phone', async () => {
    const number = newNumber();
    const bodies = Array.from({ length: 50 }, (_, i) => `burst ${i}`);
    await Promise.all(bodies.map((body) => sim.send(setup.simId, number, body, 'Bia')));
    const ticketId = await ticketOf(number);
    await waitUntil('50 messages stored', async () => (await store.ticketMessages(tenant.companyId, ticketId)).length >= 50, 30_000);

    const contacts = await store.contactsWithNumber(tenant.companyId, number);
    expect(contacts).toHaveLength(1);
    const tickets = await store.ticketsOfContact(tenant.companyId, contacts[0]!.id);
    expect(tickets.map((t) => t.id)).toEqual([ticketId]);
    const stored = await store.ticketMessages(tenant.companyId, ticketId);
    expect(stored.map((m) => m.body).sort()).toEqual([...bodies].sort());
  });

  it('names a new contact by its WhatsApp profile name, and by its number when it has none (never an invented name)', async () => {
    const [named, unnamed] = [newNumber(), newNumber()];
    await sim.send(setup.simId, named, 'hello', 'Joana Prado');
    await sim.send(setup.simId, unnamed, 'hello');

    const contactOf = async (number: string) => {
      const frame = await adminSocket.waitFor(
        `appMessage for ${number}`,
        (f) => f.event === channels.appMessage(tenant.companyId) && (f.data as AppMessageEvent).contact.number === number,
      );
      return (frame.data as AppMessageEvent).contact;
    };
    const [namedContact, unnamedContact] = await Promise.all([contactOf(named), contactOf(unnamed)]);
    expect(namedContact?.name).toBe('Joana Prado');
    expect(unnamedContact?.name).toBe(unnamed);
  });

  it('makes one contact and one ticket when 50 first messages race through the pipeline at once', async () => {
    // The phone path keeps one contact's events in order (one FIFO group); two Lambda instances
    // handling the same new contact is the race the conditional writes exist for.
    const number = newNumber();
    const events: InboundEvent[] = Array.from({ length: 50 }, (_, i) => ({
      kind: 'message',
      companyId: tenant.companyId,
      connectionId: setup.connectionId,
      message: {
        id: `RACE${number}${i}`,
        fromMe: false,
        number,
        isGroup: false,
        pushName: 'Caio',
        timestamp: Date.now(),
        body: `race ${i}`,
      },
    }));
    await Promise.all(events.map((event) => store.processInboundEvent(event)));

    const contacts = await store.contactsWithNumber(tenant.companyId, number);
    expect(contacts).toHaveLength(1);
    const tickets = await store.ticketsOfContact(tenant.companyId, contacts[0]!.id);
    expect(tickets).toHaveLength(1);
    expect(await store.ticketMessages(tenant.companyId, tickets[0]!.id)).toHaveLength(50);
  });
});
