/**
 * The OpenAI and Typebot clients (functions/src/adapters) against the fakes `npm start` runs
 * (infra/local/bot-fakes), started here on a free port: what they send, what they make of the
 * answers, and that every failure (401, 429, timeout, unreachable host, unreadable body, expired
 * session) is a ProviderError with a status, never a raw TypeError.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BotFakes, startBotFakes, TRANSFER_ANSWER, TYPEBOT_SLUG } from '../../infra/local/bot-fakes/server.ts';
import { chatCompletion, transcribeAudio, transcriptionConfigured } from '../src/adapters/openai.ts';
import { ProviderError } from '../src/adapters/provider-error.ts';
import { continueTypebotChat, startTypebotChat } from '../src/adapters/typebot.ts';

const ENV = ['OPENAI_BASE_URL', 'OPENAI_MODEL', 'TRANSCRIPTION_BASE_URL', 'ALLOW_PRIVATE_BOT_URLS'] as const;
const savedEnv = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
let fakes: BotFakes;

beforeAll(async () => {
  fakes = await startBotFakes();
  // The fakes listen on 127.0.0.1, as in the local stack.
  process.env.ALLOW_PRIVATE_BOT_URLS = '1';
  delete process.env.OPENAI_MODEL;
  delete process.env.TRANSCRIPTION_BASE_URL;
});
afterEach(() => {
  process.env.OPENAI_BASE_URL = fakes.openAiBaseUrl;
  delete process.env.OPENAI_MODEL;
  delete process.env.TRANSCRIPTION_BASE_URL;
});
afterAll(async () => {
  for (const name of ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await fakes.close();
});

/** The ProviderError a call rejects with (the test fails if it resolves or throws anything else). */
async function providerError(call: Promise<unknown>): Promise<ProviderError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const chat = (apiKey: string, text: string, timeoutMs?: number) =>
  chatCompletion({ apiKey, messages: [{ role: 'user', content: text }], maxTokens: 100, temperature: 0.5, timeoutMs });

describe('chatCompletion', () => {
  beforeAll(() => {
    process.env.OPENAI_BASE_URL = fakes.openAiBaseUrl;
  });

  it('sends the model, the turns, max_tokens and temperature with the key, and answers the model text', async () => {
    const messages = [
      { role: 'system' as const, content: 'Você é o atendente da Pizzaria.' },
      { role: 'user' as const, content: 'Qual o horário?' },
      { role: 'assistant' as const, content: 'Das 18h às 23h.' },
      { role: 'user' as const, content: 'E no domingo?' },
    ];

    // Act
    const answer = await chatCompletion({ apiKey: 'sk-happy', messages, maxTokens: 321, temperature: 0.2 });

    // Assess
    expect(answer).toBe('Resposta: E no domingo?');
    const sent = (await (await fetch(`${fakes.url}/openai/requests?apiKey=sk-happy`)).json()) as {
      kind: string;
      body: Record<string, unknown>;
    }[];
    expect(sent).toEqual([
      expect.objectContaining({ kind: 'chat', body: { model: 'gpt-4o-mini', messages, max_tokens: 321, temperature: 0.2 } }),
    ]);
  });

  it('uses OPENAI_MODEL when set, and the fake answers the transfer phrase to #transferir', async () => {
    process.env.OPENAI_MODEL = 'modelo-local';

    // Act
    const answer = await chat('sk-model', 'quero falar com alguém #transferir');

    // Assess
    expect(answer.startsWith(TRANSFER_ANSWER)).toBe(true);
    const sent = (await (await fetch(`${fakes.url}/openai/requests?apiKey=sk-model`)).json()) as { body: { model: string } }[];
    expect(sent.map((r) => r.body.model)).toEqual(['modelo-local']);
  });

  it('reports a refused key as 401 and a rate limit as 429', async () => {
    // Act
    const [refused, limited] = await Promise.all([providerError(chat('sk-invalid', 'oi')), providerError(chat('sk-ratelimited', 'oi'))]);

    // Assess
    expect([refused.provider, refused.status]).toEqual(['openai', 401]);
    expect(refused.message).toContain('Incorrect API key');
    expect(refused.message).not.toContain('sk-invalid');
    expect([limited.provider, limited.status]).toEqual(['openai', 429]);
  });

  it('gives up after timeoutMs with status timeout', async () => {
    const started = Date.now();

    // Act
    const error = await providerError(chat('sk-slow', 'demora #lento', 300));

    // Assess
    expect(error.status).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports an unreachable host as network and an unreadable 200 as invalid', async () => {
    const garbage = await providerError(chat('sk-garbage', 'quebra #lixo'));
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:1/v1';

    // Act
    const unreachable = await providerError(chat('sk-any', 'oi'));

    // Assess
    expect(garbage.status).toBe('invalid');
    expect(unreachable.status).toBe('network');
  });
});

describe('transcribeAudio', () => {
  it('is configured only with TRANSCRIPTION_BASE_URL, and sends the file as multipart with whisper-1', async () => {
    expect(transcriptionConfigured()).toBe(false);
    process.env.TRANSCRIPTION_BASE_URL = fakes.openAiBaseUrl;
    expect(transcriptionConfigured()).toBe(true);

    // Act
    const text = await transcribeAudio({
      apiKey: 'sk-audio',
      audio: new TextEncoder().encode('Quero pedir uma pizza'),
      filename: 'voz.ogg',
      mimetype: 'audio/ogg',
    });

    // Assess
    expect(text).toBe('Quero pedir uma pizza');
    const sent = (await (await fetch(`${fakes.url}/openai/requests?apiKey=sk-audio`)).json()) as { kind: string; body: unknown }[];
    expect(sent).toEqual([
      expect.objectContaining({
        kind: 'transcription',
        body: { model: 'whisper-1', filename: 'voz.ogg', contentType: 'audio/ogg', size: 21 },
      }),
    ]);
  });

  it('refuses to transcribe without TRANSCRIPTION_BASE_URL, with a ProviderError', async () => {
    const error = await providerError(
      transcribeAudio({ apiKey: 'sk-audio', audio: new Uint8Array([1]), filename: 'a.ogg', mimetype: 'audio/ogg' }),
    );
    expect(error.status).toBe('invalid');
  });
});

describe('Typebot chat', () => {
  it('starts a flow with its bubbles flattened and waits, then continues it to its end', async () => {
    // Act
    const started = await startTypebotChat({ baseUrl: fakes.typebotBaseUrl, slug: TYPEBOT_SLUG, message: 'oi' });
    const answered = await continueTypebotChat({ baseUrl: fakes.typebotBaseUrl, sessionId: started.sessionId, message: 'quero pizza' });

    // Assess
    expect(started.sessionId).toMatch(/\S{8,}/);
    expect(started.bubbles).toEqual([
      'Olá! Eu sou o bot de teste.',
      'Veja as regras em example.com/regras',
      'Como posso ajudar?\nEscreva sua pergunta.',
    ]);
    expect(started.ended).toBe(false);
    expect(answered).toEqual({ sessionId: started.sessionId, bubbles: ['Você disse: quero pizza'], ended: true });
    const ended = await providerError(
      continueTypebotChat({ baseUrl: fakes.typebotBaseUrl, sessionId: started.sessionId, message: 'de novo' }),
    );
    expect(ended.status).toBe(404);
  });

  it('lists a buttons input as its choices, and takes the URL as tenants paste it (trailing slash, /api/v1)', async () => {
    // Act
    const started = await startTypebotChat({ baseUrl: `${fakes.typebotBaseUrl}/api/v1/`, slug: 'botoes' });
    const chosen = await continueTypebotChat({ baseUrl: `${fakes.typebotBaseUrl}/`, sessionId: started.sessionId, message: 'Suporte' });

    // Assess
    expect(started.bubbles).toEqual(['Com qual setor deseja falar?', 'Vendas\nSuporte']);
    expect(chosen.bubbles).toEqual(['Escolheu: Suporte']);
  });

  it('reports an expired session and an unknown bot as 404', async () => {
    const started = await startTypebotChat({ baseUrl: fakes.typebotBaseUrl, slug: TYPEBOT_SLUG });
    await fetch(`${fakes.typebotBaseUrl}/sessions/${started.sessionId}/expire`, { method: 'POST' });

    // Act
    const expired = await providerError(
      continueTypebotChat({ baseUrl: fakes.typebotBaseUrl, sessionId: started.sessionId, message: 'oi' }),
    );
    const unknown = await providerError(startTypebotChat({ baseUrl: fakes.typebotBaseUrl, slug: 'nao-existe' }));

    // Assess
    expect([expired.provider, expired.status]).toEqual(['typebot', 404]);
    expect(expired.message).toContain('expired');
    expect(unknown.status).toBe(404);
  });

  it('reports a timeout, an unreadable answer, a refusal and an unreachable host, each with its status', async () => {
    const session = async () => (await startTypebotChat({ baseUrl: fakes.typebotBaseUrl, slug: TYPEBOT_SLUG })).sessionId;
    const [slow, garbage, limited] = await Promise.all([session(), session(), session()]);

    // Act
    const errors = await Promise.all([
      providerError(continueTypebotChat({ baseUrl: fakes.typebotBaseUrl, sessionId: slow, message: '#lento', timeoutMs: 300 })),
      providerError(continueTypebotChat({ baseUrl: fakes.typebotBaseUrl, sessionId: garbage, message: '#lixo' })),
      providerError(continueTypebotChat({ baseUrl: fakes.typebotBaseUrl, sessionId: limited, message: '#limite' })),
      providerError(startTypebotChat({ baseUrl: 'http://127.0.0.1:1', slug: TYPEBOT_SLUG })),
      providerError(startTypebotChat({ baseUrl: 'not a url', slug: TYPEBOT_SLUG })),
    ]);

    // Assess
    expect(errors.map((e) => e.status)).toEqual(['timeout', 'invalid', 429, 'network', 'invalid']);
  });
});
