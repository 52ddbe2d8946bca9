/** Plans: the public list for signup; everything else for super users. */
import { planInputSchema } from '#contracts/plans';
import { createPlan, deletePlan, getPlanById, listAllPlans, listPublicPlans, updatePlan } from '#domain/plans/plans';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('plans', {
  'GET /plans/list': () => listPublicPlans(),
  'GET /plans/all': () => listAllPlans(),
  'GET /plans/{id}': ({ params }) => getPlanById(parseId(params)),
  'POST /plans': async ({ body }) => created(await createPlan(parseInput(planInputSchema, body))),
  // The plan form always sends every field, so PUT replaces the plan (absent fields take their defaults).
  'PUT /plans/{id}': ({ params, body }) => updatePlan(parseId(params), parseInput(planInputSchema, body)),
  'DELETE /plans/{id}': async ({ params }) => {
    await deletePlan(parseId(params));
    return noContent();
  },
});
