/**
 * The one Lambda behind every WebSocket route ($connect, $disconnect, $default and the client's
 * actions, routes.ts `wsRouteKeys`). Parses the API Gateway event at the edge and hands it to the
 * socket session; it never throws, because API Gateway turns a thrown error into a refused socket
 * or an "Internal server error" frame that the client cannot act on.
 */
import '#adapters/wiring';
import * as z from 'zod/mini';
import { verifyIdToken } from '#commons/jwt';
import { logger } from '#commons/logger';
import { findTicketByRef, ticketReading } from '#domain/tickets/access';
import { routeForUserSafely } from '#domain/tickets/auto-assign';
import { presenceChanged } from '#domain/users/presence';
import { setUserAvailableListener } from '#domain/users/presence-events';
import { closeConnection, postToConnection } from '#realtime/management';
import { createSocketSession, type SessionResult } from '#realtime/socket-session';
import { getSocketUser, mustEnrolMfa } from '#realtime/user-directory';
import type { ConnectionRecord } from '#storage/ws-connections';
import * as connections from '#storage/ws-connections';

const eventSchema = z.object({
  requestContext: z.object({
    routeKey: z.string().check(z.minLength(1)),
    eventType: z.enum(['CONNECT', 'MESSAGE', 'DISCONNECT']),
    connectionId: z.string().check(z.minLength(1), z.maxLength(128)),
  }),
  queryStringParameters: z.nullish(z.record(z.string(), z.optional(z.string()))),
  body: z.nullish(z.string()),
  isBase64Encoded: z.optional(z.boolean()),
});

// An attendant coming online frees capacity: automatic assignment gives them the oldest waiting tickets
// of their queues (issue 22 §2).
setUserAvailableListener(async (companyId, userId) => {
  await routeForUserSafely(companyId, userId);
});

/** joinChatBox: how the socket's user may read the ticket its client names (the rule of GET /tickets/{id}). */
async function readTicket(connection: ConnectionRecord, ref: number | string) {
  const byId = typeof ref === 'number' || /^\d+$/.test(ref);
  const ticket = await findTicketByRef(connection.companyId, byId ? { id: Number(ref) } : { uuid: ref });
  if (!ticket) return undefined;
  const viewer = { ...connection, user: { queueIds: connection.queueIds, allTicket: connection.allTicket } };
  const reading = await ticketReading(viewer, ticket);
  if (!reading) return undefined;
  return { ticketId: ticket.id, ...(reading.byMention ? { until: reading.until } : {}) };
}

const session = createSocketSession({
  verifyToken: verifyIdToken,
  getUser: getSocketUser,
  mustEnrolMfa,
  // Presence never refuses a socket nor fails its message: the change is stored, and the socket's
  // next userStatus tells presence again.
  presenceChanged: (companyId, userId, hint) =>
    presenceChanged(companyId, userId, hint).catch((error: unknown) => {
      logger.error('presence not updated', { companyId, userId, error: error as Error });
    }),
  connections: {
    put: connections.putConnection,
    find: (connectionId) => connections.findConnection(connectionId),
    delete: connections.deleteConnection,
    setReading: connections.setReading,
    clearReading: connections.clearReading,
    setStatus: connections.setConnectionStatus,
  },
  readTicket,
  post: postToConnection,
  close: closeConnection,
  now: () => Math.floor(Date.now() / 1000),
});

export async function handler(event: unknown): Promise<SessionResult> {
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) return { statusCode: 400 };
  const { requestContext, queryStringParameters, isBase64Encoded } = parsed.data;
  const { connectionId, eventType, routeKey } = requestContext;
  const body =
    parsed.data.body && isBase64Encoded ? Buffer.from(parsed.data.body, 'base64').toString('utf8') : (parsed.data.body ?? undefined);
  try {
    if (eventType === 'CONNECT') return await session.connect(connectionId, queryStringParameters?.token);
    if (eventType === 'DISCONNECT') return await session.disconnect(connectionId);
    return await session.message(connectionId, routeKey, body);
  } catch (error) {
    logger.error('realtime route failed', { routeKey, connectionId, error: error as Error });
    return { statusCode: 500 };
  }
}
