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
      // This stand-in listens on 127.0.0.1, which a tenant's token_uri may not name in AWS (adapters/provider-http.ts).
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
