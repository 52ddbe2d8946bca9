/**
 * Connections routes over DynamoDB Local + cognito-local, with the session commands landing on a
 * real FIFO queue (fauxqs): the rules of SPEC 7 "Connections", tenant isolation, and the commands
 * the session-host receives.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '#contracts/common';
import '#adapters/wiring';
import { sendCommandToQueue } from '#adapters/session-commands';
import { setSessionCommandSender } from '#domain/messages/session-commands';
import { getConnection, getConnectionByToken, updateConnectionSession } from '#storage/connections';
import { getUser, updateUser } from '#storage/users/users';
import { type CommandQueue, startCommandQueue } from './connections-harness.ts';
import { call, type Stack, seedTenant, startStack, type Tenant, uniq } from './users-harness.ts';

let stack: Stack;
let commands: CommandQueue;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [stack, commands] = await Promise.all([startStack(), startCommandQueue()]);
  a = await seedTenant(stack);
  b = await seedTenant(stack);
}, 90_000);
afterAll(async () => {
  await Promise.all([stack?.stop(), commands?.stop()]);
});
afterEach(async () => {
  // Back to the queue the harness reads (this file is the entry: it wires as a Lambda does).
  setSessionCommandSender(sendCommandToQueue);
  await commands.drain();
});

type Body = Record<string, unknown>;
const createConnection = (t: Tenant, body: Body = {}) =>
  call('POST /whatsapp', { token: t.admin.token, body: { name: uniq('Wa '), ...body } });
const createQueue = async (t: Tenant, name = uniq('Q')): Promise<number> => {
  const res = await call('POST /queue', { token: t.admin.token, body: { name, color: `#${uniq('').slice(-6)}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
};

describe('creating a connection', () => {
  it('stores it OPENING, makes the first one default, and sends a start command grouped by connection', async () => {
    // Prepare
    const tenant = await seedTenant(stack);
    // Act
    const first = await createConnection(tenant, { token: uniq('api-token-') });
    const second = await createConnection(tenant);
    // Assess
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      companyId: tenant.companyId,
      status: 'OPENING',
      isDefault: true,
      maxUseBotQueues: 3,
      provider: 'beta',
    });
    expect(second.body.isDefault).toBe(false);
    const sent = await commands.drain();
    expect(sent.map((c) => [c.kind, c.connectionId, c.groupId, c.companyId])).toEqual([
      ['start', first.body.id, `${tenant.companyId}:${first.body.id}`, tenant.companyId],
      ['start', second.body.id, `${tenant.companyId}:${second.body.id}`, tenant.companyId],
    ]);
    expect(new Set(sent.map((c) => c.commandId)).size).toBe(2);
  });

  it('moves the default flag when a new connection is created as default', async () => {
    const tenant = await seedTenant(stack);
    const first = await createConnection(tenant);
    const second = await createConnection(tenant, { isDefault: true });
    const list = await call('GET /whatsapp', { token: tenant.admin.token });
    expect(list.body.map((c: Body) => [c.id, c.isDefault])).toEqual([
      [first.body.id, false],
      [second.body.id, true],
    ]);
  });

  it('requires a greeting with more than one queue, and only the company own queues', async () => {
    const tenant = await seedTenant(stack);
    const q1 = await createQueue(tenant);
    const q2 = await createQueue(tenant);
    // Ids are per company: B's third queue has an id the tenant does not have.
    await createQueue(b);
    await createQueue(b);
    const foreign = await createQueue(b);

    const noGreeting = await createConnection(tenant, { queueIds: [q1, q2] });
    const foreignQueue = await createConnection(tenant, { queueIds: [q1, foreign], greetingMessage: 'Hi' });
    const foreignTransfer = await createConnection(tenant, { transferQueueId: foreign });
    const good = await createConnection(tenant, { queueIds: [q2, q1, q2], greetingMessage: 'Hi', transferQueueId: q1 });

    expect(noGreeting.status).toBe(400);
    expect(noGreeting.body).toMatchObject({ error: 'ERR_WAPP_GREETING_REQUIRED', field: 'greetingMessage' });
    expect(foreignQueue.status).toBe(400);
    expect(foreignQueue.body.field).toBe('queueIds.1');
    expect(foreignTransfer.body.field).toBe('transferQueueId');
    expect(good.status).toBe(201);
    expect(good.body.queueIds).toEqual([q2, q1]);
    expect(good.body.queues.map((q: Body) => q.id)).toEqual([q2, q1]);
    expect((await call('GET /whatsapp', { token: tenant.admin.token })).body).toHaveLength(1);
  });

  it('refuses bad input with the spec messages and creates nothing', async () => {
    const short = await createConnection(a, { name: 'x' });
    const long = await createConnection(a, { name: 'x'.repeat(51) });
    const missing = await call('POST /whatsapp', { token: a.admin.token, body: {} });
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'name', message: '¡Demasiado corto!' });
    expect(long.body.message).toBe('¡Demasiado largo!');
    expect(missing.body.message).toBe('Requerido');
    expect(await commands.drain()).toEqual([]);
  });

  it('enforces the plan connection limit', async () => {
    const tenant = await seedTenant(stack, { plan: { connections: 1 } });
    expect((await createConnection(tenant)).status).toBe(201);
    const over = await createConnection(tenant);
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('ERR_PLAN_LIMIT_CONNECTIONS');
  });

  it('holds the plan connection limit when creates race', async () => {
    const tenant = await seedTenant(stack, { plan: { connections: 2 } });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => createConnection(tenant, { name: `Race ${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(new Set(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.error}`))).toEqual(
      new Set(['403 ERR_PLAN_LIMIT_CONNECTIONS']),
    );
    expect((await call('GET /whatsapp', { token: tenant.admin.token })).body).toHaveLength(2);
  });

  it('is for admins only; attendants list connections without the API token', async () => {
    const tenant = await seedTenant(stack);
    const plain = await tenant.addUser();
    const token = uniq('secret-token-');
    const made = await createConnection(tenant, { token });
    expect((await call('POST /whatsapp', { token: plain.token, body: { name: 'Mine' } })).status).toBe(403);
    const asUser = await call('GET /whatsapp/{id}', { token: plain.token, params: { id: made.body.id } });
    const asAdmin = await call('GET /whatsapp/{id}', { token: tenant.admin.token, params: { id: made.body.id } });
    expect(asUser.body).toMatchObject({ id: made.body.id, token: '', qrcode: '' });
    expect(asAdmin.body.token).toBe(token);
    expect((await call('GET /whatsapp', { token: plain.token })).body[0].token).toBe('');
  });

  it('keeps a token unique across companies and resolves it to its connection', async () => {
    const token = uniq('shared-token-');
    const mine = await createConnection(a, { token });
    const theirs = await createConnection(b, { token });
    expect(theirs.status).toBe(400);
    expect(theirs.body.field).toBe('token');
    expect((await getConnectionByToken(token))?.id).toBe(mine.body.id);

    const moved = uniq('moved-token-');
    expect((await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: mine.body.id }, body: { token: moved } })).status).toBe(
      200,
    );
    expect(await getConnectionByToken(token)).toBeUndefined();
    expect((await getConnectionByToken(moved))?.companyId).toBe(a.companyId);
    expect((await createConnection(b, { token })).status).toBe(201);
  });

  it('refuses tokens under 16 characters on create and update, and a taken token says nothing of its owner', async () => {
    // A short token could be guessed through the external API: the form's field names the rule.
    const short = await createConnection(a, { token: 'abc123456789012' });
    expect(short).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'token', message: messages.shortToken } });
    const made = await createConnection(a, { token: uniq('long-enough-token-') });
    expect(made.status).toBe(201);
    const shortened = await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: made.body.id }, body: { token: 'short' } });
    expect(shortened).toMatchObject({ status: 400, body: { field: 'token', message: messages.shortToken } });

    // B probing A's token: the refusal is generic, without A's company, connection or the token.
    const taken = await createConnection(b, { token: made.body.token });
    expect(taken.status).toBe(400);
    expect(Object.keys(taken.body).sort()).toEqual(['error', 'field', 'message']);
    expect(JSON.stringify(taken.body)).not.toContain(made.body.token);
    expect(JSON.stringify(taken.body)).not.toMatch(new RegExp(`\\b(${a.companyId}|${made.body.id})\\b`));
  });
});

describe('updating and deleting', () => {
  it('never leaves a company without a default connection', async () => {
    const tenant = await seedTenant(stack);
    const only = await createConnection(tenant);
    const unset = await call('PUT /whatsapp/{id}', { token: tenant.admin.token, params: { id: only.body.id }, body: { isDefault: false } });
    expect(unset.status).toBe(409);
    expect(unset.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    expect((await getConnection(tenant.companyId, only.body.id))?.isDefault).toBe(true);

    const other = await createConnection(tenant);
    const promote = await call('PUT /whatsapp/{id}', {
      token: tenant.admin.token,
      params: { id: other.body.id },
      body: { isDefault: true },
    });
    expect(promote.body.isDefault).toBe(true);
    expect((await getConnection(tenant.companyId, only.body.id))?.isDefault).toBe(false);
  });

  it('applies a partial update without resetting the other fields, with the greeting rule on the result', async () => {
    const q1 = await createQueue(a);
    const q2 = await createQueue(a);
    const made = await createConnection(a, { greetingMessage: 'Hello', maxUseBotQueues: 7, queueIds: [q1] });
    const renamed = await call('PUT /whatsapp/{id}', { token: a.admin.token, params: { id: made.body.id }, body: { name: 'Renamed' } });
    expect(renamed.body).toMatchObject({ name: 'Renamed', greetingMessage: 'Hello', maxUseBotQueues: 7, queueIds: [q1] });
    const cleared = await call('PUT /whatsapp/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { queueIds: [q1, q2], greetingMessage: '  ' },
    });
    expect(cleared.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    expect((await getConnection(a.companyId, made.body.id))?.queueIds).toEqual([q1]);
  });

  it('logs out, deletes, hands the default to another connection and clears users pointing at it', async () => {
    const tenant = await seedTenant(stack);
    const first = await createConnection(tenant);
    const second = await createConnection(tenant);
    await updateUser(tenant.companyId, tenant.admin.id, { whatsappId: first.body.id });
    await commands.drain();

    const res = await call('DELETE /whatsapp/{id}', { token: tenant.admin.token, params: { id: first.body.id } });
    expect(res.status).toBe(204);
    expect((await commands.drain()).map((c) => [c.kind, c.connectionId])).toEqual([['logout', first.body.id]]);
    expect(await getConnection(tenant.companyId, first.body.id)).toBeUndefined();
    expect((await getConnection(tenant.companyId, second.body.id))?.isDefault).toBe(true);
    expect((await getUser(tenant.companyId, tenant.admin.id))?.whatsappId).toBeNull();
  });
});

describe('session actions', () => {
  it('sends start, newQr and logout; start and new QR show OPENING at once', async () => {
    const made = await createConnection(a);
    await updateConnectionSession(a.companyId, made.body.id, { status: 'DISCONNECTED' });
    await commands.drain();
    const params = { id: made.body.id };

    expect((await call('POST /whatsappsession/{id}', { token: a.admin.token, params })).status).toBe(200);
    expect((await getConnection(a.companyId, made.body.id))?.status).toBe('OPENING');
    await updateConnectionSession(a.companyId, made.body.id, { status: 'qrcode', qrcode: 'QR-1' });
    expect((await call('PUT /whatsappsession/{id}', { token: a.admin.token, params })).status).toBe(200);
    expect(await getConnection(a.companyId, made.body.id)).toMatchObject({ status: 'OPENING', qrcode: '' });
    expect((await call('DELETE /whatsappsession/{id}', { token: a.admin.token, params })).status).toBe(200);

    expect((await commands.drain()).map((c) => c.kind)).toEqual(['start', 'newQr', 'logout']);
  });

  it("answers 404 for another company's connection and sends nothing", async () => {
    const theirs = await createConnection(b);
    // Ids are per company: a fresh company has no connection with B's id.
    const intruder = await seedTenant(stack);
    await commands.drain();
    for (const key of [
      'POST /whatsappsession/{id}',
      'PUT /whatsappsession/{id}',
      'DELETE /whatsappsession/{id}',
      'GET /whatsapp/{id}',
      'DELETE /whatsapp/{id}',
    ]) {
      const res = await call(key, { token: intruder.admin.token, params: { id: theirs.body.id } });
      expect(res.status, key).toBe(404);
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    const put = await call('PUT /whatsapp/{id}', { token: intruder.admin.token, params: { id: theirs.body.id }, body: { name: 'Hijack' } });
    expect(put.status).toBe(404);
    expect(await commands.drain()).toEqual([]);
    expect((await getConnection(b.companyId, theirs.body.id))?.name).toBe(theirs.body.name);
  });

  it('restores the previous state when the command cannot be sent', async () => {
    const made = await createConnection(a);
    await updateConnectionSession(a.companyId, made.body.id, { status: 'DISCONNECTED' });
    setSessionCommandSender(async () => {
      throw new Error('queue unavailable');
    });
    const res = await call('POST /whatsappsession/{id}', { token: a.admin.token, params: { id: made.body.id } });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect((await getConnection(a.companyId, made.body.id))?.status).toBe('DISCONNECTED');

    const created = await createConnection(a);
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('DISCONNECTED');
  });

  it('never recreates a deleted connection from a late session update', async () => {
    const made = await createConnection(a);
    await call('DELETE /whatsapp/{id}', { token: a.admin.token, params: { id: made.body.id } });
    expect(await updateConnectionSession(a.companyId, made.body.id, { status: 'CONNECTED' })).toBeUndefined();
    expect(await getConnection(a.companyId, made.body.id)).toBeUndefined();
  });
});
