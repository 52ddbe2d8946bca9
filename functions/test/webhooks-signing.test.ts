/**
 * Webhook signatures and the retry schedule (issue 23 §2), no network: what a receiver checks
 * (the body, the secret, a recent timestamp), and when a failed delivery comes back.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, nextRetryAt, retryDelaySeconds, retryPolicyOf } from '#domain/webhooks/backoff';
import { signWebhookBody, verifyWebhookSignature } from '#domain/webhooks/signing';

const secret = 'whsec_test-secret';
const body = JSON.stringify({ id: 'whd_1', event: 'message.received', companyId: 7, data: { text: 'Olá 😀' } });

describe('webhook signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">, as a receiver recomputes it by hand', () => {
    const header = signWebhookBody(secret, body, 1_764_600_000);
    const expected = createHmac('sha256', secret).update(`1764600000.${body}`).digest('hex');
    expect(header).toBe(`t=1764600000,v1=${expected}`);
  });

  it('verifies the body it signed, and nothing else', () => {
    const now = 1_764_600_000;
    const header = signWebhookBody(secret, body, now);
    expect(verifyWebhookSignature(header, body, secret, { nowSeconds: now + 10 })).toBe(true);
    expect(verifyWebhookSignature(header, `${body} `, secret, { nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature(header, body, 'whsec_other', { nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature(header.replace(`t=${now}`, `t=${now + 1}`), body, secret, { nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature('garbage', body, secret, { nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature(`t=${now},v1=zz`, body, secret, { nowSeconds: now })).toBe(false);
  });

  it('rejects a stale timestamp (a replayed request) beyond the tolerance', () => {
    const then = 1_764_600_000;
    const header = signWebhookBody(secret, body, then);
    expect(verifyWebhookSignature(header, body, secret, { nowSeconds: then + 299 })).toBe(true);
    expect(verifyWebhookSignature(header, body, secret, { nowSeconds: then + 301 })).toBe(false);
  });
});

describe('retry schedule', () => {
  const middle = () => 0.5;

  it('grows by 3 from 30 s, the first retry within a minute whatever the jitter', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelaySeconds(n, DEFAULT_RETRY_POLICY, middle))).toEqual([30, 90, 270, 810, 2430, 7290]);
    expect(retryDelaySeconds(1, DEFAULT_RETRY_POLICY, () => 0.999)).toBeLessThanOrEqual(36);
    expect(retryDelaySeconds(1, DEFAULT_RETRY_POLICY, () => 0)).toBeGreaterThanOrEqual(24);
  });

  it('caps each wait at 4 hours and jitters it by ±20 %', () => {
    expect(retryDelaySeconds(12, DEFAULT_RETRY_POLICY, middle)).toBe(4 * 3600);
    expect(retryDelaySeconds(12, DEFAULT_RETRY_POLICY, () => 0)).toBe(0.8 * 4 * 3600);
    expect(retryDelaySeconds(12, DEFAULT_RETRY_POLICY, () => 1)).toBe(1.2 * 4 * 3600);
  });

  it('retries for about a day, then stops', () => {
    const start = new Date('2026-12-01T00:00:00Z');
    let now = start;
    let attempts = 1;
    for (;;) {
      const next = nextRetryAt(start, attempts, now, DEFAULT_RETRY_POLICY, middle);
      if (!next) break;
      now = next;
      attempts++;
    }
    const hours = (now.getTime() - start.getTime()) / 3_600_000;
    expect(hours).toBeGreaterThan(20);
    expect(hours).toBeLessThanOrEqual(24);
    expect(attempts).toBe(12);
  });

  it('reads a shorter schedule from the environment, and ignores nonsense there', () => {
    expect(retryPolicyOf({ base: '2' })).toEqual({ baseSeconds: 2, windowSeconds: 86_400 });
    expect(retryPolicyOf({ base: '-1', window: 'abc' })).toEqual(DEFAULT_RETRY_POLICY);
    expect(retryDelaySeconds(1, retryPolicyOf({ base: '2' }), middle)).toBe(2);
  });
});
