/**
 * What a prompt or an integration answers to one contact message (domain/bots/answers.ts), with the
 * provider clients recorded: what the model is asked (system prompt, the last maxMessages, limits),
 * the transfer marker, audio without transcription, and Typebot's keywords, expiry and end.
 */
import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../src/adapters/openai.ts';
import { AUDIO_FALLBACK, integrationAnswer, promptAnswer, TRANSFER_MARKER } from '../src/domain/bots/answers.ts';
import type { BotClients } from '../src/domain/bots/clients.ts';
import type { MessageRecord } from '../src/storage/messages/messages.ts';
import type { PromptRecord } from '../src/storage/prompts.ts';
import type { QueueIntegrationRecord } from '../src/storage/queue-integrations.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';

const now = new Date('2026-11-26T12:00:00Z');
const ticket = {
  companyId: 7,
  id: 3,
  uuid: 'u',
  status: 'pending',
  queueId: 2,
  userId: null,
  useIntegration: true,
} as unknown as TicketRecord;
const message = (id: string, body: string, fromMe = false, extra: Partial<MessageRecord> = {}) =>
  ({ id, body, fromMe, mediaType: null, isDeleted: false, createdAt: now.toISOString(), ...extra }) as MessageRecord;
const prompt = {
  prompt: 'Você é a Loja Azul.',
  apiKeySealed: 'sealed',
  maxMessages: 3,
  maxTokens: 80,
  temperature: 0.5,
  voice: 'texto',
  queueId: 9,
} as PromptRecord;

function clients(overrides: Partial<BotClients> = {}): BotClients & { asked: ChatTurn[][]; typebot: string[] } {
  const asked: ChatTurn[][] = [];
  const typebot: string[] = [];
  return {
    asked,
    typebot,
    chatCompletion: async (o) => {
      asked.push(o.messages);
      return `Resposta: ${o.messages.at(-1)?.content}`;
    },
    transcribeAudio: async () => 'transcrito',
    transcriptionConfigured: () => false,
    startTypebotChat: async (o) => {
      typebot.push(`start:${o.message}`);
      return { sessionId: 's1', bubbles: ['b1', 'b2', 'b3'], ended: false };
    },
    continueTypebotChat: async (o) => {
      typebot.push(`continue:${o.sessionId}:${o.message}`);
      return { sessionId: o.sessionId, bubbles: o.message === '?' ? [] : [`Você disse: ${o.message}`], ended: o.message === 'fim' };
    },
    postToWebhook: async () => ({ replies: ['ok'], handBack: true }),
    detectIntent: async (o) => ({ replies: [`df: ${o.text}`], endConversation: o.text === 'tchau' }),
    openSecret: async (sealed) => `open(${sealed})`,
    readMedia: async () => new Uint8Array([1]),
    ...overrides,
  };
}

describe('prompt answers', () => {
  it('asks with the prompt as the system message and the last maxMessages of the conversation, the new one last', async () => {
    const c = clients();
    const history = [message('1', 'um'), message('2', 'resposta', true), message('3', 'dois'), message('4', 'três')];
    const answer = await promptAnswer({ prompt, ticket, inbound: history[3] as MessageRecord, history, clients: c });
    expect(answer).toEqual({ replies: ['Resposta: três'], patch: {} });
    const asked = c.asked[0] as ChatTurn[];
    expect(asked[0]?.role).toBe('system');
    expect(asked[0]?.content).toContain('Você é a Loja Azul.');
    expect(asked[0]?.content).toContain(TRANSFER_MARKER);
    expect(asked.slice(1)).toEqual([
      { role: 'assistant', content: 'resposta' },
      { role: 'user', content: 'dois' },
      { role: 'user', content: 'três' },
    ]);
  });

  it('never tells the model a private note of the attendants', async () => {
    const c = clients();
    const note = { ...message('2', 'cliente difícil, não dar desconto', true), isPrivate: true };
    const history = [message('1', 'um'), note, message('3', 'dois')];
    await promptAnswer({ prompt, ticket, inbound: history[2] as MessageRecord, history, clients: c });
    expect(JSON.stringify(c.asked[0])).not.toContain('desconto');
    expect((c.asked[0] as ChatTurn[]).slice(1)).toEqual([
      { role: 'user', content: 'um' },
      { role: 'user', content: 'dois' },
    ]);
  });

  it("moves the ticket to the prompt's queue on the transfer marker and sends what follows it", async () => {
    const c = clients({ chatCompletion: async () => `${TRANSFER_MARKER}. Um momento, por favor.` });
    const answer = await promptAnswer({ prompt, ticket, inbound: message('1', 'humano'), history: [message('1', 'humano')], clients: c });
    expect(answer).toEqual({
      replies: ['Um momento, por favor.'],
      patch: { useIntegration: false, status: 'pending', userId: null, queueId: 9 },
    });
  });

  it('answers an audio with the fallback text when the voice option is off or nothing transcribes', async () => {
    const audio = message('1', '', false, { mediaType: 'audio', mediaPath: '7/a.ogg' });
    const off = await promptAnswer({ prompt, ticket, inbound: audio, history: [audio], clients: clients() });
    expect(off.replies).toEqual([AUDIO_FALLBACK]);
    const noEndpoint = await promptAnswer({
      prompt: { ...prompt, voice: 'pt-BR-FranciscaNeural' },
      ticket,
      inbound: audio,
      history: [audio],
      clients: clients(),
    });
    expect(noEndpoint.replies).toEqual([AUDIO_FALLBACK]);
    const on = await promptAnswer({
      prompt: { ...prompt, voice: 'pt-BR-FranciscaNeural' },
      ticket,
      inbound: audio,
      history: [audio],
      clients: clients({ transcriptionConfigured: () => true }),
    });
    expect(on.replies).toEqual(['Resposta: transcrito']);
  });
});

describe('integration answers', () => {
  const typebot = {
    id: 5,
    type: 'typebot',
    urlN8N: 'http://typebot',
    typebotSlug: 'fluxo',
    typebotExpires: 1,
    typebotDelayMessage: 700,
    typebotKeywordFinish: 'sair',
    typebotKeywordRestart: 'reiniciar',
    typebotRestartMessage: 'Recomeçando',
    typebotUnknownMessage: 'Não entendi',
  } as QueueIntegrationRecord;
  const base = { integration: typebot, ticket, contact: { name: 'Ana', number: '5511' }, now, session: undefined };
  const live = { integrationId: 5, sessionId: 's1', lastAt: new Date(now.getTime() - 30_000).toISOString() };

  it('starts a Typebot chat, keeps its session, and pauses between bubbles', async () => {
    const c = clients();
    const answer = await integrationAnswer({ ...base, inbound: message('1', 'oi'), clients: c });
    expect(answer).toMatchObject({ replies: ['b1', 'b2', 'b3'], patch: {}, gapMs: 700, session: { sessionId: 's1', integrationId: 5 } });
    expect(c.typebot).toEqual(['start:oi']);
  });

  it('continues a live chat, starts over after typebotExpires minutes, and on the restart keyword with its message', async () => {
    const c = clients();
    await integrationAnswer({ ...base, session: live, inbound: message('2', 'Maria'), clients: c });
    const stale = { ...live, lastAt: new Date(now.getTime() - 61_000).toISOString() };
    await integrationAnswer({ ...base, session: stale, inbound: message('3', 'de novo'), clients: c });
    const restart = await integrationAnswer({ ...base, session: live, inbound: message('4', 'REINICIAR'), clients: c });
    expect(c.typebot).toEqual(['continue:s1:Maria', 'start:de novo', 'start:REINICIAR']);
    expect(restart.replies).toEqual(['Recomeçando', 'b1', 'b2', 'b3']);
  });

  it('hands back on the finish keyword and at the end of the flow; an empty answer gets the unknown text', async () => {
    const c = clients();
    expect(await integrationAnswer({ ...base, session: live, inbound: message('5', 'sair'), clients: c })).toEqual({
      replies: [],
      patch: { useIntegration: false },
      session: null,
    });
    expect(await integrationAnswer({ ...base, session: live, inbound: message('6', 'fim'), clients: c })).toMatchObject({
      replies: ['Você disse: fim'],
      patch: { useIntegration: false },
      session: null,
    });
    expect((await integrationAnswer({ ...base, session: live, inbound: message('7', '?'), clients: c })).replies).toEqual(['Não entendi']);
    expect(c.typebot).toEqual(['continue:s1:fim', 'continue:s1:?']);
  });

  it('a webhook hands back when it says so; Dialogflow when the conversation ends', async () => {
    const webhook = { ...typebot, type: 'webhook', signingSecretSealed: 'x' } as QueueIntegrationRecord;
    expect(await integrationAnswer({ ...base, integration: webhook, inbound: message('1', 'oi'), clients: clients() })).toEqual({
      replies: ['ok'],
      patch: { useIntegration: false },
    });
    const dialogflow = {
      ...typebot,
      type: 'dialogflow',
      jsonContentSealed: 'j',
      projectName: 'p',
      language: 'pt-BR',
    } as QueueIntegrationRecord;
    expect(await integrationAnswer({ ...base, integration: dialogflow, inbound: message('1', 'oi'), clients: clients() })).toEqual({
      replies: ['df: oi'],
      patch: {},
    });
    expect(
      (await integrationAnswer({ ...base, integration: dialogflow, inbound: message('1', 'tchau'), clients: clients() })).patch,
    ).toEqual({
      useIntegration: false,
    });
  });
});
