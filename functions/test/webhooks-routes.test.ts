/**
 * Webhooks (issue 23 §2) over DynamoDB Local, cognito-local and fauxqs, the consumers driven by
 * hand: the endpoints' routes and their validation, the tenant URL guard on (no loopback, private,
 * metadata or IPv4-mapped addresses), the secret shown once, a test event and an inbox event posted
 * signed to a receiver on 127.0.0.1 (the local stack's switch on for that part), retries that keep
 * the delivery id, a disabled endpoint that gets nothing, the switch-off after a failing window,
 * resend, and the attacks: another tenant, a plain user, a forged token, a plan without the API,
 * garbage in every field and parameter.
 */
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { releaseAttempts } from '#adapters/webhook-queue';
import { verifyWebhookSignature } from '#domain/webhooks/signing';
import { getWebhook } from '#storage/webhooks/webhooks';
import { consume } from '../src/handlers/consumers/webhook-deliveries.ts';
import { handler as retries } from '../src/handlers/consumers/webhook-retries.ts';
import { call, seedTenant, type Tenant } from './users-harness.ts';
import { consumerDeps, deliveriesOf, deliverQueued, drain, sqsEvent, startWebhookEnv, type WebhookEnv } from './webhooks-harness.ts';

let env: WebhookEnv;
let a: Tenant;
let b: Tenant;
let plainUser: { token: string };

beforeAll(async () => {
  env = await startWebhookEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  plainUser = await a.addUser('user');
}, 120_000);

afterAll(() => env?.stop());

beforeEach(() => {
  // The receiver is on loopback: the tests that post to it switch the guard off themselves.
  delete process.env.ALLOW_PRIVATE_BOT_URLS;
  env.received.length = 0;
  env.answers.length = 0;
});

type Body = Record<string, unknown>;
const PUBLIC_URL = 'https://93.184.215.14/hooks/conversa';
const create = (body: Body, token = a.admin.token) => call('POST /webhooks', { token, body });

/** Waits for the parked retry (DelaySeconds) and hands it back to the FIFO queue, as its consumer does. */
async function moveDueRetry(): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const messages = await drain(env, env.urls.retries, 10, 2);
    if (messages.length) {
      expect((await retries(sqsEvent(messages))).batchItemFailures).toEqual([]);
      return;
    }
    if (Date.now() > deadline) throw new Error('no retry was parked');
  }
}

describe('webhook endpoints', () => {
  it('creates an endpoint and shows its secret once; events come back in the catalogue order', async () => {
    const made = await create({ url: PUBLIC_URL, events: ['ticket.closed', 'message.received'], description: 'Loja' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      url: PUBLIC_URL,
      events: ['message.received', 'ticket.closed'],
      description: 'Loja',
      enabled: true,
      disabledReason: null,
    });
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const got = await call('GET /webhooks/{id}', { token: a.admin.token, params: { id: made.body.id } });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain(made.body.secret);
    const listed = await call('GET /webhooks', { token: a.admin.token });
    expect(listed.body.webhooks.map((w: Body) => w.id)).toContain(made.body.id);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    const rotated = await call('POST /webhooks/{id}/rotate-secret', { token: a.admin.token, params: { id: made.body.id } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.body.secret);

    const put = await call('PUT /webhooks/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { enabled: false, description: '', events: ['contact.created'] },
    });
    expect(put.body).toMatchObject({ enabled: false, description: '', events: ['contact.created'], url: PUBLIC_URL });
    expect((await call('DELETE /webhooks/{id}', { token: a.admin.token, params: { id: made.body.id } })).status).toBe(204);
    expect((await call('GET /webhooks/{id}', { token: a.admin.token, params: { id: made.body.id } })).status).toBe(404);
  });

  it('names the field of bad input', async () => {
    const cases: [Body, string][] = [
      [{ events: ['message.received'] }, 'url'],
      [{ url: 'ftp://93.184.215.14/x', events: ['message.received'] }, 'url'],
      [{ url: 'javascript:alert(1)', events: ['message.received'] }, 'url'],
      [{ url: 'https://user:pw@93.184.215.14/x', events: ['message.received'] }, 'url'],
      [{ url: PUBLIC_URL, events: [] }, 'events'],
      [{ url: PUBLIC_URL }, 'events'],
      [{ url: PUBLIC_URL, events: ['message.deleted'] }, 'events.0'],
      [{ url: PUBLIC_URL, events: 'message.received' }, 'events'],
      [{ url: PUBLIC_URL, events: ['ticket.created'], description: 'x'.repeat(201) }, 'description'],
      [{ url: PUBLIC_URL, events: ['ticket.created'], enabled: 'yes' }, 'enabled'],
      [{ url: ['x'], events: ['ticket.created'] }, 'url'],
    ];
    for (const [body, field] of cases) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    expect((await call('GET /webhooks', { token: a.admin.token })).body.webhooks).toEqual([]);
  });

  it('refuses loopback, private, link-local/metadata and IPv4-mapped addresses while the guard is on', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:7f00:1]/hook',
      'http://0x7f.1/hook',
      'http://2130706433/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.8/hook',
      'http://192.168.1.20/hook',
      'http://localhost:3000/hook',
    ]) {
      const answer = await create({ url, events: ['message.received'] });
      expect(answer.status, url).toBe(400);
      expect(answer.body, url).toMatchObject({ error: 'ERR_VALIDATION', field: 'url' });
    }
    const made = await create({ url: PUBLIC_URL, events: ['message.received'] });
    const moved = await call('PUT /webhooks/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { url: 'http://[::ffff:10.1.2.3]/' },
    });
    expect(moved.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'url' });
    await call('DELETE /webhooks/{id}', { token: a.admin.token, params: { id: made.body.id } });
  });

  it('keeps at most 10 endpoints a company', async () => {
    const lonely = await seedTenant(env.stack);
    for (let i = 0; i < 10; i++)
      expect((await create({ url: PUBLIC_URL, events: ['ticket.created'] }, lonely.admin.token)).status).toBe(201);
    const refused = await create({ url: PUBLIC_URL, events: ['ticket.created'] }, lonely.admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'ERR_WEBHOOK_LIMIT', max: 10 });
  });
});

describe('webhook deliveries', () => {
  it('posts a signed test event, logs it, and resends it with the same delivery id', async () => {
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const made = await create({ url: env.receiverUrl, events: ['message.received'] });
    expect(made.status).toBe(201);
    const test = await call('POST /webhooks/{id}/test', { token: a.admin.token, params: { id: made.body.id } });
    expect(test.status).toBe(201);
    expect(test.body).toMatchObject({ event: 'ping', status: 'pending', attempts: 0 });
    expect(await deliverQueued(env)).toBe(1);
    expect(env.received).toHaveLength(1);
    const [first] = env.received;
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.headers['x-conversa-event']).toBe('ping');
    expect(first?.headers['x-conversa-delivery']).toBe(test.body.id);
    expect(verifyWebhookSignature(String(first?.headers['x-conversa-signature']), first?.body ?? '', made.body.secret)).toBe(true);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({
      id: test.body.id,
      event: 'ping',
      companyId: a.companyId,
      data: { webhookId: made.body.id },
    });
    expect((await deliveriesOf(a.admin.token, made.body.id))[0]).toMatchObject({
      id: test.body.id,
      status: 'succeeded',
      attempts: 1,
      responseCode: 200,
    });

    const resent = await call('POST /webhooks/{id}/deliveries/{deliveryId}/resend', {
      token: a.admin.token,
      params: { id: made.body.id, deliveryId: test.body.id },
    });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: test.body.id, status: 'pending' });
    await deliverQueued(env);
    expect(env.received).toHaveLength(2);
    expect(env.received[1]?.headers['x-conversa-delivery']).toBe(test.body.id);
    expect(env.received[1]?.body).toBe(first?.body);
    expect((await deliveriesOf(a.admin.token, made.body.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('sends an inbox event to the endpoints that want it, retries a 500 with the same delivery id, and sends nothing to a disabled one', async () => {
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const tenant = await seedTenant(env.stack);
    const wants = await create({ url: env.receiverUrl, events: ['contact.created'] }, tenant.admin.token);
    const other = await create({ url: env.receiverUrl, events: ['ticket.created'] }, tenant.admin.token);
    const off = await create({ url: env.receiverUrl, events: ['contact.created'], enabled: false }, tenant.admin.token);
    expect([wants.status, other.status, off.status]).toEqual([201, 201, 201]);
    env.answers.push(500, 503);
    const contact = await call('POST /contacts', { token: tenant.admin.token, body: { name: 'Ana 😀', number: '5511988887777' } });
    expect(contact.status).toBe(201);
    expect(await deliverQueued(env)).toBe(1);
    let log = await deliveriesOf(tenant.admin.token, wants.body.id);
    expect(log[0]).toMatchObject({ event: 'contact.created', status: 'pending', attempts: 1, responseCode: 500 });
    expect(log[0]?.nextRetryAt).toEqual(expect.any(String));
    await moveDueRetry();
    expect(await deliverQueued(env)).toBe(1);
    await moveDueRetry();
    expect(await deliverQueued(env)).toBe(1);
    expect(env.received.map((r) => r.headers['x-conversa-delivery'])).toEqual([log[0]?.id, log[0]?.id, log[0]?.id]);
    const payload = JSON.parse(env.received[2]?.body ?? '{}');
    expect(payload).toMatchObject({
      event: 'contact.created',
      companyId: tenant.companyId,
      data: { contact: { name: 'Ana 😀', number: '5511988887777' } },
    });
    expect(
      verifyWebhookSignature(String(env.received[2]?.headers['x-conversa-signature']), env.received[2]?.body ?? '', wants.body.secret),
    ).toBe(true);
    log = await deliveriesOf(tenant.admin.token, wants.body.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'succeeded', attempts: 3, responseCode: 200, nextRetryAt: null });
    expect(await deliveriesOf(tenant.admin.token, other.body.id)).toEqual([]);
    expect(await deliveriesOf(tenant.admin.token, off.body.id)).toEqual([]);
  });

  it('fails a delivery whose window ran out (into the DLQ) and switches off an endpoint failing for a whole window', async () => {
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const made = await create({ url: env.receiverUrl, events: ['message.received'] });
    env.answers.push(500, 500, 500, 500);
    await call('POST /webhooks/{id}/test', { token: a.admin.token, params: { id: made.body.id } });
    // A window of 1 s: the first retry (1 s away) would fall past it.
    await deliverQueued(env, 10, 1);
    expect((await getWebhook(a.companyId, made.body.id))?.failingSince).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await call('POST /webhooks/{id}/test', { token: a.admin.token, params: { id: made.body.id } });
    await deliverQueued(env, 10, 1);
    const after = await call('GET /webhooks/{id}', { token: a.admin.token, params: { id: made.body.id } });
    expect(after.body).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const given = [...(await drain(env, env.urls.dlq, 10, 1)), ...(await drain(env, env.urls.dlq, 10, 1))];
    expect(given.map((m) => JSON.parse(m.Body ?? '{}').reason)).toEqual(['HTTP 500', 'HTTP 500']);
    const log = await deliveriesOf(a.admin.token, made.body.id);
    expect(log.map((d) => [d.status, d.attempts, d.responseCode, d.nextRetryAt])).toEqual([
      ['failed', 1, 500, null],
      ['failed', 1, 500, null],
    ]);
    // Switched on again: the streak starts over, and nothing it missed is sent.
    const on = await call('PUT /webhooks/{id}', { token: a.admin.token, params: { id: made.body.id }, body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await drain(env, env.urls.retries, 10, 0);
    expect(await drain(env, env.urls.deliveries, 10, 0)).toEqual([]);
  });
});

describe('a slow endpoint', () => {
  it("does not hold back another endpoint's next attempt that shared its batch: a group done is released at once", async () => {
    // Prepare: two endpoints of one company, one that answers after 1.5 s, and a ping queued for each
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const c = await seedTenant(env.stack);
    const slow = await create({ url: env.receiverUrl.replace('/hook', '/slow-hook'), events: ['message.received'] }, c.admin.token);
    const fast = await create({ url: env.receiverUrl, events: ['message.received'] }, c.admin.token);
    const ping = (id: number) => call('POST /webhooks/{id}/test', { token: c.admin.token, params: { id } });
    await ping(slow.body.id);
    await ping(fast.body.id);
    const out = await env.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: env.urls.deliveries,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const batch = out.Messages ?? [];
    expect(new Set(batch.map((m) => m.Attributes?.MessageGroupId)).size).toBe(2);
    // The fast endpoint's next attempt, queued while its group is in flight in that batch
    await ping(fast.body.id);
    // Act: the consumer works the batch; meanwhile the queue is asked for more, as the event source does
    const consumed = consume(sqsEvent(batch), { ...consumerDeps(), release: releaseAttempts }).then(() => Date.now());
    let nextAt = 0;
    const next: Message[] = [];
    while (!nextAt) {
      const polled = await env.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: env.urls.deliveries, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      if (polled.Messages?.length) {
        next.push(...polled.Messages);
        nextAt = Date.now();
      }
    }
    const doneAt = await consumed;
    // Assess: the fast group's next attempt was handed out before the slow receiver had answered
    expect(next).toHaveLength(1);
    expect(nextAt).toBeLessThan(doneAt);
    await env.sqs.send(
      new DeleteMessageBatchCommand({ QueueUrl: env.urls.deliveries, Entries: [{ Id: '0', ReceiptHandle: next[0]?.ReceiptHandle ?? '' }] }),
    );
  });
});

describe('webhook attacks', () => {
  it("answers 404 for another company's endpoint or delivery, 403 to a plain user, 401 to a forged token", async () => {
    process.env.ALLOW_PRIVATE_BOT_URLS = '1';
    const mine = await create({ url: env.receiverUrl, events: ['message.received'] });
    const theirs = await create({ url: env.receiverUrl, events: ['message.received'] }, b.admin.token);
    const theirTest = await call('POST /webhooks/{id}/test', { token: b.admin.token, params: { id: theirs.body.id } });
    await deliverQueued(env);
    const id = theirs.body.id;
    const foreignId = Math.max(mine.body.id, theirs.body.id) + 1000;
    for (const target of [id === mine.body.id ? foreignId : id, foreignId]) {
      for (const [key, body] of [
        ['GET /webhooks/{id}', undefined],
        ['PUT /webhooks/{id}', { enabled: false }],
        ['DELETE /webhooks/{id}', undefined],
        ['POST /webhooks/{id}/rotate-secret', undefined],
        ['POST /webhooks/{id}/test', undefined],
        ['GET /webhooks/{id}/deliveries', undefined],
      ] as const) {
        const answer = await call(key, { token: a.admin.token, params: { id: target }, body });
        expect(answer.status, `${key} ${target}`).toBe(404);
        expect(answer.body).toEqual({ error: 'ERR_NOT_FOUND' });
      }
    }
    // Their delivery through my endpoint: not mine either.
    const resend = await call('POST /webhooks/{id}/deliveries/{deliveryId}/resend', {
      token: a.admin.token,
      params: { id: mine.body.id, deliveryId: theirTest.body.id },
    });
    expect(resend.status).toBe(404);
    expect((await call('GET /webhooks/{id}', { token: b.admin.token, params: { id } })).body.enabled).toBe(true);
    expect((await deliveriesOf(b.admin.token, id)).map((d) => d.attempts)).toEqual([1]);

    const forged = `${a.admin.token.slice(0, -6)}AAAAAA`;
    const routes = [
      ['GET /webhooks', {}],
      ['POST /webhooks', { body: { url: PUBLIC_URL, events: ['message.received'] } }],
      ['GET /webhooks/{id}', { params: { id: mine.body.id } }],
      ['PUT /webhooks/{id}', { params: { id: mine.body.id }, body: { enabled: false } }],
      ['DELETE /webhooks/{id}', { params: { id: mine.body.id } }],
      ['POST /webhooks/{id}/rotate-secret', { params: { id: mine.body.id } }],
      ['POST /webhooks/{id}/test', { params: { id: mine.body.id } }],
      ['GET /webhooks/{id}/deliveries', { params: { id: mine.body.id } }],
      ['POST /webhooks/{id}/deliveries/{deliveryId}/resend', { params: { id: mine.body.id, deliveryId: theirTest.body.id } }],
    ] as const;
    for (const [key, opts] of routes) {
      const asUser = await call(key, { ...opts, token: plainUser.token });
      expect(asUser.status, key).toBe(403);
      expect(asUser.body.error).toBe('ERR_NO_PERMISSION');
      expect((await call(key, { ...opts, token: forged })).status, key).toBe(401);
      expect((await call(key, opts)).status, key).toBe(401);
    }
    expect((await call('GET /webhooks/{id}', { token: a.admin.token, params: { id: mine.body.id } })).body.enabled).toBe(true);
  });

  it('refuses a plan without the external API', async () => {
    const noApi = await seedTenant(env.stack, { plan: { useExternalApi: false } });
    const answer = await call('GET /webhooks', { token: noApi.admin.token });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });

  it('answers garbage in ids, the page number and the delivery id with a clean 400', async () => {
    const made = await create({ url: PUBLIC_URL, events: ['message.received'] });
    for (const id of ['abc', '-1', '0', '1.5', "1' OR 1=1", '9'.repeat(30)]) {
      const answer = await call('GET /webhooks/{id}', { token: a.admin.token, params: { id } });
      expect(answer.status, id).toBe(400);
      expect(answer.body.error).toBe('ERR_VALIDATION');
    }
    for (const pageNumber of ['0', '-1', 'x', '1.5', '51', '99999999999']) {
      const answer = await call('GET /webhooks/{id}/deliveries', {
        token: a.admin.token,
        params: { id: made.body.id },
        query: { pageNumber },
      });
      expect(answer.status, pageNumber).toBe(400);
      expect(answer.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'pageNumber' });
    }
    for (const deliveryId of ['x', 'whd_', 'whd_ZZZZZZZZZZ0000000000000000', '../../etc', 'whd_0000000000000000000000000']) {
      const answer = await call('POST /webhooks/{id}/deliveries/{deliveryId}/resend', {
        token: a.admin.token,
        params: { id: made.body.id, deliveryId },
      });
      expect(answer.status, deliveryId).toBe(400);
    }
    const unknown = await call('POST /webhooks/{id}/deliveries/{deliveryId}/resend', {
      token: a.admin.token,
      params: { id: made.body.id, deliveryId: 'whd_0000000000aaaaaaaaaaaaaaaa' },
    });
    expect(unknown.status).toBe(404);
    for (const body of [null, [], 'text', 42, { url: { $gt: '' }, events: [{}] }]) {
      const answer = await call('POST /webhooks', { token: a.admin.token, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });
});
