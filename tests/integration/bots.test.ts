/**
 * AI prompts and integrations taking over a queue (issue 13 "Done means"), as the contact's phone
 * (the simulator's chat) and the inbox (REST, sockets) see it, against the local fakes of the
 * providers (infra/local/bot-fakes): the model's answer reaches the contact; the transfer marker
 * moves the ticket to the prompt's queue and the assistant stops; a provider failure hands the
 * ticket to the attendants with a note and loses nothing; a Typebot flow of three bubbles with its
 * restart keyword; a webhook's reply; an attendant who accepts stops the bot; another tenant's
 * socket sees none of it.
 *
 * Each scenario is a new contact (a new ticket): a ticket takes the queue's bot when it enters the
 * queue, so changing the queue's bot between scenarios changes only the next tickets.
 */
import { randomInt } from 'node:crypto';
import type { Ticket } from '@conversa/functions/contracts/tickets';
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
  sleep,
  waitUntil,
} from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let fakes: string;
let a: Tenant;
let b: Tenant;
let setup: ConnectionSetup;
let botQueue: number;
let humanQueue: number;
let promptId: number;
let bSocket: Socket;

const phone = () => `55419${randomInt(10_000_000, 99_999_999)}`;
const fromUs = async (number: string) => (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us').map((m) => m.body);

async function ticketOf(number: string): Promise<Ticket> {
  let found: Ticket | undefined;
  await waitUntil(`ticket of ${number}`, async () => {
    const list = await ok<{ tickets: Ticket[] }>(call, 'GET', '/tickets', {
      token: a.admin.token,
      query: { showAll: 'true', status: 'pending' },
    });
    found = list.tickets.find((t) => t.contact.number === number);
    return found !== undefined;
  });
  return ok<Ticket>(call, 'GET', `/tickets/${(found as Ticket).id}`, { token: a.admin.token });
}

async function repliesTo(number: string, count: number): Promise<string[]> {
  let got: string[] = [];
  await waitUntil(`${count} replies to ${number}`, async () => {
    got = await fromUs(number);
    return got.length >= count;
  });
  return got;
}

const useQueueBot = (body: { promptId?: number | null; integrationId?: number | null }) =>
  ok(call, 'PUT', `/queue/${botQueue}`, { token: a.admin.token, body: { promptId: null, integrationId: null, ...body } });

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  fakes = inject('botFakesUrl');
  const superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  [a, b] = await Promise.all([createTenant(call, superToken, planId, 'bots-a'), createTenant(call, superToken, planId, 'bots-b')]);
  // One queue on the connection: a contact's first message puts the ticket in it (no menu).
  setup = await connectedConnection(call, sim, { token: a.admin.token, companyId: a.companyId, queues: ['Assistente'], greeting: '' });
  botQueue = setup.queueIds[0] as number;
  humanQueue = (await ok<{ id: number }>(call, 'POST', '/queue', { token: a.admin.token, body: { name: 'Humanos', color: '#336699' } })).id;
  promptId = (
    await ok<{ id: number }>(call, 'POST', '/prompt', {
      token: a.admin.token,
      body: {
        name: 'Atendente virtual',
        prompt: 'Você é o atendente virtual da Loja Azul. Responda com gentileza e em poucas palavras.',
        queueId: humanQueue,
        apiKey: 'sk-local-teste-1234',
        maxTokens: 100,
        temperature: 1,
        maxMessages: 4,
        voice: 'texto',
      },
    })
  ).id;
  bSocket = await connectSocket(inject('wsUrl'), b.admin.token);
}, 90_000);

afterAll(() => bSocket?.close());

describe('AI prompts and integrations over the local stack', () => {
  it("answers the contact with the model's reply, stored as the bot's, with the prompt, history and limits sent", async () => {
    await useQueueBot({ promptId });
    const number = phone();
    await sim.send(setup.simId, number, 'Olá, qual o horário de hoje?');
    expect(await repliesTo(number, 1)).toEqual(['Resposta: Olá, qual o horário de hoje?']);
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ status: 'pending', queueId: botQueue, useIntegration: true, promptId, userId: null });
    const messages = await ok<{ messages: { body: string; fromMe: boolean; bot: boolean }[] }>(call, 'GET', `/messages/${ticket.id}`, {
      token: a.admin.token,
    });
    expect(messages.messages.filter((m) => m.fromMe).map((m) => ({ body: m.body, bot: m.bot }))).toEqual([
      { body: 'Resposta: Olá, qual o horário de hoje?', bot: true },
    ]);
    // Four more messages: the model sees the prompt and at most maxMessages (4) of the conversation.
    for (const [i, text] of ['dois', 'três', 'quatro'].entries()) {
      await sim.send(setup.simId, number, text);
      await repliesTo(number, i + 2);
    }
    const asked = (await (await fetch(`${fakes}/openai/requests?apiKey=sk-local-teste-1234`)).json()) as {
      kind: string;
      body: { messages: { role: string; content: string }[]; max_tokens: number };
    }[];
    const last = asked.filter((request) => request.kind === 'chat').at(-1)?.body;
    expect(last?.messages[0]).toMatchObject({ role: 'system' });
    expect(last?.messages[0]?.content).toContain('Loja Azul');
    expect(last?.messages.slice(1)).toHaveLength(4);
    expect(last?.messages.at(-1)).toEqual({ role: 'user', content: 'quatro' });
    expect(last?.max_tokens).toBe(100);
  });

  it("hands the ticket to its queue's attendants on the transfer marker; the assistant says nothing more", async () => {
    // The prompt was created naming the human queue; using it on the bot queue moves that one link
    // (issue 25 item 4): the prompt's queue is now the queue it answers for, and the transfer hands
    // the ticket to that queue's attendants.
    await useQueueBot({ promptId });
    const prompt = await ok<{ queueId: number }>(call, 'GET', `/prompt/${promptId}`, { token: a.admin.token });
    expect(prompt.queueId).toBe(botQueue);
    const number = phone();
    await sim.send(setup.simId, number, 'oi');
    await repliesTo(number, 1);
    await sim.send(setup.simId, number, 'quero um humano #transferir');
    await waitUntil('ticket handed to the attendants', async () => (await ticketOf(number)).useIntegration === false);
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ status: 'pending', queueId: botQueue, useIntegration: false, userId: null });
    const before = (await fromUs(number)).length;
    await sim.send(setup.simId, number, 'alguém aí?');
    await sleep(2500);
    expect((await fromUs(number)).length).toBe(before);
  });

  it('hands the ticket to the attendants with a note when the provider refuses (429), and keeps the message', async () => {
    const failing = await ok<{ id: number }>(call, 'POST', '/prompt', {
      token: a.admin.token,
      body: {
        name: 'Sem cota',
        prompt: 'Você é um assistente que responde dúvidas sobre pedidos da Loja Azul.',
        queueId: humanQueue,
        apiKey: 'sk-ratelimited',
      },
    });
    await useQueueBot({ promptId: failing.id });
    const number = phone();
    await sim.send(setup.simId, number, 'meu pedido não chegou');
    let ticket = await ticketOf(number);
    await waitUntil('the bot lets go', async () => {
      ticket = await ticketOf(number);
      return !ticket.useIntegration;
    });
    expect(ticket).toMatchObject({ status: 'pending', queueId: botQueue, userId: null, promptId: failing.id });
    const notes = await ok<{ note: string }[]>(call, 'GET', '/ticket-notes/list', {
      token: a.admin.token,
      query: { ticketId: String(ticket.id), contactId: String(ticket.contactId) },
    });
    expect(notes.map((n) => n.note).join(' ')).toMatch(/429/);
    const messages = await ok<{ messages: { body: string; fromMe: boolean }[] }>(call, 'GET', `/messages/${ticket.id}`, {
      token: a.admin.token,
    });
    expect(messages.messages.map((m) => m.body)).toEqual(['meu pedido não chegou']);
    expect(await fromUs(number)).toEqual([]);
  });

  it('runs a Typebot flow: three bubbles in order, the restart keyword starts over, the end hands back', async () => {
    const typebot = await ok<{ id: number }>(call, 'POST', '/queueIntegration', {
      token: a.admin.token,
      body: {
        type: 'typebot',
        name: 'Fluxo de boas-vindas',
        urlN8N: `${fakes}/typebot`,
        typebotSlug: 'tres-bolhas',
        typebotDelayMessage: 300,
        typebotExpires: 10,
        typebotKeywordRestart: 'reiniciar',
        typebotRestartMessage: 'Recomeçando…',
        typebotKeywordFinish: 'sair',
        typebotUnknownMessage: 'Não entendi',
      },
    });
    await useQueueBot({ integrationId: typebot.id });
    const number = phone();
    await sim.send(setup.simId, number, 'oi');
    const first = await repliesTo(number, 3);
    expect(first).toHaveLength(3);
    await sim.send(setup.simId, number, 'reiniciar');
    const again = await repliesTo(number, 7);
    expect(again.slice(3)).toEqual(['Recomeçando…', ...first]);
    await sim.send(setup.simId, number, 'Maria');
    expect((await repliesTo(number, 8)).at(-1)).toBe('Você disse: Maria');
    await waitUntil('the flow ended', async () => !(await ticketOf(number)).useIntegration);
    expect(await ticketOf(number)).toMatchObject({ integrationId: typebot.id, status: 'pending', userId: null });
  });

  it("sends a webhook integration's reply, signed, and stops when an attendant accepts the ticket", async () => {
    const webhook = await ok<{ id: number }>(call, 'POST', '/queueIntegration', {
      token: a.admin.token,
      body: { type: 'webhook', name: 'Pedidos', urlN8N: `${fakes}/webhook/echo` },
    });
    await useQueueBot({ integrationId: webhook.id });
    const number = phone();
    await sim.send(setup.simId, number, 'pedido 42');
    expect(await repliesTo(number, 1)).toEqual(['Eco: pedido 42']);
    const ticket = await ticketOf(number);
    await ok(call, 'PUT', `/tickets/${ticket.id}`, { token: a.admin.token, body: { status: 'open', userId: a.admin.id } });
    await sim.send(setup.simId, number, 'pedido 43');
    await sleep(2500);
    expect((await fromUs(number)).filter((body) => body.startsWith('Eco:'))).toEqual(['Eco: pedido 42']);
  });

  it("never shows tenant B a frame of A's bots", () => {
    const leaked = bSocket.frames.filter((frame) => JSON.stringify(frame).includes(setup.simId) || JSON.stringify(frame).includes('Eco:'));
    expect(leaked).toEqual([]);
    expect(bSocket.frames.filter((frame) => JSON.stringify(frame).includes(`"companyId":${a.companyId}`))).toEqual([]);
  });
});
