/** Webhook endpoints and their delivery log (issue 23 §2): admins only, plan flag useExternalApi (routes.ts). */
import { createWebhookSchema, deliveryIdSchema, updateWebhookSchema, webhookDeliveriesQuerySchema } from '#contracts/webhooks';
import {
  createWebhookFor,
  deleteWebhookFor,
  getWebhookFor,
  listDeliveriesFor,
  listWebhooksFor,
  resendDeliveryFor,
  rotateWebhookSecretFor,
  sendTestEventFor,
  updateWebhookFor,
} from '#domain/webhooks/endpoints';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

const companyOf = (ctx: Parameters<typeof requireIdentity>[0]) => requireIdentity(ctx).companyId;

export const handler = httpHandler('webhooks', {
  'GET /webhooks': async (ctx) => listWebhooksFor(companyOf(ctx)),
  'POST /webhooks': async (ctx) => created(await createWebhookFor(companyOf(ctx), parseInput(createWebhookSchema, ctx.body ?? {}))),
  'GET /webhooks/{id}': async (ctx) => getWebhookFor(companyOf(ctx), parseId(ctx.params)),
  'PUT /webhooks/{id}': async (ctx) =>
    updateWebhookFor(companyOf(ctx), parseId(ctx.params), parseInput(updateWebhookSchema, ctx.body ?? {})),
  'DELETE /webhooks/{id}': async (ctx) => {
    await deleteWebhookFor(companyOf(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /webhooks/{id}/rotate-secret': async (ctx) => rotateWebhookSecretFor(companyOf(ctx), parseId(ctx.params)),
  'POST /webhooks/{id}/test': async (ctx) => created(await sendTestEventFor(companyOf(ctx), parseId(ctx.params))),
  'GET /webhooks/{id}/deliveries': async (ctx) => {
    const { pageNumber } = parseInput(webhookDeliveriesQuerySchema, ctx.query, 'query');
    return listDeliveriesFor(companyOf(ctx), parseId(ctx.params), pageNumber);
  },
  'POST /webhooks/{id}/deliveries/{deliveryId}/resend': async (ctx) => {
    const id = parseId(ctx.params);
    const deliveryId = parseInput(deliveryIdSchema, ctx.params.deliveryId, 'deliveryId');
    return resendDeliveryFor(companyOf(ctx), id, deliveryId);
  },
});
