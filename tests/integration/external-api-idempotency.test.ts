/**
 * Issue 23 §3 over the local stack: a developer whose first POST /api/messages/send seemed lost
 * retries it with the same Idempotency-Key. The contact's phone (the simulator) gets the message
 * once, both answers are the same (the retry marked Idempotent-Replayed), and both carry the
 * token's RateLimit-* headers. The headers travel through the HTTP gateway, not only the handler.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import { type ConnectionSetup, connectedConnection, type Simulator, simulator, sleep, waitUntil } from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
const apiToken = `idempotency-${randomUUID()}`;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'idempotency');
  setup = await connectedConnection(call, sim, {
    token: tenant.admin.token,
    companyId: tenant.companyId,
    queues: ['Retries'],
    connection: { token: apiToken },
  });
}, 60_000);

/** As a developer's HTTP client calls it, with the header the shared client does not set. */
async function sendWithKey(key: string, json: unknown) {
  const res = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/api/messages/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

describe('Idempotency-Key on the external API', () => {
  it('two sends with one key put one message on the phone and answer alike', async () => {
    // Prepare
    const number = `55219${randomInt(10_000_000, 99_999_999)}`;
    const key = randomUUID();
    const text = `Pedido ${randomInt(1e6)} confirmado`;
    // Act: the first answer "got lost"; the client sends again with the same key.
    const first = await sendWithKey(key, { number, body: text });
    const retry = await sendWithKey(key, { number, body: text });
    // Assess
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(retry.status).toBe(first.status);
    expect(retry.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    for (const answer of [first, retry]) {
      expect(answer.headers.get('ratelimit-limit')).toBe('60');
      expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
    expect(Number(retry.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
    const fromUs = async () => (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us' && m.body === text);
    await waitUntil('the message on the phone', async () => (await fromUs()).length > 0);
    // A second copy would follow the first within the session's send loop: give it time to show.
    await sleep(3000);
    expect(await fromUs()).toHaveLength(1);
  }, 60_000);
});
