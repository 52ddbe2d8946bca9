/** Users of the caller's company (SPEC 7 "Contacts, tags, users, queues"). */
import '#adapters/wiring';
import { pageQuerySchema } from '#contracts/common';
import { createUserSchema, updateUserSchema } from '#contracts/users';
import { createCompanyUser, deleteUserFor, getUserFor, listUserNames, listUsersPage, updateUserFor } from '#domain/users/users';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('users', {
  'GET /users': async (ctx) => listUsersPage(requireIdentity(ctx).companyId, parseInput(pageQuerySchema, ctx.query, 'query')),
  'GET /users/list': async (ctx) => listUserNames(requireIdentity(ctx).companyId),
  'GET /users/{id}': async (ctx) => getUserFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /users': async (ctx) => {
    const identity = requireIdentity(ctx);
    const input = parseInput(createUserSchema, ctx.body);
    return created(await createCompanyUser(identity.companyId, identity.plan.users, input));
  },
  'PUT /users/{id}': async (ctx) => updateUserFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateUserSchema, ctx.body ?? {})),
  'DELETE /users/{id}': async (ctx) => {
    await deleteUserFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
});
