/**
 * AI prompts over DynamoDB Local + cognito-local (SPEC 3, 5, 7, 9; issue 13): defaults, the queue
 * that must be the company's own ('Informe o setor'), the API key sealed at rest and answered only as
 * its hint (kept when the hint comes back), queue.name, delete refused while a queue or connection
 * points at it, realtime ids, and the attacks: another tenant, a plain user, a forged token, a plan
 * without useOpenAi, garbage in every field and query parameter.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSecret, secretHint } from '#commons/secrets';
import { createPrompt, getPrompt, newPromptId } from '#storage/prompts';
import { updateQueue } from '#storage/queues/queues';
import { createConnection } from './messages-harness.ts';
import { call, type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

const published: { companyId: number; event: string; data: unknown }[] = [];
vi.mock('../src/realtime/publisher.ts', async (original) => ({
  ...(await original<typeof import('../src/realtime/publisher.ts')>()),
  publishToCompany: async (companyId: number, event: string, data: unknown) => {
    published.push({ companyId, event, data });
    return { sent: 0, gone: 0 };
  },
}));

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

let stack: Stack;
let a: Tenant;
let b: Tenant;
let plainUser: { id: number; token: string };
let queueA: { id: number; name: string };

type Body = Record<string, unknown>;
const KEY = 'sk-proj-0123456789abcdefghijklmnopqrstuvwxyzA1B2';

async function addQueue(t: Tenant, name: string, color: string) {
  const res = await call('POST /queue', { token: t.admin.token, body: { name, color } });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, name };
}

beforeAll(async () => {
  stack = await startStack();
  [a, b] = await Promise.all([seedTenant(stack), seedTenant(stack)]);
  plainUser = await a.addUser('user');
  [queueA] = await Promise.all([addQueue(a, 'Vendas', '#aa0001'), addQueue(b, 'Suporte B', '#bb0001')]);
}, 120_000);
afterAll(async () => stack?.stop());

const create = (body: Body, token = a.admin.token) => call('POST /prompt', { token, body });
const update = (id: number, body: Body, token = a.admin.token) => call('PUT /prompt/{id}', { token, params: { id }, body });
const get = (id: number, token = a.admin.token) => call('GET /prompt/{id}', { token, params: { id } });
const queueOf = async (id: number) => (await call('GET /queue/{id}', { token: a.admin.token, params: { id } })).body;

describe('AI prompts', () => {
  it('requires the queue (SPEC 5) and fills the defaults of SPEC 9; answers queue.name, never the key', async () => {
    expect((await create({ name: 'Sem setor' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'queueId',
      message: 'Informe o setor',
    });
    expect((await create({ name: 'Nulo', queueId: null })).body).toMatchObject({ field: 'queueId', message: 'Informe o setor' });
    expect((await create({ queueId: queueA.id })).body).toMatchObject({ field: 'name', message: 'Obrigatório' });

    const made = await create({ name: 'Assistente', prompt: 'Você é um atendente cordial.', queueId: queueA.id, apiKey: KEY });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Assistente',
      prompt: 'Você é um atendente cordial.',
      voice: 'texto',
      voiceKey: '',
      voiceRegion: '',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKey: 'sk-…A1B2',
      queueId: queueA.id,
      queue: { id: queueA.id, name: 'Vendas' },
    });
    expect(JSON.stringify(made.body)).not.toContain(KEY.slice(8, 30));
    expect(made.body).not.toHaveProperty('apiKeySealed');
    expect(made.body).not.toHaveProperty('apiKeyHint');

    const stored = await getPrompt(a.companyId, made.body.id);
    expect(stored?.apiKeySealed).toMatch(/^v1:/);
    expect(stored?.apiKeySealed).not.toContain(KEY);
    expect(await openSecret(stored?.apiKeySealed ?? '')).toBe(KEY);

    const list = await call('GET /prompt', { token: a.admin.token });
    expect(list.status).toBe(200);
    const listed = list.body.prompts.find((p: Body) => p.id === made.body.id);
    expect(listed).toMatchObject({ apiKey: 'sk-…A1B2', queue: { name: 'Vendas' } });
    expect(JSON.stringify(list.body)).not.toContain('v1:');
  });

  it('keeps the stored key when a PUT sends the hint back or no apiKey; replaces or clears it otherwise', async () => {
    const made = await create({ name: 'Chave', queueId: queueA.id, apiKey: KEY });
    const id = made.body.id;
    const sealed = (await getPrompt(a.companyId, id))?.apiKeySealed;

    expect((await update(id, { ...made.body, name: 'Chave 2' })).body).toMatchObject({ name: 'Chave 2', apiKey: 'sk-…A1B2' });
    expect((await getPrompt(a.companyId, id))?.apiKeySealed).toBe(sealed);
    expect((await update(id, { maxTokens: 300 })).body).toMatchObject({ maxTokens: 300, apiKey: 'sk-…A1B2' });
    expect((await getPrompt(a.companyId, id))?.apiKeySealed).toBe(sealed);

    const other = 'sk-live-ZYXWVUTSRQPONMLKJIHGFEDCBA9z8y';
    expect((await update(id, { apiKey: other })).body.apiKey).toBe('sk-…9z8y');
    expect(await openSecret((await getPrompt(a.companyId, id))?.apiKeySealed ?? '')).toBe(other);
    expect((await update(id, { apiKey: '' })).body.apiKey).toBe('');
    expect((await getPrompt(a.companyId, id))?.apiKeySealed).toBe('');

    // A hint is never stored as a key, and a key is printable ASCII without spaces (it becomes a header).
    expect((await create({ name: 'Dica', queueId: queueA.id, apiKey: 'sk-…A1B2' })).body).toMatchObject({ field: 'apiKey' });
    expect((await update(id, { apiKey: 'sk abc\n' })).body).toMatchObject({ field: 'apiKey' });
    expect((await update(id, { apiKey: 'sk-çãõ' })).body).toMatchObject({ field: 'apiKey' });
  });

  it('seals the voice key like the API key: the stored item and every answer hold only its hint (issue 21 finding 6)', async () => {
    const VOICE = '0123456789abcdef0123456789abVo1c';
    const made = await create({ name: 'Voz', queueId: queueA.id, voice: 'pt-BR-YaraNeural', voiceKey: VOICE, voiceRegion: 'brazilsouth' });
    expect(made.status).toBe(201);
    expect(made.body.voiceKey).toBe('…Vo1c');
    const id = made.body.id;
    const stored = await getPrompt(a.companyId, id);
    expect(JSON.stringify(stored)).not.toContain(VOICE);
    expect(await openSecret(stored?.voiceKeySealed ?? '')).toBe(VOICE);
    for (const answer of [(await get(id)).body, (await call('GET /prompt', { token: a.admin.token })).body])
      expect(JSON.stringify(answer)).not.toContain(VOICE);

    // The hint sent back (the dialog's whole form) or no voiceKey keeps it; a new one replaces it; '' clears it.
    expect((await update(id, { ...made.body, name: 'Voz 2' })).body.voiceKey).toBe('…Vo1c');
    expect((await update(id, { maxTokens: 200 })).body.voiceKey).toBe('…Vo1c');
    expect(await openSecret((await getPrompt(a.companyId, id))?.voiceKeySealed ?? '')).toBe(VOICE);
    const other = 'ffffffffffffffffffffffffffffNEW2';
    expect((await update(id, { voiceKey: other })).body.voiceKey).toBe('…NEW2');
    expect(await openSecret((await getPrompt(a.companyId, id))?.voiceKeySealed ?? '')).toBe(other);
    expect((await update(id, { voiceKey: '' })).body.voiceKey).toBe('');
    expect((await create({ name: 'Dica de voz', queueId: queueA.id, voiceKey: '…Vo1c' })).body).toMatchObject({ field: 'voiceKey' });
  });

  it('still shows a voice key stored in plain before sealing as its hint, and seals it on the next update', async () => {
    const LEGACY = 'legacyplainvoicekey00000000LEGA';
    const at = new Date().toISOString();
    const id = await newPromptId(a.companyId);
    await createPrompt({
      companyId: a.companyId,
      id,
      name: 'Antigo',
      prompt: '',
      voice: 'pt-BR-YaraNeural',
      voiceKey: LEGACY,
      voiceRegion: 'brazilsouth',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKeySealed: '',
      apiKeyHint: '',
      queueId: queueA.id,
      createdAt: at,
      updatedAt: at,
    });
    const shown = await get(id);
    expect(shown.body.voiceKey).toBe('…LEGA');
    expect(JSON.stringify(shown.body)).not.toContain(LEGACY);
    expect((await update(id, { ...shown.body, name: 'Antigo 2' })).body.voiceKey).toBe('…LEGA');
    const stored = await getPrompt(a.companyId, id);
    expect(JSON.stringify(stored)).not.toContain(LEGACY);
    expect(await openSecret(stored?.voiceKeySealed ?? '')).toBe(LEGACY);
  });

  it('validates types and ranges on the server, and voices from the list', async () => {
    const base = { name: 'Faixas', queueId: queueA.id };
    for (const [field, value] of [
      ['maxTokens', 0],
      ['maxTokens', 4097],
      ['maxTokens', 1.5],
      ['temperature', -0.1],
      ['temperature', 2.01],
      ['maxMessages', 0],
      ['maxMessages', 51],
      ['name', 'x'.repeat(101)],
      ['voice', 'pt-BR-Inexistente'],
      ['voiceRegion', 'brazil south/..'],
    ] as const) {
      const res = await create({ ...base, [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const edges = await create({
      ...base,
      maxTokens: 4096,
      temperature: 0,
      maxMessages: 50,
      voice: 'pt-BR-YaraNeural',
      voiceRegion: 'brazilsouth',
    });
    expect(edges.body).toMatchObject({ maxTokens: 4096, temperature: 0, maxMessages: 50, voice: 'pt-BR-YaraNeural' });
    // A form's numeric text is read as its number.
    expect((await update(edges.body.id, { maxTokens: '250', temperature: '0.7' })).body).toMatchObject({
      maxTokens: 250,
      temperature: 0.7,
    });
  });

  it("accepts only the company's own queue (400 'Informe o setor'), on create and update", async () => {
    // Queue ids count per company: B's next queue is an id A does not have.
    const foreign = await addQueue(b, 'Só de B', '#bb0002');
    expect(foreign.id).toBeGreaterThan(queueA.id);
    expect((await create({ name: 'Alheio', queueId: foreign.id })).body).toMatchObject({ field: 'queueId', message: 'Informe o setor' });
    expect((await create({ name: 'Nenhum', queueId: 999_999 })).status).toBe(400);
    const made = await create({ name: 'Minha fila', queueId: queueA.id });
    expect((await update(made.body.id, { queueId: foreign.id })).status).toBe(400);
    expect((await get(made.body.id)).body.queueId).toBe(queueA.id);
  });

  it("links the prompt's queue and the queue's prompt as one link, from either dialog (issue 25 item 4)", async () => {
    const [q1, q2] = [await addQueue(a, 'Elo 1', '#aa0101'), await addQueue(a, 'Elo 2', '#aa0102')];
    const id = (await create({ name: 'Elo', queueId: q1.id })).body.id;
    expect((await queueOf(q1.id)).promptId).toBe(id);

    // The prompt's Queue moves: the new queue's Prompt is it, the old queue lets it go.
    expect((await update(id, { queueId: q2.id })).body.queue).toEqual({ id: q2.id, name: 'Elo 2' });
    expect((await queueOf(q2.id)).promptId).toBe(id);
    expect((await queueOf(q1.id)).promptId).toBeNull();

    // The queue's Prompt is set: the prompt's Queue follows, and the queue it named before lets it go.
    expect((await call('PUT /queue/{id}', { token: a.admin.token, params: { id: q1.id }, body: { promptId: id } })).status).toBe(200);
    expect((await get(id)).body).toMatchObject({ queueId: q1.id, queue: { id: q1.id, name: 'Elo 1' } });
    expect((await queueOf(q2.id)).promptId).toBeNull();

    // A new queue created with the prompt takes it too.
    const q3 = await call('POST /queue', { token: a.admin.token, body: { name: 'Elo 3', color: '#aa0103', promptId: id } });
    expect(q3.status).toBe(201);
    expect((await get(id)).body.queueId).toBe(q3.body.id);
    expect((await queueOf(q1.id)).promptId).toBeNull();

    // Another prompt taking the queue replaces the link; another tenant's prompt id is still refused.
    const other = (await create({ name: 'Elo B', queueId: q3.body.id })).body.id;
    expect((await queueOf(q3.body.id)).promptId).toBe(other);
    const foreign = await call('PUT /queue/{id}', { token: a.admin.token, params: { id: q2.id }, body: { promptId: 999_999 } });
    expect(foreign.status).toBe(400);
    expect((await queueOf(q2.id)).promptId).toBeNull();
  });

  it('refuses to delete a prompt a queue or connection points at (409, naming them), then deletes it with a message', async () => {
    const id = (await create({ name: 'Em uso', queueId: queueA.id })).body.id;
    const queue = await call('POST /queue', { token: a.admin.token, body: { name: 'Com IA', color: '#aa0002', promptId: id } });
    expect(queue.status).toBe(201);
    const connection = await createConnection(a);
    expect((await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: connection.id }, body: { promptId: id } })).status).toBe(
      200,
    );

    // 'Com IA' is now the prompt's own queue (one link); a second queue pointing at it (data from
    // before the link) is another user of it, as the connection is.
    expect((await get(id)).body.queueId).toBe(queue.body.id);
    await updateQueue(a.companyId, queueA.id, { promptId: id });

    const refused = await call('DELETE /prompt/{id}', { token: a.admin.token, params: { id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'ERR_PROMPT_IN_USE', queueIds: [queueA.id], connectionIds: [connection.id] });
    expect((await get(id)).status).toBe(200);

    await call('PUT /queue/{id}', { token: a.admin.token, params: { id: queueA.id }, body: { promptId: null } });
    await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: connection.id }, body: { promptId: null } });
    const deleted = await call('DELETE /prompt/{id}', { token: a.admin.token, params: { id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Prompt deleted' });
    expect((await get(id)).status).toBe(404);
    // Its own queue let it go with it.
    expect((await queueOf(queue.body.id)).promptId).toBeNull();
  });

  it('publishes create, update and delete on company-{id}-prompt with the id only', async () => {
    published.length = 0;
    const id = (await create({ name: 'Eventos', queueId: queueA.id, apiKey: KEY })).body.id;
    await update(id, { name: 'Eventos 2' });
    await call('DELETE /prompt/{id}', { token: a.admin.token, params: { id } });
    const mine = published.filter((p) => p.event === `company-${a.companyId}-prompt`);
    expect(mine.map((p) => p.data)).toEqual([
      { action: 'create', id },
      { action: 'update', id },
      { action: 'delete', id },
    ]);
    expect(JSON.stringify(published)).not.toContain(KEY);
  });

  it('keeps tenants apart: another tenant gets 404 on every route with an id and sees none in its list', async () => {
    const made = await create({ name: 'Privado', queueId: queueA.id, apiKey: KEY });
    const id = made.body.id;
    const lonely = await seedTenant(stack);
    const token = lonely.admin.token;
    expect((await get(id, token)).status).toBe(404);
    expect((await update(id, { name: 'Roubado', apiKey: 'sk-roubado-0000000000000000' }, token)).status).toBe(404);
    expect((await call('DELETE /prompt/{id}', { token, params: { id } })).status).toBe(404);
    expect((await call('GET /prompt', { token })).body).toEqual({ prompts: [] });
    expect((await get(id)).body).toMatchObject({ name: 'Privado', apiKey: 'sk-…A1B2' });
    expect(await openSecret((await getPrompt(a.companyId, id))?.apiKeySealed ?? '')).toBe(KEY);
  });

  it('is for admins of a plan with useOpenAi, with a valid token', async () => {
    const id = (await create({ name: 'Acesso', queueId: queueA.id })).body.id;
    const routes: [string, { params?: Record<string, number>; body?: Body }][] = [
      ['GET /prompt', {}],
      ['GET /prompt/{id}', { params: { id } }],
      ['POST /prompt', { body: { name: 'Nova', queueId: queueA.id } }],
      ['PUT /prompt/{id}', { params: { id }, body: { name: 'Mudou' } }],
      ['DELETE /prompt/{id}', { params: { id } }],
    ];
    const withoutPlan = await seedTenant(stack, { plan: { useOpenAi: false } });
    const forged = `${a.admin.token.slice(0, -6)}AAAAAA`;
    for (const [key, opts] of routes) {
      expect((await call(key, { ...opts, token: plainUser.token })).status, key).toBe(403);
      const gated = await call(key, { ...opts, token: withoutPlan.admin.token });
      expect(gated.status, key).toBe(403);
      expect(gated.body, key).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useOpenAi' });
      expect((await call(key, opts)).status, key).toBe(401);
      expect((await call(key, { ...opts, token: forged })).status, key).toBe(401);
    }
    expect((await get(id)).body.name).toBe('Acesso');
  });

  it('answers garbage in every field and query parameter with a 4xx, never a 500 or a half-written record', async () => {
    const id = (await create({ name: 'Alvo', queueId: queueA.id, apiKey: KEY })).body.id;
    const before = await getPrompt(a.companyId, id);
    const garbage: unknown[] = [null, -1, true, [], {}, 'x'.repeat(30_000), '\u0000', '<script>', '1e309', 'NaN', '../../x', { $ne: 1 }];
    const fields = ['name', 'prompt', 'voice', 'voiceKey', 'voiceRegion', 'maxTokens', 'temperature', 'maxMessages', 'apiKey', 'queueId'];
    let accepted = 0;
    for (const field of fields) {
      for (const value of garbage) {
        for (const res of [await create({ name: 'Fuzz', queueId: queueA.id, [field]: value }), await update(id, { [field]: value })]) {
          expect(res.status, `${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.error).toMatch(/^ERR_/);
          else accepted++;
        }
      }
    }
    // Only free text fields may take a string such as '<script>' (stored as text, never markup).
    expect(accepted).toBeLessThan(fields.length * garbage.length);
    for (const body of ['not json', [1, 2], 'null']) expect((await call('POST /prompt', { token: a.admin.token, body })).status).toBe(400);
    expect((await call('GET /prompt', { token: a.admin.token, query: { searchParam: 'x'.repeat(500) } })).status).toBe(400);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      for (const key of ['GET /prompt/{id}', 'PUT /prompt/{id}', 'DELETE /prompt/{id}']) {
        expect((await call(key, { token: a.admin.token, params: { id: bad } as never, body: { name: 'x' } })).status, `${key} ${bad}`).toBe(
          400,
        );
      }
    }
    // The target is still whole: its key (a printable string such as '../../x' is a valid key) opens
    // and matches its hint, its queue is unchanged and its numbers are in range.
    const after = await getPrompt(a.companyId, id);
    const opened = await openSecret(after?.apiKeySealed ?? '');
    expect(after?.apiKeyHint).toBe(secretHint(opened));
    expect(after?.queueId).toBe(before?.queueId);
    expect(after?.maxTokens).toBeGreaterThanOrEqual(1);
    expect(after?.temperature).toBeLessThanOrEqual(2);
  });
});
