/**
 * The webhook/n8n and Dialogflow clients (functions/src/adapters) against the fakes `npm start` runs
 * (infra/local/bot-fakes), started here on a free port: the webhook's signature as the receiver checks
 * it, the answers' shapes, Dialogflow's service-account token (a key pair generated here, the fake
 * verifying the RS256 assertion) reused across turns, the end of a conversation, and every failure as
 * a ProviderError with a status.
 */
import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotFakes, startBotFakes } from '../../infra/local/bot-fakes/server.ts';
import { postToWebhook } from '../src/adapters/bot-webhook.ts';
import { clearDialogflowTokens, detectIntent } from '../src/adapters/dialogflow.ts';
import { ProviderError } from '../src/adapters/provider-error.ts';
import { isNonPublicAddress } from '../src/adapters/tenant-url-guard.ts';

const ENV = ['DIALOGFLOW_BASE_URL', 'ALLOW_PRIVATE_BOT_URLS'] as const;
const savedEnv = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
let fakes: BotFakes;

beforeAll(async () => {
  fakes = await startBotFakes();
  process.env.DIALOGFLOW_BASE_URL = fakes.dialogflowBaseUrl;
  // The fakes listen on 127.0.0.1, as in the local stack.
  process.env.ALLOW_PRIVATE_BOT_URLS = '1';
});
afterAll(async () => {
  for (const name of ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await fakes.close();
});

async function providerError(call: Promise<unknown>): Promise<ProviderError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

interface LoggedWebhook {
  signature: string;
  timestamp: string;
  verified?: boolean;
  rawBody: string;
}

describe('postToWebhook', () => {
  const secret = randomBytes(24).toString('base64url');
  const payload = { ticketId: 7, contact: { number: '5511987654321' }, body: 'olá, tudo bem?' };

  it('signs the raw body with the secret, as the receiver verifies it, and takes its reply', async () => {
    // Act
    const answer = await postToWebhook({ url: `${fakes.webhookEchoUrl}?secret=${secret}`, secret, payload });

    // Assess
    expect(answer).toEqual({ replies: ['Eco: olá, tudo bem?'], handBack: false });
    const log = (await (await fetch(`${fakes.url}/webhook/requests`)).json()) as LoggedWebhook[];
    const received = log.at(-1)!;
    expect(received.verified).toBe(true);
    expect(JSON.parse(received.rawBody)).toEqual(payload);
    expect(received.signature).toBe(`sha256=${createHmac('sha256', secret).update(received.rawBody).digest('hex')}`);
    expect(Math.abs(Number(received.timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('is refused with 401 when signed with another secret', async () => {
    const error = await providerError(
      postToWebhook({ url: `${fakes.webhookEchoUrl}?secret=${secret}`, secret: 'not-the-secret', payload }),
    );
    expect([error.provider, error.status]).toEqual(['webhook', 401]);
  });

  it('reads a hand-back, a text/plain reply and an empty answer', async () => {
    // Act
    const [handBack, text, empty] = await Promise.all(
      ['handback', 'texto', 'vazio'].map((path) => postToWebhook({ url: `${fakes.url}/webhook/${path}`, secret, payload })),
    );

    // Assess
    expect(handBack).toEqual({ replies: ['Até logo'], handBack: true });
    expect(text).toEqual({ replies: ['Eco: olá, tudo bem?'], handBack: false });
    expect(empty).toEqual({ replies: [], handBack: false });
  });

  it('reports a timeout, an unreadable answer, a server error and an unreachable host, each with its status', async () => {
    const post = (body: string, url = fakes.webhookEchoUrl, timeoutMs?: number) =>
      providerError(postToWebhook({ url, secret, payload: { body }, timeoutMs }));

    // Act
    const errors = await Promise.all([
      post('#lento', fakes.webhookEchoUrl, 300),
      post('#lixo'),
      post('#falha'),
      post('oi', 'http://127.0.0.1:1/hook'),
      post('oi', 'ftp://example.com/hook'),
    ]);

    // Assess
    expect(errors.map((e) => e.status)).toEqual(['timeout', 'invalid', 500, 'network', 'invalid']);
  });
});

describe('detectIntent', () => {
  /** A service-account JSON as Google issues it, its token_uri at the fake, its public half registered there. */
  async function serviceAccount(projectId: string, tokenUri = `${fakes.dialogflowBaseUrl}/token`) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const clientEmail = `bot-${randomBytes(4).toString('hex')}@${projectId}.iam.gserviceaccount.com`;
    const registered = await fetch(`${fakes.dialogflowBaseUrl}/service-accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_email: clientEmail,
        public_key: publicKey.export({ type: 'spki', format: 'pem' }),
        project_id: projectId,
      }),
    });
    expect(registered.status).toBe(200);
    const json = {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      token_uri: tokenUri,
    };
    return { clientEmail, credentialsJson: JSON.stringify(json), json };
  }

  const ask = (credentialsJson: string, text: string, timeoutMs?: number) =>
    detectIntent({ credentialsJson, projectName: 'pizzaria-123', sessionId: 'ticket-42', text, language: 'pt-BR', timeoutMs });

  it('gets one token for two turns and answers the agent text responses', async () => {
    clearDialogflowTokens();
    const account = await serviceAccount('pizzaria-123');

    // Act
    const first = await ask(account.credentialsJson, 'oi');
    const second = await ask(account.credentialsJson, 'quero uma pizza');

    // Assess
    expect(first).toEqual({ replies: ['Dialogflow: oi'], endConversation: false });
    expect(second).toEqual({ replies: ['Dialogflow: quero uma pizza'], endConversation: false });
    const log = (await (
      await fetch(`${fakes.dialogflowBaseUrl}/requests?clientEmail=${encodeURIComponent(account.clientEmail)}`)
    ).json()) as {
      kind: string;
      project?: string;
      session?: string;
      languageCode?: string;
    }[];
    expect(log.map((r) => r.kind)).toEqual(['token', 'detectIntent', 'detectIntent']);
    expect(log[1]).toMatchObject({ project: 'pizzaria-123', session: 'ticket-42', languageCode: 'pt-BR' });
  });

  it('reports the end of the conversation, and reads text messages for the default platform before fulfillmentText', async () => {
    const { credentialsJson } = await serviceAccount('pizzaria-123');

    // Act
    const [bye, several, textOnly] = await Promise.all([
      ask(credentialsJson, 'tchau'),
      ask(credentialsJson, 'oi #varias'),
      ask(credentialsJson, 'oi #so-texto'),
    ]);

    // Assess
    expect(bye).toEqual({ replies: ['Dialogflow: tchau'], endConversation: true });
    expect(several).toEqual({ replies: ['Dialogflow: oi #varias', 'Segunda mensagem'], endConversation: false });
    expect(textOnly).toEqual({ replies: ['Dialogflow: oi #so-texto'], endConversation: false });
  });

  it('is refused a token when the key does not match the account, even after the account got one', async () => {
    const account = await serviceAccount('pizzaria-123');
    await ask(account.credentialsJson, 'oi');
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

    // Act
    const error = await providerError(ask(JSON.stringify({ ...account.json, private_key: otherKey }), 'oi'));

    // Assess
    expect([error.provider, error.status]).toEqual(['dialogflow', 400]);
    expect(error.message).toContain('Invalid JWT Signature');
  });

  it('reports a timeout, unreadable credentials or answer, another project and an unreachable token_uri, each with its status', async () => {
    const { credentialsJson } = await serviceAccount('pizzaria-123');
    const elsewhere = await serviceAccount('outro-projeto');
    const unreachable = await serviceAccount('pizzaria-123', 'http://127.0.0.1:1/token');

    // Act
    const errors = await Promise.all([
      providerError(ask(credentialsJson, 'demora #lento', 300)),
      providerError(ask(credentialsJson, '#lixo')),
      providerError(ask('{"client_email": "x@y"', 'oi')),
      providerError(ask(JSON.stringify({ client_email: 'x@y', private_key: 'not a key' }), 'oi')),
      providerError(ask(elsewhere.credentialsJson, 'oi')),
      providerError(ask(unreachable.credentialsJson, 'oi')),
    ]);

    // Assess
    expect(errors.map((e) => e.status)).toEqual(['timeout', 'invalid', 'invalid', 'invalid', 403, 'network']);
  });
});

describe("a tenant's URL in AWS", () => {
  it('may not name a loopback, private or link-local address, by number or by name, and nothing is sent', async () => {
    delete process.env.ALLOW_PRIVATE_BOT_URLS;
    const before = ((await (await fetch(`${fakes.url}/webhook/requests`)).json()) as unknown[]).length;

    // Act
    const errors = await Promise.all(
      [
        fakes.webhookEchoUrl,
        fakes.webhookEchoUrl.replace('127.0.0.1', 'localhost'),
        'http://169.254.169.254/latest',
        'http://[::1]:9001/x',
      ].map((url) => providerError(postToWebhook({ url, secret: 's', payload: { body: 'oi' } }))),
    );
    const dialogflow = await providerError(
      detectIntent({
        credentialsJson: JSON.stringify({
          client_email: 'a@b',
          private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          token_uri: `${fakes.dialogflowBaseUrl}/token`,
        }),
        projectName: 'p',
        sessionId: 's',
        text: 'oi',
        language: 'pt-BR',
      }),
    );
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';

    // Assess
    expect(errors.map((e) => [e.status, e.message])).toEqual(
      Array(4).fill(['invalid', 'webhook: the URL points at a local or private network address']),
    );
    expect([dialogflow.status, dialogflow.message]).toEqual([
      'invalid',
      'dialogflow: the URL points at a local or private network address',
    ]);
    expect(((await (await fetch(`${fakes.url}/webhook/requests`)).json()) as unknown[]).length).toBe(before);
  });

  it('tells public addresses from the rest', () => {
    const nonPublic = [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.10',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ];
    const isPublic = ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.4.4'];
    expect(nonPublic.filter((address) => !isNonPublicAddress(address))).toEqual([]);
    expect(isPublic.filter(isNonPublicAddress)).toEqual([]);
  });
});
