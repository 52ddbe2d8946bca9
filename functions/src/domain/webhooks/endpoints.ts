/**
 * Webhook endpoints of a company (issue 23 §2): admin-only routes (routes.ts). An id of another
 * company is "not found", as is a delivery of another endpoint.
 *
 * - The URL goes through the tenant URL guard when it is saved (and again at every delivery): a
 *   private, loopback or metadata address, or a name resolving to one, is a 400 on `url`. The local
 *   stack lets loopback through (ALLOW_PRIVATE_BOT_URLS, as for the bot fakes).
 * - The secret (`whsec_` + 32 random bytes, base64url) is shown in the create and rotate answers
 *   only; it is stored sealed. Rotating takes effect at the next attempt, retries included.
 * - Turning an endpoint on again starts its failure streak over and sends nothing it missed while
 *   off; a delivery is sent again only when asked (resend).
 * Changes are published on `company-{id}-webhook` to the admins, ids only, and recorded in the
 * company's audit trail (issue 21 §3) like every administrative act: create, update (before and
 * after), delete, a rotated secret and a resent delivery; the secret only ever as masked (it is
 * `secret` in the entry's changes, a name the trail masks). The automatic switch-off is recorded
 * where it happens, by the system (deliver.ts).
 */
import { randomBytes } from 'node:crypto';
import { assertTenantUrl, TenantUrlRefused } from '#adapters/tenant-url-guard';
import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import { sealSecret } from '#commons/secrets';
import {
  type CreateWebhookInput,
  MAX_WEBHOOKS_PER_COMPANY,
  type UpdateWebhookInput,
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  WEBHOOK_PING,
  type Webhook,
  type WebhookChangeEvent,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookWithSecret,
  webhookChannel,
  webhookMessages,
} from '#contracts/webhooks';
import { changesOf, recordAudit } from '#domain/audit/record';
import { audience, publishToCompany } from '#realtime/publisher';
import * as deliveries from '#storage/webhooks/deliveries';
import * as store from '#storage/webhooks/webhooks';
import { queueNewDelivery, restartAndQueue } from './emit.ts';

const publishChange = (companyId: number, event: WebhookChangeEvent) =>
  publishToCompany(companyId, webhookChannel(companyId), event, audience.admins);

/** An endpoint as its audit entries compare it: what an admin sets, the sealed secret under a name the trail masks. */
const audited = (record: store.WebhookRecord) => ({
  url: record.url,
  events: record.events,
  description: record.description,
  enabled: record.enabled,
  disabledReason: record.disabledReason ?? null,
  secret: record.secretSealed,
});

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export function presentWebhook(record: store.WebhookRecord): Webhook {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    description: record.description,
    enabled: record.enabled,
    disabledReason: record.disabledReason ?? null,
    disabledAt: record.disabledAt ?? null,
    failingSince: record.failingSince ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function presentDelivery(record: deliveries.WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: record.id,
    event: record.event,
    status: record.status,
    attempts: record.attempts,
    responseCode: record.responseCode,
    latencyMs: record.latencyMs,
    error: record.error,
    nextRetryAt: record.status === 'pending' ? record.nextRetryAt : null,
    createdAt: record.createdAt,
    lastAttemptAt: record.lastAttemptAt,
  };
}

async function findWebhook(companyId: number, id: number): Promise<store.WebhookRecord> {
  const record = await store.getWebhook(companyId, id);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

/** The guard's verdict on a URL, as a 400 on `url`. */
async function checkUrl(raw: string): Promise<string> {
  try {
    await assertTenantUrl(new URL(raw));
  } catch (error) {
    if (error instanceof TenantUrlRefused)
      throw new ValidationError('url', error.reason === 'private' ? webhookMessages.privateUrl : webhookMessages.unresolvable);
    throw new ValidationError('url', webhookMessages.url);
  }
  return raw;
}

export async function listWebhooksFor(companyId: number): Promise<{ webhooks: Webhook[] }> {
  const all = await store.listWebhooks(companyId);
  return { webhooks: all.sort((a, b) => a.id - b.id).map(presentWebhook) };
}

export const getWebhookFor = async (companyId: number, id: number): Promise<Webhook> => presentWebhook(await findWebhook(companyId, id));

export async function createWebhookFor(companyId: number, input: CreateWebhookInput): Promise<WebhookWithSecret> {
  if ((await store.listWebhooks(companyId)).length >= MAX_WEBHOOKS_PER_COMPANY)
    throw new ConflictError('ERR_WEBHOOK_LIMIT', { max: MAX_WEBHOOKS_PER_COMPANY });
  const url = await checkUrl(input.url);
  const secret = newWebhookSecret();
  const at = new Date().toISOString();
  const record = await store.createWebhook({
    companyId,
    id: await store.newWebhookId(companyId),
    url,
    events: input.events,
    description: input.description,
    enabled: input.enabled,
    disabledReason: null,
    disabledAt: null,
    secretSealed: await sealSecret(secret),
    createdAt: at,
    updatedAt: at,
  });
  await recordAudit({
    action: 'webhook.create',
    targetType: 'webhook',
    targetId: record.id,
    companyId,
    changes: changesOf(null, audited(record)),
  });
  await publishChange(companyId, { action: 'create', id: record.id });
  return { ...presentWebhook(record), secret };
}

export async function updateWebhookFor(companyId: number, id: number, input: UpdateWebhookInput): Promise<Webhook> {
  const before = await findWebhook(companyId, id);
  const patch: store.WebhookPatch = {};
  if (input.url !== undefined && input.url !== before.url) patch.url = await checkUrl(input.url);
  if (input.events !== undefined) patch.events = input.events;
  if (input.description !== undefined) patch.description = input.description;
  const switchedOn = input.enabled === true && !before.enabled;
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (switchedOn) {
    patch.disabledReason = null;
    patch.disabledAt = null;
  }
  const record = Object.keys(patch).length ? await store.updateWebhook(companyId, id, patch, switchedOn) : before;
  await recordAudit({
    action: 'webhook.update',
    targetType: 'webhook',
    targetId: id,
    companyId,
    changes: changesOf(audited(before), audited(record)),
  });
  await publishChange(companyId, { action: 'update', id });
  return presentWebhook(record);
}

export async function deleteWebhookFor(companyId: number, id: number): Promise<void> {
  const before = await findWebhook(companyId, id);
  await store.deleteWebhook(companyId, id);
  await recordAudit({
    action: 'webhook.delete',
    targetType: 'webhook',
    targetId: id,
    companyId,
    changes: changesOf(audited(before), null, ['url', 'events', 'description']),
  });
  await publishChange(companyId, { action: 'delete', id });
}

export async function rotateWebhookSecretFor(companyId: number, id: number): Promise<WebhookWithSecret> {
  const before = await findWebhook(companyId, id);
  const secret = newWebhookSecret();
  const record = await store.updateWebhook(companyId, id, { secretSealed: await sealSecret(secret) });
  await recordAudit({
    action: 'webhook.rotateSecret',
    targetType: 'webhook',
    targetId: id,
    companyId,
    changes: changesOf({ secret: before.secretSealed }, { secret: record.secretSealed }),
  });
  await publishChange(companyId, { action: 'update', id });
  return { ...presentWebhook(record), secret };
}

export async function listDeliveriesFor(companyId: number, id: number, pageNumber: number): Promise<WebhookDeliveryPage> {
  await findWebhook(companyId, id);
  const page = await deliveries.listDeliveries(companyId, id, pageNumber, WEBHOOK_DELIVERIES_PAGE_SIZE);
  return { deliveries: page.deliveries.map(presentDelivery), hasMore: page.hasMore };
}

/** Sends a delivery again, as it was (same id and body), as a new round with its own retries. */
export async function resendDeliveryFor(companyId: number, id: number, deliveryId: string): Promise<WebhookDelivery> {
  await findWebhook(companyId, id);
  const restarted = await restartAndQueue(companyId, id, deliveryId);
  if (!restarted) throw new NotFoundError('ERR_NOT_FOUND');
  await recordAudit({
    action: 'webhook.resend',
    targetType: 'webhook',
    targetId: id,
    companyId,
    changes: changesOf(null, { delivery: deliveryId, event: restarted.event }),
  });
  return presentDelivery(restarted);
}

/** "Send test event": a `ping` delivery, logged and retried like any other (a disabled endpoint is sent it too). */
export async function sendTestEventFor(companyId: number, id: number): Promise<WebhookDelivery> {
  const endpoint = await findWebhook(companyId, id);
  const delivery = await queueNewDelivery(endpoint, WEBHOOK_PING, { webhookId: id, message: 'Conversa test event' }, new Date());
  return presentDelivery(delivery);
}
