/**
 * One attempt of a webhook delivery (issue 23 §2), made by the `webhook-deliveries` consumer:
 *
 * 1. The delivery and its endpoint are read. Nothing is sent when the delivery is gone, already
 *    settled, or of an older round than the attempt (a resend started a new one), nor when the
 *    endpoint is deleted, or switched off and the delivery is not one an admin asked for (a test
 *    event, a resend): the log says why.
 * 2. POST of the stored body with X-Conversa-Event, X-Conversa-Delivery (the delivery's id, the
 *    same on every attempt) and X-Conversa-Signature, signed now with the endpoint's current secret.
 * 3. A 2xx settles it. Anything else (another status, a timeout, a refused address) is failed
 *    attempt n: the retry is parked until its time (backoff.ts) on the retries queue, and the log
 *    shows it pending with nextRetryAt; when the window is spent the log shows it failed and the
 *    attempt goes to the DLQ.
 * 4. The endpoint's failure streak: the first failure since a success is remembered; a failure a
 *    whole window after it switches the endpoint off (once), tells the company's admins and records
 *    it in the company's audit trail as the system's act (no user).
 *
 * The retry is queued before the log is written: if the log write fails, the attempt is retried by
 * the queue and may be posted twice (at least once, never lost).
 */

import type { PostOutcome } from '#adapters/webhook-post';
import type { DeliveryAttempt } from '#adapters/webhook-queue';
import { logger } from '#commons/logger';
import { openSecret, SecretUnreadableError } from '#commons/secrets';
import { WEBHOOK_HEADERS, type WebhookChangeEvent, webhookChannel } from '#contracts/webhooks';
import { changesOf, recordAudit } from '#domain/audit/record';
import { audience, publishToCompany } from '#realtime/publisher';
import * as deliveries from '#storage/webhooks/deliveries';
import * as store from '#storage/webhooks/webhooks';
import { nextRetryAt, type RetryPolicy } from './backoff.ts';
import { signWebhookBody } from './signing.ts';

export interface DeliverDeps {
  post(url: string, headers: Record<string, string>, body: string): Promise<PostOutcome>;
  queueRetry(item: DeliveryAttempt & { dueAt: string }): Promise<void>;
  queueGivenUp(item: DeliveryAttempt, reason: string): Promise<void>;
  policy: RetryPolicy;
  now(): Date;
  random(): number;
}

export type AttemptResult = 'succeeded' | 'retrying' | 'failed' | 'skipped';

const notifyDisabled = (companyId: number, id: number) =>
  publishToCompany(companyId, webhookChannel(companyId), { action: 'disabled', id } satisfies WebhookChangeEvent, audience.admins);

export async function attemptDelivery(item: DeliveryAttempt, deps: DeliverDeps): Promise<AttemptResult> {
  const { companyId, endpointId, deliveryId, round } = item;
  const [delivery, endpoint] = await Promise.all([
    deliveries.getDelivery(companyId, endpointId, deliveryId),
    store.getWebhook(companyId, endpointId),
  ]);
  if (!delivery || delivery.round !== round || delivery.status !== 'pending') return 'skipped';
  const settle = (error: string) =>
    deliveries.recordAttempt(companyId, endpointId, deliveryId, round, {
      status: 'failed',
      responseCode: null,
      latencyMs: null,
      error,
      nextRetryAt: null,
      lastAttemptAt: null,
    });
  if (!endpoint) {
    await settle('endpoint deleted');
    return 'skipped';
  }
  if (!endpoint.enabled && !delivery.explicit) {
    await settle('endpoint disabled');
    return 'skipped';
  }

  let secret: string;
  try {
    secret = await openSecret(endpoint.secretSealed);
  } catch (error) {
    // Sealed under another key (a lost secrets key): nothing can be signed until the admin rotates it.
    if (!(error instanceof SecretUnreadableError)) throw error;
    await settle('secret unreadable: rotate the secret');
    return 'skipped';
  }
  const now = deps.now();
  const headers = {
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.event]: delivery.event,
    [WEBHOOK_HEADERS.delivery]: delivery.id,
    [WEBHOOK_HEADERS.signature]: signWebhookBody(secret, delivery.body, Math.floor(now.getTime() / 1000)),
  };
  const outcome = await deps.post(endpoint.url, headers, delivery.body);
  const at = deps.now().toISOString();
  const measured = { responseCode: outcome.status, latencyMs: outcome.latencyMs, error: outcome.error, lastAttemptAt: at };

  if (outcome.error === null) {
    await deliveries.recordAttempt(companyId, endpointId, deliveryId, round, { ...measured, status: 'succeeded', nextRetryAt: null });
    if (endpoint.failingSince) await store.markWebhookAnswering(companyId, endpointId);
    return 'succeeded';
  }

  const due = nextRetryAt(new Date(delivery.roundStartedAt), item.attempt, deps.now(), deps.policy, deps.random);
  let result: AttemptResult;
  if (due) {
    await deps.queueRetry({ ...item, attempt: item.attempt + 1, dueAt: due.toISOString() });
    await deliveries.recordAttempt(companyId, endpointId, deliveryId, round, {
      ...measured,
      status: 'pending',
      nextRetryAt: due.toISOString(),
    });
    result = 'retrying';
  } else {
    await deps.queueGivenUp(item, outcome.error);
    await deliveries.recordAttempt(companyId, endpointId, deliveryId, round, { ...measured, status: 'failed', nextRetryAt: null });
    result = 'failed';
  }
  await watchFailingEndpoint(companyId, endpointId, at, deps.policy);
  return result;
}

/** Remembers the streak's start; switches the endpoint off once it has failed for a whole window. */
async function watchFailingEndpoint(companyId: number, endpointId: number, at: string, policy: RetryPolicy): Promise<void> {
  const marked = await store.markWebhookFailing(companyId, endpointId, at);
  if (!marked?.enabled || !marked.failingSince) return;
  if (Date.parse(at) - Date.parse(marked.failingSince) < policy.windowSeconds * 1000) return;
  if (await store.disableFailingWebhook(companyId, endpointId, marked.failingSince, at)) {
    logger.warn('webhook endpoint disabled after failing for its whole retry window', {
      companyId,
      endpointId,
      since: marked.failingSince,
    });
    await recordAudit({
      action: 'webhook.disable',
      targetType: 'webhook',
      targetId: endpointId,
      companyId,
      userId: null,
      userName: null,
      changes: changesOf({ enabled: true, disabledReason: null }, { enabled: false, disabledReason: 'failing' }),
      now: new Date(at),
    });
    await notifyDisabled(companyId, endpointId);
  }
}
