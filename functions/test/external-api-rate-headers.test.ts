/**
 * RateLimit-* headers on POST /api/messages/send (issue 23 §3): every answer to a known connection
 * token, a success, a refusal (400, 403; 409 and 422 in external-api-idempotency) or the 429 itself, tells the token's limit, what is
 * left of it in this window and the seconds until the window resets; the 429 also carries
 * Retry-After and a message a developer can act on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_API_LIMIT } from '#domain/external-api/send';
import { createConnection, type Env, invoke, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let tenant: Tenant;

beforeAll(async () => {
  env = await startEnv();
  tenant = await seedTenant(env.stack);
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  await env.commands.drain();
});

const sendApi = (token: string, json: unknown) => invoke('POST /api/messages/send', { token, json });

function rateOf(headers: Record<string, string>) {
  return {
    limit: Number(headers['ratelimit-limit']),
    remaining: Number(headers['ratelimit-remaining']),
    reset: Number(headers['ratelimit-reset']),
  };
}

/** Stay inside one fixed window of the token. */
async function startOfAWindow(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

describe('RateLimit headers', () => {
  it('count down on successes and refusals alike, with the seconds left in the window', async () => {
    await startOfAWindow();
    const { token } = await createConnection(tenant);
    const sent = await sendApi(token, { number: '5511977771001', body: 'hi' });
    const refused = await sendApi(token, { number: '123', body: 'hi' });
    const blank = await sendApi(token, { number: '5511977771001', body: '  ' });
    const again = await sendApi(token, { number: '5511977771001', body: 'again' });
    expect(sent.status).toBe(200);
    expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_INVALID_CONTACT' } });
    expect(blank).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(again.status).toBe(200);
    expect([sent, refused, blank, again].map((answer) => rateOf(answer.headers).remaining)).toEqual([
      EXTERNAL_API_LIMIT - 1,
      EXTERNAL_API_LIMIT - 2,
      EXTERNAL_API_LIMIT - 3,
      EXTERNAL_API_LIMIT - 4,
    ]);
    for (const answer of [sent, refused, blank]) {
      const rate = rateOf(answer.headers);
      expect(rate.limit).toBe(EXTERNAL_API_LIMIT);
      expect(rate.reset).toBeGreaterThanOrEqual(1);
      expect(rate.reset).toBeLessThanOrEqual(60);
    }
  });

  it("are on a 403 of a company whose plan lacks the API, but not on an unknown token's 401 (no window to tell)", async () => {
    const noApi = await seedTenant(env.stack, { plan: { useExternalApi: false } });
    const { token } = await createConnection(noApi);
    const forbidden = await sendApi(token, { number: '5511977771002', body: 'hi' });
    expect(forbidden).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    expect(rateOf(forbidden.headers)).toMatchObject({ limit: EXTERNAL_API_LIMIT, remaining: EXTERNAL_API_LIMIT - 1 });
    const unknown = await sendApi('an-unknown-token-of-32-characters', { number: '5511977771002', body: 'hi' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers['ratelimit-limit']).toBeUndefined();
  });

  it('reach 0 at the last allowed request; the 429 after it carries them, Retry-After and a message', async () => {
    await startOfAWindow();
    const { token } = await createConnection(tenant);
    const answers = await Promise.all(Array.from({ length: EXTERNAL_API_LIMIT }, () => sendApi(token, { number: '1', body: 'x' })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(EXTERNAL_API_LIMIT).fill(400));
    expect(answers.map((answer) => rateOf(answer.headers).remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: EXTERNAL_API_LIMIT }, (_, i) => i),
    );
    const limited = await sendApi(token, { number: '5511977771003', body: 'one too many' });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_TOO_MANY_REQUESTS');
    expect(limited.body.message).toMatch(/retry after \d+ s/);
    const rate = rateOf(limited.headers);
    expect(rate).toMatchObject({ limit: EXTERNAL_API_LIMIT, remaining: 0 });
    expect(Number(limited.headers['retry-after'])).toBe(rate.reset);
    expect(rate.reset).toBeGreaterThanOrEqual(1);
    expect(rate.reset).toBeLessThanOrEqual(60);
  }, 60_000);
});
