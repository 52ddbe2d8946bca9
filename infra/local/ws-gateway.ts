/**
 * Local stand-in for an API Gateway WebSocket API, built on `ws`. It behaves the way the Lambda
 * code relies on in AWS:
 * - $connect runs before the socket opens; only a 2xx (or no answer) accepts it, otherwise the
 *   HTTP upgrade is answered with that status.
 * - Frames are routed on `$request.body.action` to the route keys of routes.ts; anything else
 *   (unknown action, non-JSON) goes to `$default`. One connection's frames are invoked in order.
 * - $disconnect runs after close, best effort.
 * - The same HTTP server serves the management API (`/@connections/{id}`: POST, GET, DELETE), so
 *   the real `@aws-sdk/client-apigatewaymanagementapi` client works against `managementUrl`.
 * - Idle connections close after 10 minutes and every connection after 2 hours, as in AWS, so
 *   a client that forgets to ping fails here too.
 * - New connections are throttled as AWS's quota does (500 per second per account and Region, a
 *   token bucket): an upgrade over it is answered 429 Too Many Requests before $connect runs, so a
 *   crowd of clients reconnecting at once after a deploy (`dropAll`) meets the same wall here.
 * - Messages are throttled per route key at the stage's figures (declarations/api-throttles.ts):
 *   one over it is answered `{"message": "Too Many Requests", ...}` on the socket, not invoked.
 * - The route keys the stack answers in API Gateway itself (routes.ts gatewayAnsweredWsRoutes: ping)
 *   get that answer on the socket and invoke nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RouteThrottle, wsRouteThrottle } from '@conversa/functions/declarations/api-throttles';
import { gatewayAnsweredWsRoutes, type WsRouteKey, wsRouteKeys } from '@conversa/functions/routes';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { routeBuckets, tokenBucket } from './throttle.ts';

// biome-ignore lint/suspicious/noConfusingVoidType: lets a plain `async (event) => { ... }` handler be passed, as in AWS where no answer accepts.
export type WsInvoke = (event: WsGatewayEvent) => Promise<{ statusCode?: number } | undefined | void>;

export interface WsGatewayOptions {
  port: number;
  host?: string;
  invoke: WsInvoke;
  /** Defaults to AWS's 10 minutes; tests shorten it. */
  idleTimeoutMs?: number;
  /** Defaults to AWS's 2 hours. */
  maxConnectionMs?: number;
  /** New connections per second (the bucket's refill); defaults to AWS's quota, 500. */
  newConnectionsPerSecond?: number;
  /** How many may arrive at once when the bucket is full; defaults to one second's worth. */
  newConnectionBurst?: number;
  /** Each route key's throttle; defaults to the stack's (declarations/api-throttles.ts). */
  routeThrottle?: (routeKey: string) => RouteThrottle;
  stage?: string;
}

export interface WsGateway {
  /** ws://host:port */
  url: string;
  /** http://host:port, the endpoint for ApiGatewayManagementApiClient. */
  managementUrl: string;
  /**
   * Closes every open socket at once, as a deploy does (1001 Going Away by default; 1012 Service
   * Restart is the other code a client may see). Resolves with how many it closed; their
   * $disconnects run as the closes complete, while the clients are already coming back.
   */
  dropAll(code?: number, reason?: string): number;
  close(): Promise<void>;
}

/** The subset of the API Gateway WebSocket proxy event that Lambda code reads. */
export interface WsGatewayEvent {
  requestContext: {
    routeKey: string;
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT';
    connectionId: string;
    messageId?: string;
    messageDirection: 'IN';
    extendedRequestId: string;
    requestId: string;
    requestTime: string;
    requestTimeEpoch: number;
    connectedAt: number;
    domainName: string;
    stage: string;
    apiId: string;
    identity: { sourceIp: string; userAgent?: string };
    disconnectStatusCode?: number;
    disconnectReason?: string;
  };
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
  multiValueQueryStringParameters?: Record<string, string[]>;
  body?: string;
  isBase64Encoded: boolean;
}

const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
const MAX_CONNECTION_MS = 2 * 60 * 60 * 1000;
/** "New connections per second per account (across all WebSocket APIs) per Region": 500 by default. */
const NEW_CONNECTIONS_PER_SECOND = 500;
/** API Gateway's message size limit. */
const MAX_PAYLOAD_BYTES = 128 * 1024;
const routable = new Set<string>(wsRouteKeys.filter((key) => !key.startsWith('$')));

interface Connection {
  id: string;
  socket: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent?: string;
  /** Frames of one connection are invoked one after another, so join/leave keep their order. */
  queue: Promise<void>;
  idleTimer?: NodeJS.Timeout;
  lifetimeTimer?: NodeJS.Timeout;
}

/** AWS connection ids look like `L0SM9cOFvHcCIhw=`: 16 base64 characters. */
const newConnectionId = (): string => randomBytes(11).toString('base64');

/** Picks the route key the way API Gateway's `$request.body.action` selection does. */
export function selectRouteKey(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const action = parsed && typeof parsed === 'object' ? (parsed as { action?: unknown }).action : undefined;
    return typeof action === 'string' && routable.has(action) ? action : '$default';
  } catch {
    return '$default';
  }
}

function group(pairs: Iterable<readonly [string, string]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of pairs) {
    out[key] ??= [];
    out[key].push(value);
  }
  return out;
}

function single(values: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, list]) => [key, list[list.length - 1] ?? '']));
}

export async function startWsGateway(opts: WsGatewayOptions): Promise<WsGateway> {
  const host = opts.host ?? '127.0.0.1';
  const stage = opts.stage ?? 'local';
  const idleTimeoutMs = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const maxConnectionMs = opts.maxConnectionMs ?? MAX_CONNECTION_MS;
  const newConnectionsPerSecond = opts.newConnectionsPerSecond ?? NEW_CONNECTIONS_PER_SECOND;
  const newConnections = tokenBucket(newConnectionsPerSecond, opts.newConnectionBurst ?? newConnectionsPerSecond);
  const messages = routeBuckets(opts.routeThrottle ?? wsRouteThrottle);
  const connections = new Map<string, Connection>();
  /** $disconnect invocations still running; close() waits for them. */
  const disconnects = new Set<Promise<void>>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  let domainName = host;

  const requestContext = (connection: Pick<Connection, 'id' | 'connectedAt' | 'sourceIp' | 'userAgent'>) => {
    const now = Date.now();
    return {
      connectionId: connection.id,
      messageDirection: 'IN' as const,
      extendedRequestId: randomUUID(),
      requestId: randomUUID(),
      requestTime: new Date(now).toUTCString(),
      requestTimeEpoch: now,
      connectedAt: connection.connectedAt,
      domainName,
      stage,
      apiId: 'local',
      identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
    };
  };

  const invokeSafely = async (event: WsGatewayEvent): Promise<number> => {
    try {
      const result = await opts.invoke(event);
      return result?.statusCode ?? 200;
    } catch (error) {
      console.error(`[ws-gateway] ${event.requestContext.routeKey} failed:`, error);
      return 500;
    }
  };

  const armIdleTimer = (connection: Connection) => {
    clearTimeout(connection.idleTimer);
    connection.idleTimer = setTimeout(() => connection.socket.close(1001, 'Going away'), idleTimeoutMs);
    connection.idleTimer.unref();
  };

  function refuseUpgrade(socket: Duplex, status: number): void {
    const reason = STATUS_CODES[status] ?? 'Error';
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  async function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    // The quota counts every attempt, and a refused one never reaches $connect (no invocation, no cost).
    if (!newConnections.take()) return refuseUpgrade(socket, 429);
    const url = new URL(request.url ?? '/', `http://${domainName}`);
    const multiQuery = group([...url.searchParams]);
    const rawHeaders = request.rawHeaders;
    const multiHeaders = group(
      Array.from({ length: rawHeaders.length / 2 }, (_, i) => [rawHeaders[2 * i]!, rawHeaders[2 * i + 1]!] as const),
    );
    const pending = {
      id: newConnectionId(),
      connectedAt: Date.now(),
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      userAgent: request.headers['user-agent'],
    };
    const hasQuery = Object.keys(multiQuery).length > 0;
    const status = await invokeSafely({
      requestContext: { ...requestContext(pending), routeKey: '$connect', eventType: 'CONNECT' },
      headers: single(multiHeaders),
      multiValueHeaders: multiHeaders,
      ...(hasQuery ? { queryStringParameters: single(multiQuery), multiValueQueryStringParameters: multiQuery } : {}),
      isBase64Encoded: false,
    });
    if (socket.destroyed) return;
    if (status < 200 || status > 299) return refuseUpgrade(socket, status);
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, pending));
  }

  function accept(socket: WebSocket, pending: Omit<Connection, 'socket' | 'queue' | 'lastActiveAt'>): void {
    const connection: Connection = { ...pending, socket, lastActiveAt: Date.now(), queue: Promise.resolve() };
    connections.set(connection.id, connection);
    armIdleTimer(connection);
    connection.lifetimeTimer = setTimeout(() => socket.close(1001, 'Going away'), maxConnectionMs);
    connection.lifetimeTimer.unref();

    socket.on('message', (raw: RawData, isBinary: boolean) => {
      connection.lastActiveAt = Date.now();
      armIdleTimer(connection);
      const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
      const body = isBinary ? bytes.toString('base64') : bytes.toString('utf8');
      const routeKey = isBinary ? '$default' : selectRouteKey(body);
      if (!messages.take(routeKey)) {
        // Over the route's throttle: API Gateway answers on the socket and invokes nothing.
        socket.send(JSON.stringify({ message: 'Too Many Requests', connectionId: connection.id, requestId: randomUUID() }));
        return;
      }
      const answer = gatewayAnsweredWsRoutes[routeKey as WsRouteKey];
      if (answer) {
        // A route the stack answers with a mock integration and a route response: no invoke.
        socket.send(JSON.stringify(answer));
        return;
      }
      connection.queue = connection.queue.then(async () => {
        const status = await invokeSafely({
          requestContext: { ...requestContext(connection), routeKey, eventType: 'MESSAGE', messageId: randomBytes(11).toString('base64') },
          body,
          isBase64Encoded: isBinary,
        });
        // What API Gateway sends back when the integration fails.
        if (status >= 500 && socket.readyState === WebSocket.OPEN) {
          socket.send(JSON.stringify({ message: 'Internal server error', connectionId: connection.id, requestId: randomUUID() }));
        }
      });
    });
    socket.on('ping', () => {
      connection.lastActiveAt = Date.now();
      armIdleTimer(connection);
    });
    socket.on('error', () => socket.terminate());
    socket.on('close', (code: number, reason: Buffer) => {
      clearTimeout(connection.idleTimer);
      clearTimeout(connection.lifetimeTimer);
      connections.delete(connection.id);
      connection.queue = connection.queue.then(async () => {
        await invokeSafely({
          requestContext: {
            ...requestContext(connection),
            routeKey: '$disconnect',
            eventType: 'DISCONNECT',
            disconnectStatusCode: code,
            disconnectReason: reason.toString('utf8'),
          },
          isBase64Encoded: false,
        });
      });
      const done = connection.queue;
      disconnects.add(done);
      void done.finally(() => disconnects.delete(done));
    });
  }

  function sendJson(res: ServerResponse, status: number, body?: unknown, errorType?: string): void {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() };
    if (errorType) headers['x-amzn-errortype'] = errorType;
    res.writeHead(status, headers);
    res.end(body === undefined ? undefined : JSON.stringify(body));
  }

  function readBody(req: IncomingMessage): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_PAYLOAD_BYTES) {
          reject(Object.assign(new Error('payload too large'), { status: 413 }));
          req.destroy();
        } else chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  }

  /** The management API: the paths and error shapes of `execute-api` `@connections`. */
  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', `http://${domainName}`).pathname;
    // The SDK puts the stage in the path when the endpoint has one; accept both forms.
    const match = /^(?:\/[^/@]+)?\/@connections\/([^/]+)$/.exec(path);
    if (!match) return sendJson(res, 404, { message: 'Not Found' }, 'NotFoundException');
    let id: string;
    try {
      id = decodeURIComponent(match[1]!);
    } catch {
      return sendJson(res, 400, { message: 'Invalid connection id' }, 'BadRequestException');
    }
    const connection = connections.get(id);
    if (req.method === 'POST') {
      let data: Buffer;
      try {
        data = await readBody(req);
      } catch (error) {
        return sendJson(res, (error as { status?: number }).status ?? 400, { message: 'Payload too large' }, 'PayloadTooLargeException');
      }
      if (!connection || connection.socket.readyState !== WebSocket.OPEN) return sendJson(res, 410, { message: null }, 'GoneException');
      const text = data.toString('utf8');
      // API Gateway sends text frames; bytes that are not UTF-8 go as a binary frame.
      if (Buffer.from(text, 'utf8').equals(data)) connection.socket.send(text);
      else connection.socket.send(data, { binary: true });
      return sendJson(res, 200);
    }
    if (!connection) return sendJson(res, 410, { message: null }, 'GoneException');
    if (req.method === 'GET') {
      return sendJson(res, 200, {
        connectedAt: new Date(connection.connectedAt).toISOString(),
        lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
        identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
      });
    }
    if (req.method === 'DELETE') {
      connection.socket.close(1000, 'Connection closed');
      return sendJson(res, 204);
    }
    return sendJson(res, 405, { message: 'Method Not Allowed' }, 'MethodNotAllowedException');
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      console.error('[ws-gateway] management request failed:', error);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal server error' }, 'InternalServerErrorException');
    });
  });
  server.on('upgrade', (request, socket, head) => {
    onUpgrade(request, socket, head).catch((error: unknown) => {
      console.error('[ws-gateway] upgrade failed:', error);
      if (!socket.destroyed) refuseUpgrade(socket, 500);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  domainName = `${host}:${port}`;

  const dropAll = (code = 1001, reason = 'Going away'): number => {
    const open = [...connections.values()];
    for (const connection of open) connection.socket.close(code, reason);
    return open.length;
  };

  return {
    url: `ws://${host}:${port}`,
    managementUrl: `http://${host}:${port}`,
    dropAll,
    async close() {
      dropAll();
      // Give clients a moment to finish the close handshake, then cut the rest; either way each
      // socket's $disconnect runs before the stack behind the gateway stops.
      const deadline = Date.now() + 1000;
      while (connections.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      for (const connection of connections.values()) connection.socket.terminate();
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...disconnects]);
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
