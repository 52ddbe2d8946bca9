/**
 * POST /queueIntegration/testSession over DynamoDB Local + cognito-local, against a stand-in for
 * Google's token endpoint and Dialogflow's detectIntent (issue 13): the agent's replies to 'Olá' with
 * the dialog's credentials or the stored ones; the provider's refusals and unreachable hosts are a 422
 * ERR_INTEGRATION_TEST_FAILED with the reason, never a 500; a provider that never answers does not hang.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialogflowSession } from '#domain/queue-integrations/test-session';
import { call, type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

let stack: Stack;
let a: Tenant;

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

type Body = Record<string, unknown>;
const create = (body: Body, token = a.admin.token) => call('POST /queueIntegration', { token, body });

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const serviceAccount = (overrides: Body = {}) =>
  JSON.stringify({
    type: 'service_account',
    client_email: 'bot@atendimento-1.iam.gserviceaccount.com',
    private_key: PRIVATE_KEY,
    token_uri: 'https://oauth2.googleapis.com/token',
    ...overrides,
  });

/**
 * A stand-in for Google's token endpoint and Dialogflow's detectIntent: a token for any assertion
 * signed by the test's key; project `recusa` answers 403 as Dialogflow does for a project the
 * account may not use; project `lento` never answers.
 */
let google: Server;
let googleUrl: string;
const startGoogle = () =>
  new Promise<void>((resolve) => {
    google = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        if (req.url === '/token') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ access_token: 'ya29.test', expires_in: 3600 }));
          return;
        }
        if (req.url?.includes('/projects/lento/')) return; // never answers
        if (req.url?.includes('/projects/recusa/')) {
          res.statusCode = 403;
          res.end(JSON.stringify({ error: { code: 403, message: 'IAM permission denied', status: 'PERMISSION_DENIED' } }));
          return;
        }
        const text = JSON.parse(body).queryInput.text.text;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ queryResult: { fulfillmentText: `Dialogflow: ${text}` } }));
      });
    }).listen(0, '127.0.0.1', () => {
      googleUrl = `http://127.0.0.1:${(google.address() as AddressInfo).port}`;
      process.env.DIALOGFLOW_BASE_URL = googleUrl;
      // This stand-in listens on 127.0.0.1, which a tenant's token_uri may not name in AWS (adapters/tenant-url-guard.ts).
      process.env.ALLOW_PRIVATE_BOT_URLS = '1';
      resolve();
    });
  });

beforeAll(async () => {
  await startGoogle();
  stack = await startStack();
  a = await seedTenant(stack);
}, 120_000);
afterAll(async () => {
  google?.closeAllConnections();
  google?.close();
  await stack?.stop();
});

describe('POST /queueIntegration/testSession', () => {
  const test = (body: Body, token = a.admin.token) => call('POST /queueIntegration/testSession', { token, body });
  const account = () => serviceAccount({ token_uri: `${googleUrl}/token` });

  it("answers Dialogflow's replies to 'Olá', with the given credentials or, while editing, the stored ones", async () => {
    const res = await test({ projectName: 'atendimento-1', jsonContent: account(), language: 'pt-BR' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, replies: ['Dialogflow: Olá'] });
    const made = await create({ type: 'dialogflow', name: 'Salvo', projectName: 'atendimento-1', jsonContent: account() });
    const stored = await test({ projectName: 'atendimento-1', id: made.body.id });
    expect(stored.body).toEqual({ ok: true, replies: ['Dialogflow: Olá'] });
    // Without credentials of either kind: the field is named.
    expect((await test({ projectName: 'atendimento-1' })).body).toMatchObject({ error: 'ERR_VALIDATION', field: 'jsonContent' });
    const webhook = await create({ type: 'webhook', name: 'Sem conta', urlN8N: 'https://h.example/w' });
    expect((await test({ projectName: 'x', id: webhook.body.id })).body).toMatchObject({ field: 'jsonContent' });
  });

  it("turns the provider's refusals into a 422 with its reason, never a 500", async () => {
    const refused = await test({ projectName: 'recusa', jsonContent: account(), language: 'en' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: 'ERR_INTEGRATION_TEST_FAILED', providerStatus: 403 });
    expect(refused.body.reason).toContain('dialogflow');
    // An unreachable token endpoint.
    const closed = serviceAccount({ token_uri: 'http://127.0.0.1:1/token' });
    const unreachable = await test({ projectName: 'atendimento-1', jsonContent: closed });
    expect(unreachable.status).toBe(422);
    expect(unreachable.body).toMatchObject({ error: 'ERR_INTEGRATION_TEST_FAILED', providerStatus: 'network' });
    expect(JSON.stringify([refused.body, unreachable.body])).not.toContain('PRIVATE KEY');
  });

  it('does not hang on a provider that never answers', async () => {
    const started = Date.now();
    const out = testDialogflowSession(a.companyId, { projectName: 'lento', jsonContent: account(), language: 'en' }, 800);
    await expect(out).rejects.toMatchObject({ code: 'ERR_INTEGRATION_TEST_FAILED', status: 422 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

/**
 * Issue 21: token_uri is a URL the tenant types, and the 422's reason echoes what the token endpoint
 * said. An internal service on 127.0.0.1 stands for what a Lambda's network holds: it answers a
 * secret in the OAuth error field the reason quotes.
 */
describe('POST /queueIntegration/testSession with a token_uri on our own network', () => {
  const SECRET = 'segredo-interno-7d31';
  const test = (body: Body) => call('POST /queueIntegration/testSession', { token: a.admin.token, body });
  let internal: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    internal = createServer((req, res) => {
      hits++;
      req.resume();
      res.statusCode = 400;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: `${SECRET} ${'x'.repeat(5000)}` }));
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    port = (internal.address() as AddressInfo).port;
  });
  afterAll(() => {
    internal.closeAllConnections();
    internal.close();
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
  });

  it('refuses every spelling of an internal address without sending a byte, so neither the answer nor open ports show', async () => {
    delete process.env.ALLOW_PRIVATE_BOT_URLS;
    const tokenUris = [
      `http://[::ffff:127.0.0.1]:${port}/token`,
      `http://[::ffff:7f00:1]:${port}/token`,
      'http://[::ffff:7f00:1]:1/token', // a closed port: before, 'network' (refused) told it from an open one
      'http://[::ffff:169.254.169.254]/computeMetadata/v1/token',
      `http://[::127.0.0.1]:${port}/token`,
      `http://[2002:7f00:1::]:${port}/token`,
      `http://[64:ff9b::7f00:1]:${port}/token`,
      `http://0x7f.1:${port}/token`,
      `http://2130706433:${port}/token`,
      `http://localhost:${port}/token`,
    ];

    const answers = await Promise.all(tokenUris.map((token_uri) => test({ projectName: 'p', jsonContent: serviceAccount({ token_uri }) })));

    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'ERR_INTEGRATION_TEST_FAILED',
        reason: 'dialogflow: the URL points at a local or private network address',
        providerStatus: 'invalid',
      });
    }
    expect(JSON.stringify(answers.map((res) => res.body))).not.toContain(SECRET);
    expect(hits).toBe(0);
  });

  it("quotes only a short part of a token endpoint's refusal", async () => {
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const res = await test({ projectName: 'p', jsonContent: serviceAccount({ token_uri: `http://127.0.0.1:${port}/token` }) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'ERR_INTEGRATION_TEST_FAILED', providerStatus: 400 });
    expect(res.body.reason).toMatch(/^dialogflow: HTTP 400: segredo-interno-7d31 x+/);
    expect(res.body.reason.length).toBeLessThanOrEqual(140);
  });
});
