/** Connections and their sessions (SPEC 7 "Connections"). */
import '#adapters/wiring';
import { connectionInputSchema, connectionUpdateSchema } from '#contracts/connections';
import {
  type ConnectionActor,
  createConnectionFor,
  deleteConnectionFor,
  getConnectionFor,
  listConnectionsFor,
  updateConnectionFor,
} from '#domain/connections/connections';
import { disconnectSession, requestNewQr, startSession } from '#domain/connections/sessions';
import { isAdmin, requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent, ok } from '#http/result';
import type { RequestContext } from '#http/types';
import { parseId, parseInput } from '#http/validate';

function actorOf(ctx: RequestContext): ConnectionActor {
  const identity = requireIdentity(ctx);
  return { companyId: identity.companyId, admin: isAdmin(identity) };
}

const sessionMessage = (message: string) => ok({ message });

export const handler = httpHandler('connections', {
  'GET /whatsapp': async (ctx) => listConnectionsFor(actorOf(ctx)),
  'GET /whatsapp/{id}': async (ctx) => getConnectionFor(actorOf(ctx), parseId(ctx.params)),
  'POST /whatsapp': async (ctx) => {
    const identity = requireIdentity(ctx);
    const input = parseInput(connectionInputSchema, ctx.body);
    return created(await createConnectionFor(actorOf(ctx), identity.plan.connections, input));
  },
  'PUT /whatsapp/{id}': async (ctx) =>
    updateConnectionFor(actorOf(ctx), parseId(ctx.params), parseInput(connectionUpdateSchema, ctx.body ?? {})),
  'DELETE /whatsapp/{id}': async (ctx) => {
    await deleteConnectionFor(actorOf(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /whatsappsession/{id}': async (ctx) => {
    await startSession(requireIdentity(ctx).companyId, parseId(ctx.params));
    return sessionMessage('Starting session.');
  },
  'PUT /whatsappsession/{id}': async (ctx) => {
    await requestNewQr(requireIdentity(ctx).companyId, parseId(ctx.params));
    return sessionMessage('Starting session.');
  },
  'DELETE /whatsappsession/{id}': async (ctx) => {
    await disconnectSession(requireIdentity(ctx).companyId, parseId(ctx.params));
    return sessionMessage('Session disconnected.');
  },
});
