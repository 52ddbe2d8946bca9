/**
 * POST /api/messages/send with Idempotency-Key (issue 23 §3) over DynamoDB Local and fauxqs: the
 * same key and body answer the first answer again and queue no second `send`; another body is 422;
 * keys are per company; concurrent requests with one key send once; a 5xx gives the key back; a
 * claim whose request died is taken over after its lock; garbage keys are 400.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerOnce, CLAIM_LOCK_SECONDS, IDEMPOTENCY_KEY_MAX } from '#domain/external-api/idempotency';
import { EXTERNAL_API_LIMIT } from '#domain/external-api/send';
import type { HttpLambdaHandler } from '#http/handler';
import { claimIdempotencyKey } from '#storage/idempotency-keys';
import { createConnection, type Env, type FormPart, multipart, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant, uniq } from './users-harness.ts';

let env: Env;
let handler: HttpLambdaHandler;
let tenant: Tenant;

beforeAll(async () => {
  env = await startEnv();
  handler = (await import('../src/handlers/http/external-api.ts')).handler;
  tenant = await seedTenant(env.stack);
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  await env.commands.drain();
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
  headers: Record<string, string>;
}

/** The request as API Gateway hands it over, with any headers (the shared harness sets only the token). */
async function send(
  token: string,
  payload: { json: unknown } | { form: FormPart[] },
  headers: Record<string, string> = {},
): Promise<Answer> {
  const raw = 'form' in payload ? multipart(payload.form) : undefined;
  const event = {
    version: '2.0',
    routeKey: 'POST /api/messages/send',
    rawPath: '/api/messages/send',
    rawQueryString: '',
    headers: { 'content-type': raw?.contentType ?? 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: raw ? raw.body.toString('base64') : JSON.stringify('json' in payload ? payload.json : undefined),
    isBase64Encoded: Boolean(raw),
    requestContext: { http: { method: 'POST', path: '/api/messages/send', sourceIp: '127.0.0.1' } },
  } as unknown as APIGatewayProxyEventV2;
  const res = await handler(event);
  return {
    status: res.statusCode ?? 200,
    body: res.body ? JSON.parse(res.body) : undefined,
    headers: Object.fromEntries(Object.entries(res.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
  };
}

const sends = async () => (await env.commands.drain()).filter((command) => command.kind === 'send');

describe('Idempotency-Key', () => {
  it('answers a retry with the first answer, marked replayed, and sends once', async () => {
    // Prepare
    const { token } = await createConnection(tenant);
    const key = uniq('order-4711-');
    const json = { number: '5511977770001', body: 'Seu pedido saiu para entrega' };
    // Act
    const first = await send(token, { json }, { 'Idempotency-Key': key });
    const retry = await send(token, { json }, { 'Idempotency-Key': key });
    // Assess
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.status).toBe(first.status);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    // A replay is a request like any other: it counts in the token's window.
    expect(Number(retry.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
    const queued = await sends();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ number: '5511977770001', body: 'Seu pedido saiu para entrega' });
  });

  it('without the header, the same body twice sends twice', async () => {
    const { token } = await createConnection(tenant);
    const json = { number: '5511977770002', body: 'twice' };
    expect((await send(token, { json })).status).toBe(200);
    const again = await send(token, { json });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await sends()).toHaveLength(2);
  });

  it('refuses the key with another body (422) or on another connection of the company, sending nothing more', async () => {
    const [one, two] = await Promise.all([createConnection(tenant), createConnection(tenant)]);
    const key = uniq('k-');
    expect((await send(one.token, { json: { number: '5511977770003', body: 'first' } }, { 'idempotency-key': key })).status).toBe(200);
    expect(await sends()).toHaveLength(1);
    const other = await send(one.token, { json: { number: '5511977770003', body: 'second' } }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('ERR_IDEMPOTENCY_KEY_REUSED');
    expect(other.body.message).toMatch(/new key/);
    expect(Number(other.headers['ratelimit-remaining'])).toBe(EXTERNAL_API_LIMIT - 2);
    const elsewhere = await send(two.token, { json: { number: '5511977770003', body: 'first' } }, { 'idempotency-key': key });
    expect(elsewhere.status).toBe(422);
    expect(await sends()).toEqual([]);
  });

  it("keeps each company's keys apart: the same key and body of another tenant sends", async () => {
    const other = await seedTenant(env.stack);
    const [mine, theirs] = await Promise.all([createConnection(tenant), createConnection(other)]);
    await env.commands.drain();
    const key = uniq('shared-');
    const json = { number: '5511977770004', body: 'hello' };
    const a = await send(mine.token, { json }, { 'idempotency-key': key });
    const b = await send(theirs.token, { json }, { 'idempotency-key': key });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    const queued = await sends();
    expect(queued.map((command) => command.connectionId).sort()).toEqual([mine.id, theirs.id].sort());
  });

  it('sends once when ten requests with one key arrive together; the others replay or say in use (409)', async () => {
    const { token } = await createConnection(tenant);
    const key = uniq('race-');
    const json = { number: '5511977770005', body: 'only once' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(token, { json }, { 'idempotency-key': key })));
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.every((status) => status === 200 || status === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(answers.filter((answer) => answer.status === 200 && !answer.headers['idempotent-replayed'])).toHaveLength(1);
    for (const busy of answers.filter((answer) => answer.status === 409)) {
      expect(busy.body.error).toBe('ERR_IDEMPOTENCY_KEY_IN_USE');
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.headers['ratelimit-limit']).toBe(String(EXTERNAL_API_LIMIT));
    }
    expect(await sends()).toHaveLength(1);
    // The client retries the 409s: they get the first answer.
    const retry = await send(token, { json }, { 'idempotency-key': key });
    expect(retry).toMatchObject({ status: 200, body: { mensagem: 'Mensagem enviada' } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await sends()).toEqual([]);
  });

  it('replays a refusal too: an invalid number stays 400 with the key', async () => {
    const { token } = await createConnection(tenant);
    const key = uniq('bad-number-');
    const first = await send(token, { json: { number: '123', body: 'x' } }, { 'idempotency-key': key });
    const again = await send(token, { json: { number: '123', body: 'x' } }, { 'idempotency-key': key });
    expect(first).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_INVALID_CONTACT' } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('takes keys on multipart sends: the same fields and file replay, another file is 422', async () => {
    const { token } = await createConnection(tenant);
    const key = uniq('media-');
    const form = (bytes: string): FormPart[] => [
      { name: 'number', value: '5511977770006' },
      { name: 'body', value: 'boleto' },
      { name: 'medias', value: Buffer.from(bytes), filename: 'boleto.pdf', contentType: 'application/pdf' },
    ];
    const first = await send(token, { form: form('%PDF-1.4 one') }, { 'idempotency-key': key });
    // A new FormData has a new boundary: the body is its fields and the file, not the bytes on the wire.
    const retry = await send(token, { form: form('%PDF-1.4 one') }, { 'idempotency-key': key });
    const otherFile = await send(token, { form: form('%PDF-1.4 two') }, { 'idempotency-key': key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(otherFile).toMatchObject({ status: 422, body: { error: 'ERR_IDEMPOTENCY_KEY_REUSED' } });
    expect(await sends()).toHaveLength(1);
  });

  it('refuses an empty key or one over 255 characters with 400, sending nothing; 255 of any characters pass', async () => {
    const { token } = await createConnection(tenant);
    const json = { number: '5511977770007', body: 'x' };
    for (const key of ['', 'k'.repeat(IDEMPOTENCY_KEY_MAX + 1), '😀'.repeat(IDEMPOTENCY_KEY_MAX + 1)]) {
      const res = await send(token, { json }, { 'idempotency-key': key });
      expect(res.status, key.slice(0, 10)).toBe(400);
      expect(res.body.error).toBe('ERR_IDEMPOTENCY_KEY_INVALID');
      expect(res.body.message).toMatch(/1 to 255 characters/);
    }
    expect(await sends()).toEqual([]);
    for (const key of ['k'.repeat(IDEMPOTENCY_KEY_MAX), '😀'.repeat(IDEMPOTENCY_KEY_MAX), ' {"x":1}/#\\ ']) {
      expect((await send(token, { json }, { 'idempotency-key': key })).status).toBe(200);
    }
    expect(await sends()).toHaveLength(3);
  });
});

describe('answerOnce', () => {
  it('gives the key back after a 5xx answer or a throw, so the retry runs', async () => {
    const key = uniq('fail-');
    let runs = 0;
    const failing = async () => {
      runs++;
      return { status: 503, body: { error: 'ERR_INTERNAL' } };
    };
    expect(await answerOnce(tenant.companyId, key, 'h', failing)).toMatchObject({ replayed: false, answer: { status: 503 } });
    await expect(
      answerOnce(tenant.companyId, key, 'h', async () => {
        runs++;
        throw new Error('queue down');
      }),
    ).rejects.toThrow('queue down');
    const ok = await answerOnce(tenant.companyId, key, 'h', async () => {
      runs++;
      return { status: 200, body: { sent: true } };
    });
    expect(ok).toMatchObject({ replayed: false, answer: { status: 200 } });
    expect(await answerOnce(tenant.companyId, key, 'h', failing)).toEqual({
      replayed: true,
      answer: { status: 200, body: { sent: true } },
    });
    expect(runs).toBe(3);
  });

  it('holds a claim whose request died until its lock runs out, then lets the same body take it over', async () => {
    const key = uniq('dead-');
    const now = Date.now();
    const claimedAt = Math.floor(now / 1000);
    // A request claimed the key and died before answering (its Lambda timed out).
    const { createHash } = await import('node:crypto');
    await claimIdempotencyKey(
      tenant.companyId,
      createHash('sha256').update(key).digest('hex'),
      { bodyHash: 'h', claimId: 'dead', lockedUntil: claimedAt + CLAIM_LOCK_SECONDS, expiresAt: claimedAt + 86_400 },
      claimedAt,
    );
    const produce = async () => ({ status: 200, body: { ok: 1 } });
    await expect(answerOnce(tenant.companyId, key, 'h', produce, now + 30_000)).rejects.toMatchObject({
      code: 'ERR_IDEMPOTENCY_KEY_IN_USE',
    });
    const later = now + (CLAIM_LOCK_SECONDS + 1) * 1000;
    await expect(answerOnce(tenant.companyId, key, 'other', produce, later)).rejects.toMatchObject({ code: 'ERR_IDEMPOTENCY_KEY_REUSED' });
    expect(await answerOnce(tenant.companyId, key, 'h', produce, later)).toEqual({
      replayed: false,
      answer: { status: 200, body: { ok: 1 } },
    });
    // A day later the key is new again, whatever TTL has not yet swept.
    const dayLater = later + 86_401_000;
    expect(await answerOnce(tenant.companyId, key, 'another', produce, dayLater)).toMatchObject({ replayed: false });
  });
});
