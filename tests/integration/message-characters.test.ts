/**
 * Every character a message may hold, through the whole path over the local stack: emoji (above
 * U+FFFF), right-to-left text, NUL, the noncharacters U+FFFE/U+FFFF (which SQS refuses in a body) and
 * lone surrogates, from the contact's phone to the inbox and from the inbox (a reply, a quick reply,
 * the external API, a schedule) to the phone. Nothing is dropped: every character arrives as written,
 * except a lone surrogate, which is not a character at all (no UTF-8 system, WhatsApp included, can
 * carry one) and arrives as U+FFFD, as any UTF-8 encoder writes it (contracts/queue-body.ts).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { Schedule } from '@conversa/functions/contracts/schedule-requests';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
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

const TEXTS = {
  emoji: 'Oi 😀👍🏽 tudo bem? 👨‍👩‍👧',
  rtl: 'مرحبا بك — שלום עולם',
  nul: 'antes\u0000depois',
  nonCharacters: 'fim\uFFFE\uFFFF.',
  loneSurrogates: 'a\uD83Db\uDE00c',
};
/** What arrives: the text itself, lone surrogates as U+FFFD. */
const arrives = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const cases = Object.entries(TEXTS);

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let socket: Socket;
const apiToken = `chars-${randomUUID()}`;
const phone = () => `55119${randomInt(10_000_000, 99_999_999)}`;

const ours = async (number: string, body: string) =>
  (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us' && m.body === body);
const phoneShows = (number: string, body: string) =>
  waitUntil(`the phone of ${number} shows ${JSON.stringify(body)}`, async () => (await ours(number, body)).length > 0);

/** The contact writes; its message reaches the inbox over the socket. */
async function contactWrites(number: string, body: string, pushName: string): Promise<AppMessageEvent> {
  await sim.send(setup.simId, number, body, pushName);
  const frame = await socket.waitFor(
    `the contact's ${JSON.stringify(body)}`,
    (f) =>
      f.event === channels.appMessage(tenant.companyId) &&
      (f.data as AppMessageEvent).contact?.number === number &&
      (f.data as AppMessageEvent).message.body === arrives(body),
  );
  return frame.data as AppMessageEvent;
}

async function openConversation(number: string): Promise<number> {
  const { ticket } = await contactWrites(number, `Olá ${randomInt(1e6)}`, 'Rita');
  await ok(call, 'PUT', `/tickets/${ticket.id}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.admin.id } });
  return ticket.id;
}

/** Our message in the ticket, as REST has it once the phone confirmed it: sent, no error. */
async function storedAsSent(ticketId: number, body: string) {
  return waitUntil(`${JSON.stringify(body)} stored as sent`, async () => {
    const page = await ok<{ messages: { body: string; fromMe: boolean; ack: number; error: string | null }[] }>(
      call,
      'GET',
      `/messages/${ticketId}`,
      { token: tenant.admin.token, query: { limit: '100' } },
    );
    const found = page.messages.find((m) => m.fromMe && m.body === body);
    return found && found.ack >= 1 && found.error === null ? found : undefined;
  });
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'characters');
  setup = await connectedConnection(call, sim, {
    token: tenant.admin.token,
    companyId: tenant.companyId,
    queues: ['Caracteres'],
    connection: { token: apiToken },
  });
  socket = await connectSocket(inject('wsUrl'), tenant.admin.token);
});

afterAll(() => socket?.close());

describe('message text with any character, over the whole path', () => {
  it('phone -> inbox: every text reaches the inbox, the ticket is created, and REST has it too', async () => {
    const number = phone();
    let ticketId = 0;
    for (const [name, text] of cases) {
      const event = await contactWrites(number, `${name}: ${text}`, 'Maria 🌸 مريم');
      ticketId = event.ticket.id;
      expect(event.contact.name).toBe('Maria 🌸 مريم');
    }
    const page = await ok<{ messages: { body: string; fromMe: boolean }[] }>(call, 'GET', `/messages/${ticketId}`, {
      token: tenant.admin.token,
    });
    for (const [name, text] of cases) expect(page.messages.map((m) => m.body)).toContain(arrives(`${name}: ${text}`));
  });

  it('inbox -> phone: a reply with each text answers 2xx, reaches the phone and is stored as sent', async () => {
    const number = phone();
    const ticketId = await openConversation(number);
    for (const [name, text] of cases) {
      const body = `reply ${name}: ${text}`;
      const res = await call('POST', `/messages/${ticketId}`, { token: tenant.admin.token, body: { body } });
      expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
      await phoneShows(number, arrives(body));
      await storedAsSent(ticketId, arrives(body));
    }
  });

  it('a quick reply with each text is kept as written and reaches the phone when sent', async () => {
    const number = phone();
    const ticketId = await openConversation(number);
    for (const [name, text] of cases) {
      const message = `quick ${name}: ${text}`;
      const shortcode = `q${name.toLowerCase()}${randomInt(1e6)}`;
      const created = await call('POST', '/quick-messages', { token: tenant.admin.token, body: { shortcode, message, geral: true } });
      expect(created.status, `${name}: ${created.text}`).toBeLessThan(300);
      const list = await ok<{ shortcode: string; message: string }[]>(call, 'GET', '/quick-messages/list', { token: tenant.admin.token });
      const quick = list.find((q) => q.shortcode === shortcode);
      // Kept as written (no queue on its way); a lone surrogate becomes U+FFFD only when it is sent.
      expect(quick?.message).toBe(message);
      // The web puts the quick reply's text in the input and sends it.
      const res = await call('POST', `/messages/${ticketId}`, { token: tenant.admin.token, body: { body: quick?.message } });
      expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
      await phoneShows(number, arrives(message));
    }
  });

  it('the external API sends each text to the phone', async () => {
    for (const [name, text] of cases) {
      const number = phone();
      const body = `api ${name}: ${text}`;
      const res = await call('POST', '/api/messages/send', { token: apiToken, body: { number, body } });
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      await phoneShows(number, arrives(body));
    }
  });

  it('a schedule with each text reaches the phone and turns ENVIADA', async () => {
    Object.assign(process.env, inject('env'));
    const job = await import('@conversa/functions/handlers/jobs/schedule-sends');
    const number = phone();
    const contact = await ok<{ id: number }>(call, 'POST', '/contacts', { token: tenant.admin.token, body: { name: 'Agenda ✨', number } });
    const made: { id: number; body: string }[] = [];
    for (const [name, text] of cases) {
      const body = `schedule ${name}: ${text}`;
      const schedule = await ok<Schedule>(call, 'POST', '/schedules', {
        token: tenant.admin.token,
        body: { body, contactId: contact.id, sendAt: new Date(Date.now() - 1000).toISOString() },
      });
      made.push({ id: schedule.id, body });
    }
    await job.handler();
    for (const { id, body } of made) {
      await phoneShows(number, arrives(body));
      await waitUntil(`schedule ${id} ENVIADA`, async () => {
        const schedule = await ok<Schedule>(call, 'GET', `/schedules/${id}`, { token: tenant.admin.token });
        return schedule.status === 'ENVIADA';
      });
    }
  });
});
