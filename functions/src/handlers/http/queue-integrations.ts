/** Queue integrations (SPEC 7 "Prompts and integrations"): admins only, plan flag useIntegrations (routes.ts). */
import {
  createIntegrationSchema,
  listIntegrationsQuerySchema,
  testSessionSchema,
  updateIntegrationSchema,
} from '#contracts/queue-integrations';
import {
  createIntegrationFor,
  deleteIntegrationFor,
  getIntegrationFor,
  listIntegrationsFor,
  updateIntegrationFor,
} from '#domain/queue-integrations/queue-integrations';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('queue-integrations', {
  'GET /queueIntegration': async (ctx) => {
    const { searchParam, pageNumber } = parseInput(listIntegrationsQuerySchema, ctx.query, 'query');
    return listIntegrationsFor(requireIdentity(ctx).companyId, searchParam, pageNumber);
  },
  'GET /queueIntegration/{id}': async (ctx) => getIntegrationFor(requireIdentity(ctx).companyId, parseId(ctx.params)),
  'POST /queueIntegration': async (ctx) =>
    created(await createIntegrationFor(requireIdentity(ctx).companyId, parseInput(createIntegrationSchema, ctx.body ?? {}))),
  'PUT /queueIntegration/{id}': async (ctx) =>
    updateIntegrationFor(requireIdentity(ctx).companyId, parseId(ctx.params), parseInput(updateIntegrationSchema, ctx.body ?? {})),
  'DELETE /queueIntegration/{id}': async (ctx) => {
    await deleteIntegrationFor(requireIdentity(ctx).companyId, parseId(ctx.params));
    return noContent();
  },
  'POST /queueIntegration/testSession': async (ctx) => {
    const identity = requireIdentity(ctx);
    const input = parseInput(testSessionSchema, ctx.body ?? {});
    // The Dialogflow client is loaded by the Test button only, not by every cold start of the page's CRUD.
    const { testDialogflowSession } = await import('#domain/queue-integrations/test-session');
    return testDialogflowSession(identity.companyId, input);
  },
});
