/**
 * Queue integrations over DynamoDB Local + cognito-local (SPEC 3, 5, 7, 9; issue 13): validation per
 * type, defaults, credentials sealed and never returned, the n8n/webhook signing secret, search and
 * pages, delete refused while a queue or connection points at it, a queue's or connection's
 * integrationId limited to the company's own, and the attacks: another tenant, a plain user, a
 * forged token, a plan without useIntegrations, garbage in every field and query parameter.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrompt, newPromptId } from '#storage/prompts';
import { getQueueIntegration, updateQueueIntegration } from '#storage/queue-integrations';
import { createConnection } from './messages-harness.ts';
import { call, type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

let stack: Stack;
let a: Tenant;
let b: Tenant;
let plainUser: { id: number; token: string };

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

beforeAll(async () => {
  stack = await startStack();
  [a, b] = await Promise.all([seedTenant(stack), seedTenant(stack)]);
  plainUser = await a.addUser('user');
}, 120_000);
afterAll(async () => stack?.stop());

type Body = Record<string, unknown>;
const create = (body: Body, token = a.admin.token) => call('POST /queueIntegration', { token, body });

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const serviceAccount = (overrides: Body = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'atendimento-1',
    client_email: 'bot@atendimento-1.iam.gserviceaccount.com',
    private_key: PRIVATE_KEY,
    token_uri: 'https://oauth2.googleapis.com/token',
    ...overrides,
  });

describe('queue integrations', () => {
  it('validates per type (SPEC 5) with defaults (SPEC 9); n8n, webhook and typebot take their name as project', async () => {
    expect((await create({ type: 'n8n', name: 'x', urlN8N: 'https://n8n.example/hook' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'name',
      message: 'Too Short!',
    });
    expect((await create({ type: 'n8n', name: 'y'.repeat(51), urlN8N: 'https://n8n.example/hook' })).body.field).toBe('name');
    expect((await create({ type: 'n8n' })).body).toMatchObject({ field: 'name', message: 'Required' });
    expect((await create({ type: 'n8n', name: 'Fluxo' })).body).toMatchObject({ field: 'urlN8N', message: 'Required' });
    expect((await create({ type: 'webhook', name: 'Hook', urlN8N: 'ftp://x.example/a' })).body).toMatchObject({ field: 'urlN8N' });
    expect((await create({ type: 'webhook', name: 'Hook', urlN8N: 'javascript:alert(1)' })).body).toMatchObject({ field: 'urlN8N' });
    expect((await create({ type: 'typebot', name: 'Bot', urlN8N: 'https://typebot.example' })).body).toMatchObject({
      field: 'typebotSlug',
      message: 'Required',
    });
    expect((await create({ type: 'typebot', name: 'Bot', urlN8N: 'https://typebot.example', typebotSlug: '../../admin' })).body.field).toBe(
      'typebotSlug',
    );
    expect((await create({ type: 'zapier', name: 'Zap', urlN8N: 'https://z.example' })).body.field).toBe('type');

    const typebot = await create({
      type: 'typebot',
      name: 'Boas-vindas',
      projectName: 'ignored',
      urlN8N: 'https://typebot.example',
      typebotSlug: 'tres-bolhas',
    });
    expect(typebot.status).toBe(201);
    expect(typebot.body).toMatchObject({
      type: 'typebot',
      name: 'Boas-vindas',
      projectName: 'Boas-vindas',
      typebotSlug: 'tres-bolhas',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
      language: 'pt-BR',
      jsonContentSet: false,
      signingSecret: '',
      companyId: a.companyId,
    });
    // Renaming keeps the project name in step.
    const renamed = await call('PUT /queueIntegration/{id}', {
      token: a.admin.token,
      params: { id: typebot.body.id },
      body: { name: 'Menu' },
    });
    expect(renamed.body).toMatchObject({ name: 'Menu', projectName: 'Menu', typebotSlug: 'tres-bolhas' });
    // A PUT that would leave the record incomplete is refused and changes nothing.
    const emptied = await call('PUT /queueIntegration/{id}', {
      token: a.admin.token,
      params: { id: typebot.body.id },
      body: { typebotSlug: '' },
    });
    expect(emptied.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'typebotSlug' });
    expect((await getQueueIntegration(a.companyId, typebot.body.id))?.typebotSlug).toBe('tres-bolhas');
  });

  it('saves an n8n, webhook or typebot integration whose name has spaces: its project name is the name (SPEC 5)', async () => {
    const extra: Record<string, Body> = {
      n8n: { urlN8N: 'https://n8n.example/vendas' },
      webhook: { urlN8N: 'https://hooks.example/vendas' },
      typebot: { urlN8N: 'https://typebot.example', typebotSlug: 'vendas' },
    };
    for (const type of ['n8n', 'webhook', 'typebot']) {
      const name = `Bot Vendas ${type}`;
      // The name goes as projectName too (the original web client sends it so), or not at all.
      const sent = await create({ type, name, projectName: name, ...extra[type] });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect(sent.body).toMatchObject({ type, name, projectName: name });
      const bare = await create({ type, name: `Outro Bot ${type}`, ...extra[type] });
      expect(bare.body).toMatchObject({ type, projectName: `Outro Bot ${type}` });
      const renamed = await call('PUT /queueIntegration/{id}', {
        token: a.admin.token,
        params: { id: sent.body.id },
        body: { type, name: `Bot Vendas Sul ${type}`, projectName: `Bot Vendas Sul ${type}`, ...extra[type] },
      });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(renamed.body).toMatchObject({ name: `Bot Vendas Sul ${type}`, projectName: `Bot Vendas Sul ${type}` });
      const listed = await call('GET /queueIntegration', { token: a.admin.token, query: { searchParam: `bot vendas sul ${type}` } });
      expect(listed.body.queueIntegrations.map((i: Body) => i.id)).toEqual([sent.body.id]);
    }
    // Dialogflow's project name is a Google Cloud project id, in the provider's URL: still a path segment.
    const dialogflow = await create({ type: 'dialogflow', name: 'Bot Vendas', projectName: 'Bot Vendas', jsonContent: serviceAccount() });
    expect(dialogflow.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'projectName', message: 'Invalid project name' });
    const test = await call('POST /queueIntegration/testSession', {
      token: a.admin.token,
      body: { projectName: 'Bot Vendas', jsonContent: serviceAccount() },
    });
    expect(test.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'projectName' });
  });

  it('keeps Dialogflow credentials sealed: checked on the way in, never returned', async () => {
    const base = { type: 'dialogflow', name: 'Agente', projectName: 'atendimento-1', language: 'en' };
    expect((await create(base)).body).toMatchObject({ field: 'jsonContent', message: 'Required' });
    expect((await create({ ...base, jsonContent: '{not json' })).body).toMatchObject({ field: 'jsonContent' });
    expect((await create({ ...base, jsonContent: serviceAccount({ private_key: 'PRIVATE KEY garbage' }) })).body.field).toBe('jsonContent');
    expect((await create({ ...base, jsonContent: serviceAccount({ token_uri: 'file:///etc/passwd' }) })).body.field).toBe('jsonContent');
    expect((await create({ ...base, jsonContent: serviceAccount({ client_email: 42 }) })).body.field).toBe('jsonContent');
    expect((await create({ ...base, language: 'fr', jsonContent: serviceAccount() })).body.field).toBe('language');
    expect((await create({ ...base, projectName: 'a/b?c', jsonContent: serviceAccount() })).body.field).toBe('projectName');
    expect((await create({ ...base, projectName: '', jsonContent: serviceAccount() })).body).toMatchObject({ field: 'projectName' });

    const made = await create({ ...base, jsonContent: serviceAccount() });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ projectName: 'atendimento-1', language: 'en', jsonContentSet: true, signingSecret: '' });
    const everything = JSON.stringify([made.body, (await call('GET /queueIntegration', { token: a.admin.token })).body]);
    expect(everything).not.toContain('PRIVATE KEY');
    expect(everything).not.toContain('jsonContentSealed');
    const stored = await getQueueIntegration(a.companyId, made.body.id);
    expect(stored?.jsonContentSealed).toMatch(/^v1:/);
    expect(stored?.jsonContentSealed).not.toContain('PRIVATE');

    // An edit without jsonContent keeps the stored account; a new one replaces it.
    const id = made.body.id;
    const kept = await call('PUT /queueIntegration/{id}', {
      token: a.admin.token,
      params: { id },
      body: { language: 'es', jsonContent: '' },
    });
    expect(kept.body).toMatchObject({ language: 'es', jsonContentSet: true });
    expect((await getQueueIntegration(a.companyId, id))?.jsonContentSealed).toBe(stored?.jsonContentSealed);
    const bad = await call('PUT /queueIntegration/{id}', { token: a.admin.token, params: { id }, body: { jsonContent: '[]' } });
    expect(bad.body.field).toBe('jsonContent');
    // Turned into a webhook: the credentials go, a signing secret comes.
    const turned = await call('PUT /queueIntegration/{id}', {
      token: a.admin.token,
      params: { id },
      body: { type: 'webhook', urlN8N: 'https://hooks.example/in' },
    });
    expect(turned.body).toMatchObject({ type: 'webhook', jsonContentSet: false, projectName: 'Agente' });
    expect(turned.body.signingSecret).toMatch(/^whsec_/);
    expect((await getQueueIntegration(a.companyId, id))?.jsonContentSealed).toBe('');
  });

  it('refuses turning an integration into Dialogflow with a name that is no project name', async () => {
    const made = await create({ type: 'webhook', name: 'Meu hook/../x', urlN8N: 'https://h.example/m' });
    const turned = await call('PUT /queueIntegration/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { type: 'dialogflow', jsonContent: serviceAccount() },
    });
    expect(turned.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'projectName' });
    expect((await getQueueIntegration(a.companyId, made.body.id))?.type).toBe('webhook');
  });

  it('still answers when a stored secret was sealed under another key: the page loads, an edit makes a new key', async () => {
    const made = await create({ type: 'n8n', name: 'Chave perdida', urlN8N: 'https://h.example/k' });
    const df = await create({ type: 'dialogflow', name: 'Conta perdida', projectName: 'p1', jsonContent: serviceAccount() });
    const foreign = 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA';
    await updateQueueIntegration(a.companyId, made.body.id, { signingSecretSealed: foreign });
    await updateQueueIntegration(a.companyId, df.body.id, { jsonContentSealed: foreign });
    const read = await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id: made.body.id } });
    expect(read.status).toBe(200);
    expect(read.body.signingSecret).toBe('');
    expect((await call('GET /queueIntegration', { token: a.admin.token })).status).toBe(200);
    const edited = await call('PUT /queueIntegration/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { name: 'Chave nova' },
    });
    expect(edited.body.signingSecret).toMatch(/^whsec_/);
    const tested = await call('POST /queueIntegration/testSession', { token: a.admin.token, body: { projectName: 'p1', id: df.body.id } });
    expect(tested.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'jsonContent' });
  });

  it('gives n8n and webhook integrations a signing secret, sealed at rest and shown to the admins', async () => {
    const made = await create({ type: 'n8n', name: 'Fluxo n8n', urlN8N: 'http://n8n.local:5678/webhook/abc' });
    expect(made.status).toBe(201);
    const secret = made.body.signingSecret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = await getQueueIntegration(a.companyId, made.body.id);
    expect(stored?.signingSecretSealed).toMatch(/^v1:/);
    expect(stored?.signingSecretSealed).not.toContain(secret);
    const read = await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id: made.body.id } });
    expect(read.body.signingSecret).toBe(secret);
    // An edit keeps it (the other side has it configured).
    const edited = await call('PUT /queueIntegration/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { name: 'Fluxo 2' },
    });
    expect(edited.body.signingSecret).toBe(secret);
    const other = await create({ type: 'webhook', name: 'Outro', urlN8N: 'https://hooks.example/x' });
    expect(other.body.signingSecret).not.toBe(secret);
  });

  it('searches by name (accents and case ignored) and pages by 20', async () => {
    const lonely = await seedTenant(stack);
    for (let i = 0; i < 22; i++) {
      await create({ type: 'webhook', name: `Hook ${String(i).padStart(2, '0')}`, urlN8N: 'https://h.example/x' }, lonely.admin.token);
    }
    await create({ type: 'webhook', name: 'Integração Ágil', urlN8N: 'https://h.example/y' }, lonely.admin.token);
    const first = await call('GET /queueIntegration', { token: lonely.admin.token });
    expect(first.body.queueIntegrations).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await call('GET /queueIntegration', { token: lonely.admin.token, query: { pageNumber: '2' } });
    expect(second.body.queueIntegrations.map((i: Body) => i.name)).toEqual(['Hook 20', 'Hook 21', 'Integração Ágil']);
    expect(second.body.hasMore).toBe(false);
    const found = await call('GET /queueIntegration', { token: lonely.admin.token, query: { searchParam: 'integracao agil' } });
    expect(found.body.queueIntegrations.map((i: Body) => i.name)).toEqual(['Integração Ágil']);
  });

  it('refuses to delete an integration a queue or connection points at (409, naming them), then deletes it', async () => {
    const made = await create({ type: 'webhook', name: 'Em uso', urlN8N: 'https://h.example/z' });
    const id = made.body.id;
    const queue = await call('POST /queue', { token: a.admin.token, body: { name: 'Bot queue', color: '#112233', integrationId: id } });
    expect(queue.status).toBe(201);
    expect(queue.body.integrationId).toBe(id);
    const connection = await createConnection(a);
    expect(
      (await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: connection.id }, body: { integrationId: id } })).status,
    ).toBe(200);

    const refused = await call('DELETE /queueIntegration/{id}', { token: a.admin.token, params: { id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'ERR_INTEGRATION_IN_USE', queueIds: [queue.body.id], connectionIds: [connection.id] });
    expect((await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id } })).status).toBe(200);

    await call('PUT /queue/{id}', { token: a.admin.token, params: { id: queue.body.id }, body: { integrationId: null } });
    expect((await call('DELETE /queueIntegration/{id}', { token: a.admin.token, params: { id } })).body).toMatchObject({
      connectionIds: [connection.id],
      queueIds: [],
    });
    await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: connection.id }, body: { integrationId: null } });
    expect((await call('DELETE /queueIntegration/{id}', { token: a.admin.token, params: { id } })).status).toBe(204);
    expect((await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id } })).status).toBe(404);
  });

  it("lets a queue or connection point only at the company's own integration", async () => {
    const theirs = await create({ type: 'webhook', name: 'De B', urlN8N: 'https://h.example/b' }, b.admin.token);
    const mine = await create({ type: 'webhook', name: 'De A', urlN8N: 'https://h.example/a' });
    // B's ids count from 1 like A's: pick an id A does not have.
    const foreign = Math.max(theirs.body.id, mine.body.id) + 1000;
    const badQueue = await call('POST /queue', {
      token: a.admin.token,
      body: { name: 'Fila X', color: '#445566', integrationId: foreign },
    });
    expect(badQueue.status).toBe(400);
    expect(badQueue.body).toMatchObject({ error: 'ERR_NO_INTEGRATION_FOUND', field: 'integrationId' });
    const queue = await call('POST /queue', { token: a.admin.token, body: { name: 'Fila Y', color: '#445577' } });
    const put = await call('PUT /queue/{id}', { token: a.admin.token, params: { id: queue.body.id }, body: { integrationId: foreign } });
    expect(put.body.error).toBe('ERR_NO_INTEGRATION_FOUND');
    expect((await call('GET /queue/{id}', { token: a.admin.token, params: { id: queue.body.id } })).body.integrationId).toBeNull();
    const connection = await createConnection(a);
    const conn = await call('PUT /whatsapp/{id}', {
      token: a.admin.token,
      params: { id: connection.id },
      body: { integrationId: foreign },
    });
    expect(conn.body.error).toBe('ERR_NO_INTEGRATION_FOUND');
    const newConn = await call('POST /whatsapp', { token: a.admin.token, body: { name: 'Outra', integrationId: foreign } });
    expect(newConn.status).toBe(400);
    const ok = await call('PUT /queue/{id}', {
      token: a.admin.token,
      params: { id: queue.body.id },
      body: { integrationId: mine.body.id },
    });
    expect(ok.body.integrationId).toBe(mine.body.id);
  });

  it("lets a queue or connection name only the company's own AI prompt", async () => {
    const prompt = async (companyId: number) => {
      const at = new Date().toISOString();
      return createPrompt({
        companyId,
        id: await newPromptId(companyId),
        name: 'Assistente',
        prompt: 'Você é um assistente.',
        voice: 'texto',
        voiceKey: '',
        voiceRegion: '',
        maxTokens: 100,
        temperature: 1,
        maxMessages: 10,
        apiKeySealed: '',
        apiKeyHint: '',
        queueId: 0,
        createdAt: at,
        updatedAt: at,
      });
    };
    const mine = await prompt(a.companyId);
    const theirs = await prompt(b.companyId);
    const foreign = Math.max(mine.id, theirs.id) + 1000;
    const bad = await call('POST /queue', { token: a.admin.token, body: { name: 'Fila P', color: '#445588', promptId: foreign } });
    expect(bad.body).toMatchObject({ error: 'ERR_NO_PROMPT_FOUND', field: 'promptId' });
    const connection = await createConnection(a);
    const conn = await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: connection.id }, body: { promptId: foreign } });
    expect(conn.body).toMatchObject({ error: 'ERR_NO_PROMPT_FOUND', field: 'promptId' });
    const ok = await call('POST /queue', { token: a.admin.token, body: { name: 'Fila Q', color: '#445599', promptId: mine.id } });
    expect(ok.status).toBe(201);
    expect(ok.body.promptId).toBe(mine.id);
  });

  it('keeps tenants apart: another tenant gets 404 on every route with an id and sees none in its list', async () => {
    const mine = await create({ type: 'n8n', name: 'Privado', urlN8N: 'https://h.example/p' });
    const id = mine.body.id;
    const lonely = await seedTenant(stack);
    const token = lonely.admin.token;
    expect((await call('GET /queueIntegration/{id}', { token, params: { id } })).status).toBe(404);
    expect((await call('PUT /queueIntegration/{id}', { token, params: { id }, body: { name: 'Roubado' } })).status).toBe(404);
    expect((await call('DELETE /queueIntegration/{id}', { token, params: { id } })).status).toBe(404);
    expect((await call('POST /queueIntegration/testSession', { token, body: { projectName: 'p', id } })).status).toBe(404);
    expect((await call('GET /queueIntegration', { token })).body).toEqual({ queueIntegrations: [], hasMore: false });
    const after = await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id } });
    expect(after.body).toMatchObject({ name: 'Privado', signingSecret: mine.body.signingSecret });
  });

  it('is for admins of a plan with useIntegrations, with a valid token', async () => {
    const made = await create({ type: 'webhook', name: 'Acesso', urlN8N: 'https://h.example/acc' });
    const id = made.body.id;
    const routes: [string, { params?: Body; body?: Body }][] = [
      ['GET /queueIntegration', {}],
      ['GET /queueIntegration/{id}', { params: { id } }],
      ['POST /queueIntegration', { body: { type: 'webhook', name: 'Nova', urlN8N: 'https://h.example/n' } }],
      ['PUT /queueIntegration/{id}', { params: { id }, body: { name: 'Mudou' } }],
      ['DELETE /queueIntegration/{id}', { params: { id } }],
      ['POST /queueIntegration/testSession', { body: { projectName: 'p', jsonContent: serviceAccount(), language: 'en' } }],
    ];
    const withoutPlan = await seedTenant(stack, { plan: { useIntegrations: false } });
    const forged = `${a.admin.token.slice(0, -6)}AAAAAA`;
    for (const [key, options] of routes) {
      const opts = { ...options, params: options.params as Record<string, number> | undefined };
      expect((await call(key, { ...opts, token: plainUser.token })).status, key).toBe(403);
      const gated = await call(key, { ...opts, token: withoutPlan.admin.token });
      expect(gated.status, key).toBe(403);
      expect(gated.body, key).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useIntegrations' });
      expect((await call(key, opts)).status, key).toBe(401);
      expect((await call(key, { ...opts, token: forged })).status, key).toBe(401);
    }
    expect((await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id } })).body.name).toBe('Acesso');
  });

  it('answers garbage in every field and query parameter with a 4xx, never a 500 or a half-written record', {
    timeout: 90_000,
  }, async () => {
    const made = await create({ type: 'webhook', name: 'Alvo', urlN8N: 'https://h.example/alvo' });
    const id = made.body.id;
    const garbage: unknown[] = [null, -1, true, [], { $ne: 1 }, 'x'.repeat(30_000), '\u0000', '1e309', '../../x'];
    const fields = [
      'type',
      'name',
      'projectName',
      'jsonContent',
      'language',
      'urlN8N',
      'typebotSlug',
      'typebotExpires',
      'typebotDelayMessage',
      'typebotKeywordFinish',
      'typebotKeywordRestart',
      'typebotUnknownMessage',
      'typebotRestartMessage',
    ];
    const base = { type: 'typebot', name: 'Fuzz', urlN8N: 'https://t.example', typebotSlug: 'fuzz' };
    for (const field of fields) {
      for (const value of garbage) {
        for (const res of [
          await create({ ...base, [field]: value }),
          await call('PUT /queueIntegration/{id}', { token: a.admin.token, params: { id }, body: { [field]: value } }),
        ]) {
          expect(res.status, `${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.error).toMatch(/^ERR_/);
        }
      }
    }
    for (const value of garbage) {
      const res = await call('POST /queueIntegration/testSession', {
        token: a.admin.token,
        body: { projectName: value, jsonContent: value, language: value, id: value },
      });
      expect(res.status, JSON.stringify(value)?.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    // Whole hostile bodies (as fuzz.test.ts sends them) on every route that takes one.
    const hostile: unknown[] = [
      null,
      0,
      'text',
      [],
      [{}],
      { ['__proto__']: { admin: true }, constructor: { prototype: { x: 1 } } },
      { name: 'x'.repeat(100_000) },
    ];
    for (const body of hostile) {
      for (const res of [
        await call('POST /queueIntegration', { token: a.admin.token, body }),
        await call('PUT /queueIntegration/{id}', { token: a.admin.token, params: { id }, body }),
        await call('POST /queueIntegration/testSession', { token: a.admin.token, body }),
      ]) {
        expect(res.status, JSON.stringify(body).slice(0, 40)).toBeLessThan(500);
      }
    }
    for (const body of ['not json', [1, 2], 'null']) {
      expect((await call('POST /queueIntegration', { token: a.admin.token, body })).status).toBe(400);
    }
    const queries: Record<string, string>[] = [
      { pageNumber: '0' },
      { pageNumber: 'abc' },
      { pageNumber: '1e9' },
      { searchParam: 'x'.repeat(500) },
    ];
    for (const query of queries) {
      const res = await call('GET /queueIntegration', { token: a.admin.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      expect((await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id: bad } })).status, bad).toBe(400);
      expect((await call('DELETE /queueIntegration/{id}', { token: a.admin.token, params: { id: bad } })).status, bad).toBe(400);
    }
    // The target is still whole and valid.
    const after = await call('GET /queueIntegration/{id}', { token: a.admin.token, params: { id } });
    expect(after.body).toMatchObject({ type: expect.stringMatching(/^(webhook|typebot|n8n)$/), urlN8N: expect.stringMatching(/^https?:/) });
  });
});
