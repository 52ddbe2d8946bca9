/** Queues and the chatbot option tree (SPEC 7 "Contacts, tags, users, queues"). */
import '#adapters/wiring';
import {
  createQueueOptionSchema,
  createQueueSchema,
  queueOptionsQuerySchema,
  updateQueueOptionSchema,
  updateQueueSchema,
} from '#contracts/queues';
import { createOptionFor, deleteOptionFor, listOptionsOf, updateOptionFor } from '#domain/queues/options';
import { createQueueFor, deleteQueueFor, getQueueOf, listQueuesOf, updateQueueFor } from '#domain/queues/queues';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('queues', {
  'GET /queue': async (ctx) => listQueuesOf(requireIdentity(ctx).companyId),
  'GET /queue/{id}': async (ctx) => getQueueOf(requireIdentity(ctx).companyId, parseId(ctx.params)),
  'POST /queue': async (ctx) => {
    const identity = requireIdentity(ctx);
    return created(await createQueueFor(identity.companyId, identity.plan.queues, parseInput(createQueueSchema, ctx.body)));
  },
  'PUT /queue/{id}': async (ctx) =>
    updateQueueFor(requireIdentity(ctx).companyId, parseId(ctx.params), parseInput(updateQueueSchema, ctx.body ?? {})),
  'DELETE /queue/{id}': async (ctx) => {
    await deleteQueueFor(requireIdentity(ctx).companyId, parseId(ctx.params));
    return noContent();
  },
  'GET /queue-options': async (ctx) => {
    const { queueId, parentId } = parseInput(queueOptionsQuerySchema, ctx.query, 'query');
    return listOptionsOf(requireIdentity(ctx).companyId, queueId, parentId === -1 ? null : parentId);
  },
  'POST /queue-options': async (ctx) =>
    created(await createOptionFor(requireIdentity(ctx).companyId, parseInput(createQueueOptionSchema, ctx.body))),
  'PUT /queue-options/{id}': async (ctx) =>
    updateOptionFor(requireIdentity(ctx).companyId, parseId(ctx.params), parseInput(updateQueueOptionSchema, ctx.body ?? {})),
  'DELETE /queue-options/{id}': async (ctx) => {
    await deleteOptionFor(requireIdentity(ctx).companyId, parseId(ctx.params));
    return noContent();
  },
});
