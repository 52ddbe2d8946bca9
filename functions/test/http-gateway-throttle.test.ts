/**
 * The local HTTP API throttles each route as the deployed stage does (declarations/api-throttles.ts):
 * a request over its route's bucket gets API Gateway's own 429 and no Lambda runs; other routes
 * keep their own buckets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpGateway, startHttpGateway } from '../../infra/local/http-gateway.ts';

let gateway: HttpGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${gateway!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('local HTTP API throttling', () => {
  it("refuses a route's request over its bucket with 429 before any handler, per route, and refills", async () => {
    // Prepare: the auth handler loaded once (its first import takes longer than a refill), then a
    // gateway whose every route may take 2 at once, refilled at one every 2 s (slow enough that three
    // requests in a row fit well inside a refill on a loaded machine: at 5 a second, a full run's
    // load once let the third through)
    gateway = await startHttpGateway({ port: 0, log: () => undefined });
    expect((await post('/auth/login', {})).status).toBe(400);
    await gateway.close();
    gateway = await startHttpGateway({ port: 0, log: () => undefined, routeThrottle: () => ({ rateLimit: 0.5, burstLimit: 2 }) });
    // Act: three sign-ins without credentials (the handler answers 400), one after another
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post('/auth/login', {}));
    const other = await post('/auth/refresh_token', {});
    // Assess
    expect(answers.map((a) => a.status)).toEqual([400, 400, 429]);
    expect(answers[2]!.body).toEqual({ message: 'Too Many Requests' });
    expect(other.status).not.toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await post('/auth/login', {})).status).toBe(400);
  });
});
