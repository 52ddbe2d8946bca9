/** AI prompts (SPEC 7 "Prompts and integrations"): admins of a plan with useOpenAi (routes.ts). */
import { createPromptSchema, listPromptsQuerySchema, updatePromptSchema } from '#contracts/prompts';
import { createPromptFor, deletePromptFor, getPromptFor, listPromptsFor, updatePromptFor } from '#domain/prompts/prompts';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('prompts', {
  'GET /prompt': async (ctx) =>
    listPromptsFor(requireIdentity(ctx).companyId, parseInput(listPromptsQuerySchema, ctx.query, 'query').searchParam),
  'GET /prompt/{id}': async (ctx) => getPromptFor(requireIdentity(ctx).companyId, parseId(ctx.params)),
  'POST /prompt': async (ctx) =>
    created(await createPromptFor(requireIdentity(ctx).companyId, parseInput(createPromptSchema, ctx.body ?? {}))),
  'PUT /prompt/{id}': async (ctx) =>
    updatePromptFor(requireIdentity(ctx).companyId, parseId(ctx.params), parseInput(updatePromptSchema, ctx.body ?? {})),
  'DELETE /prompt/{id}': async (ctx) => deletePromptFor(requireIdentity(ctx).companyId, parseId(ctx.params)),
});
