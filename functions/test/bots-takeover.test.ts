/**
 * A queue's AI prompt or integration taking over (issue 13) through the inbound pipeline and the
 * bot-turns consumer's turn, on DynamoDB Local with the provider clients recorded: the ticket is
 * taken (no menu, no options), each contact message queues one turn, the answer is stored as the
 * bot's and sent once even when the turn is delivered twice, an attendant who accepts stops it, a
 * provider failure hands back with a note, and a resolve lets the next cycle take over again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../src/adapters/provider-error.ts';
import type { BotClients } from '../src/domain/bots/clients.ts';
import { setBotTurnSender } from '../src/domain/bots/queue.ts';
import { type BotTurnDeps, runBotTurn } from '../src/domain/bots/turn.ts';
import type { BotTurnMessage } from '../src/domain/bots/turn-message.ts';
import { listThreadEvents } from '../src/domain/tickets/thread-events.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { listMessagesPage } from '../src/storage/messages/messages.ts';
import { listTicketNotes } from '../src/storage/tickets/notes.ts';
import { getSlot, getTicket, updateTicketState } from '../src/storage/tickets/tickets.ts';
import { putQueueBot, savePrompt } from './bots-harness.ts';
import { deliver, option, type Recorder, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
const queued: BotTurnMessage[] = [];
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
  process.env.SECRETS_KEY ??= Buffer.alloc(32, 7).toString('base64');
  setBotTurnSender(async (turn) => {
    queued.push(turn);
  });
}, 60_000);
afterEach(() => {
  queued.length = 0;
});
afterAll(async () => {
  setBotTurnSender(undefined);
  await ddb?.stop();
});

const NUMBER = '5511955554444';

function deps(effects: Recorder, clients: Partial<BotClients> = {}): BotTurnDeps & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    effects,
    sleep: async () => {},
    clients: {
      chatCompletion: async (o) => {
        const text = String(o.messages.at(-1)?.content);
        asked.push(text);
        return `Resposta: ${text}`;
      },
      transcribeAudio: async () => '',
      transcriptionConfigured: () => false,
      startTypebotChat: async () => ({ sessionId: 's', bubbles: [], ended: true }),
      continueTypebotChat: async () => ({ sessionId: 's', bubbles: [], ended: true }),
      postToWebhook: async () => ({ replies: [], handBack: false }),
      detectIntent: async () => ({ replies: [], endConversation: false }),
      openSecret: async () => 'sk-test',
      readMedia: async () => new Uint8Array(),
      ...clients,
    },
  };
}

async function setupPromptQueue() {
  const { companyId, connectionId, queues } = await tenant({}, [{ name: 'Assistente', greetingMessage: 'Bem-vindo' }, { name: 'Humanos' }]);
  const bot = queues[0]!;
  const prompt = await savePrompt(companyId, { queueId: queues[1]!.id });
  await putQueueBot(companyId, bot.id, { promptId: prompt.id });
  // Options on the queue: the prompt takes the conversation instead.
  await option(companyId, bot.id, null, '1', 'Vendas', 'Vendas aqui');
  return { companyId, connectionId, bot, human: queues[1]!, prompt };
}

async function ticketNow(companyId: number, connectionId: number) {
  const contact = await getContactByNumber(companyId, NUMBER);
  const slot = await getSlot(companyId, contact!.id, connectionId);
  return (await getTicket(companyId, slot!.ticketId))!;
}

describe('a prompt taking over a queue', () => {
  it('takes the ticket at the menu choice, queues one turn per message, and answers once as the bot', async () => {
    const { companyId, connectionId, bot, prompt } = await setupPromptQueue();
    const effects = recorder();
    const say = (body: string) =>
      deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: NUMBER, body }) });
    await say('oi');
    expect(effects.sent()).toEqual([expect.stringContaining('*[ 1 ]* - Assistente')]);
    await say('1');
    // The queue's greeting, and no options list: the prompt has the conversation now.
    expect(effects.sent().slice(1)).toEqual(['Bem-vindo']);
    const ticket = await ticketNow(companyId, connectionId);
    expect(ticket).toMatchObject({ queueId: bot.id, useIntegration: true, promptId: prompt.id, integrationId: null, chatbot: false });
    expect(queued).toHaveLength(1);

    await say('qual o preço?');
    expect(queued).toHaveLength(2);
    const turn = queued[1]!;
    const d = deps(effects);
    expect(await runBotTurn(turn, d)).toBe('answered');
    // Delivered again (SQS at least once): nothing asked, stored or sent twice.
    expect(await runBotTurn(turn, d)).toBe('resent');
    expect(d.asked).toEqual(['qual o preço?']);
    // The redelivery sends the still-pending answer again under the same id: the host sends an id once.
    const answers = effects.commands.filter((c) => c.kind === 'send' && c.body.startsWith('Resposta:'));
    expect(new Set(answers.map((c) => (c.kind === 'send' ? `${c.messageId}:${c.body}` : '')))).toEqual(
      new Set([`${answers[0]?.kind === 'send' ? answers[0].messageId : ''}:Resposta: qual o preço?`]),
    );
    const stored = (await listMessagesPage(companyId, ticket.id, { limit: 20 })).messages.filter(
      (m) => m.bot && m.body.startsWith('Resposta'),
    );
    expect(stored).toHaveLength(1);
  });

  it('stops when an attendant accepts the ticket: queued turns are dropped, new messages queue none', async () => {
    const { companyId, connectionId } = await setupPromptQueue();
    const effects = recorder();
    const say = (body: string) =>
      deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: NUMBER, body }) });
    await say('oi');
    await say('1');
    await say('olá?');
    const pending = queued.at(-1)!;
    const ticket = await ticketNow(companyId, connectionId);
    await updateTicketState(ticket, { status: 'open', userId: 1, useIntegration: false });
    expect(await runBotTurn(pending, deps(effects))).toBe('skipped');
    const before = queued.length;
    await say('ainda aí?');
    expect(queued).toHaveLength(before);
  });

  it('hands back to the attendants with a note on a provider failure, keeping the message', async () => {
    const { companyId, connectionId, bot } = await setupPromptQueue();
    const effects = recorder();
    const say = (body: string) =>
      deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: NUMBER, body }) });
    await say('oi');
    await say('1');
    const failing = deps(effects, {
      chatCompletion: async () => {
        throw new ProviderError('openai', 429, 'rate limited');
      },
    });
    expect(await runBotTurn(queued.at(-1)!, failing)).toBe('failed');
    const ticket = await ticketNow(companyId, connectionId);
    expect(ticket).toMatchObject({ status: 'pending', queueId: bot.id, useIntegration: false, userId: null });
    const notes = await listTicketNotes(companyId, ticket.id);
    expect(notes.map((n) => n.note)).toEqual([expect.stringContaining('openai 429')]);
    // The conversation says so too (issue 25 item 6): the bot failed, why, and where the ticket is.
    expect(await listThreadEvents(companyId, ticket.id)).toEqual([
      expect.objectContaining({
        kind: 'botFailed',
        detail: 'openai 429',
        actor: null,
        status: 'pending',
        queue: { id: bot.id, name: bot.name },
      }),
    ]);
    expect((await listMessagesPage(companyId, ticket.id, { limit: 20 })).messages.map((m) => m.body)).toContain('1');
    // Handed back for this cycle: the next message is the attendants'.
    const before = queued.length;
    await say('alô');
    expect(queued).toHaveLength(before);
  });

  it("moves the ticket to the prompt's queue on the transfer marker", async () => {
    const { companyId, connectionId, human } = await setupPromptQueue();
    const effects = recorder();
    const say = (body: string) =>
      deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: NUMBER, body }) });
    await say('oi');
    await say('1');
    const transfer = deps(effects, { chatCompletion: async () => 'Ação: Transferir para o setor de atendimento' });
    expect(await runBotTurn(queued.at(-1)!, transfer)).toBe('handedBack');
    const ticket = await ticketNow(companyId, connectionId);
    expect(ticket).toMatchObject({ queueId: human.id, status: 'pending', useIntegration: false });
    expect(await listThreadEvents(companyId, ticket.id)).toEqual([
      expect.objectContaining({ kind: 'botHandedBack', actor: null, queue: { id: human.id, name: human.name } }),
    ]);
  });
});
