/**
 * The local HTTP API: built from the same route table the CDK stack deploys. It turns each request
 * into an API Gateway HTTP API (payload 2.0) event, calls the route's Lambda handler in-process and
 * writes its result back, with API Gateway's own answers for what never reaches a Lambda (no route,
 * a body over 10 MB, a route over its throttle: declarations/api-throttles.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_CORS } from '@conversa/functions/declarations/api-cors';
import { HTTP_ROUTE_THROTTLE, type RouteThrottle } from '@conversa/functions/declarations/api-throttles';
import { type HttpRoute, httpRoutes, routeKey } from '@conversa/functions/routes';
import { handlerFile, lambdaContext, loadHandler } from './lambda-runtime.ts';
import { routeBuckets } from './throttle.ts';

/** API Gateway's payload limit. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface HttpGateway {
  url: string;
  /**
   * The browser origins the API answers (the web app's, once it is served), as the deployed API's
   * CORS allows only the region's web origin. Until set, any origin (a stack without its web app).
   */
  allowOrigins(origins: string[]): void;
  close(): Promise<void>;
}

interface CompiledRoute {
  route: HttpRoute;
  pattern: RegExp;
  params: string[];
  /** Literal segments first: `/users/list` must win over `/users/{id}`, as in API Gateway. */
  specificity: number;
}

export function compileRoutes(routes: readonly HttpRoute[]): CompiledRoute[] {
  return routes
    .map((route) => {
      const params: string[] = [];
      const segments = route.path.split('/').filter(Boolean);
      const source = segments
        .map((segment) => {
          const param = /^\{(\w+)(\+?)\}$/.exec(segment);
          if (param?.[1]) {
            params.push(param[1]);
            // `{name+}` is API Gateway's greedy parameter: the rest of the path, slashes included.
            return param[2] ? '/(.+)' : '/([^/]+)';
          }
          return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
        })
        .join('');
      return { route, params, pattern: new RegExp(`^${source || '/'}/?$`), specificity: segments.filter((s) => !s.startsWith('{')).length };
    })
    .sort((a, b) => b.specificity - a.specificity);
}

export interface RouteMatch {
  route?: HttpRoute;
  pathParameters?: Record<string, string>;
  /** The path exists but not with this method. */
  pathKnown: boolean;
}

export function matchRoute(compiled: CompiledRoute[], method: string, path: string): RouteMatch {
  let pathKnown = false;
  for (const candidate of compiled) {
    const m = candidate.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (candidate.route.method !== method) continue;
    const pathParameters: Record<string, string> = {};
    candidate.params.forEach((name, i) => {
      const raw = m[i + 1] ?? '';
      try {
        pathParameters[name] = decodeURIComponent(raw);
      } catch {
        pathParameters[name] = raw;
      }
    });
    return { route: candidate.route, pathParameters, pathKnown };
  }
  return { pathKnown };
}

const TEXT_TYPES = /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript|[\w.+-]+\+json|[\w.+-]+\+xml))/i;

export function buildEvent(req: IncomingMessage, body: Buffer, route: HttpRoute, pathParameters: Record<string, string>) {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = req.headers.cookie
    ?.split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const query: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) query[key] = url.searchParams.getAll(key).join(',');
  const isText = !body.length || TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const now = Date.now();
  const key = routeKey(route);
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: cookies?.length ? cookies : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
    stageVariables: undefined,
  };
}

interface HandlerResult {
  statusCode?: number;
  headers?: Record<string, string | number | boolean>;
  multiValueHeaders?: Record<string, (string | number | boolean)[]>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
}

/**
 * API Gateway's CORS (declarations/api-cors.ts), which it applies itself and over whatever the
 * handler answered: an allowed origin gets its headers back (the preflight's allowed methods and
 * headers, every answer's exposed headers); any other origin gets none, so the browser refuses the
 * call as it would on AWS.
 */
function corsHeaders(origin: string | undefined, allowed: readonly string[] | undefined, preflight: boolean): Record<string, string> {
  const allowOrigin = allowed === undefined ? '*' : origin && allowed.includes(origin) ? origin : undefined;
  if (!allowOrigin) return {};
  return {
    'access-control-allow-origin': allowOrigin,
    ...(allowOrigin === '*' ? {} : { vary: 'origin' }),
    ...(preflight
      ? {
          'access-control-allow-methods': API_CORS.allowMethods.join(','),
          'access-control-allow-headers': API_CORS.allowHeaders.join(','),
          'access-control-max-age': String(API_CORS.maxAgeSeconds),
        }
      : { 'access-control-expose-headers': API_CORS.exposeHeaders.join(',') }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Payload 2.0 semantics: a result without statusCode is a 200 JSON body of the whole value. */
function writeResult(res: ServerResponse, result: unknown) {
  if (typeof result !== 'object' || result === null || !('statusCode' in result)) {
    sendJson(res, 200, result ?? null);
    return;
  }
  const r = result as HandlerResult;
  res.statusCode = r.statusCode ?? 200;
  // The gateway's CORS stands (set before this call); the handler's own CORS headers are dropped.
  const own = (name: string) => name.toLowerCase().startsWith('access-control-');
  for (const [name, value] of Object.entries(r.headers ?? {})) if (!own(name)) res.setHeader(name.toLowerCase(), String(value));
  for (const [name, values] of Object.entries(r.multiValueHeaders ?? {})) res.setHeader(name.toLowerCase(), values.map(String));
  if (r.cookies?.length) res.setHeader('set-cookie', r.cookies);
  if (!res.hasHeader('content-type') && r.body !== undefined) res.setHeader('content-type', 'application/json');
  res.end(r.body === undefined ? undefined : r.isBase64Encoded ? Buffer.from(r.body, 'base64') : r.body);
}

class PayloadTooLargeError extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      // Drain instead of reading: the client gets its 413 instead of a reset connection.
      req.resume();
      reject(new PayloadTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new PayloadTooLargeError());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface HttpGatewayOptions {
  port: number;
  host?: string;
  log: (line: string) => void;
  /** Each route's throttle; defaults to the stack's stage figure (declarations/api-throttles.ts). */
  routeThrottle?: (routeKey: string) => RouteThrottle;
}

export async function startHttpGateway(opts: HttpGatewayOptions): Promise<HttpGateway> {
  const compiled = compileRoutes(httpRoutes);
  const requests = routeBuckets(opts.routeThrottle ?? (() => HTTP_ROUTE_THROTTLE));

  let origins: string[] | undefined;
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    if (method === 'OPTIONS') {
      res.writeHead(204, corsHeaders(origin, origins, true)).end();
      return;
    }
    for (const [name, value] of Object.entries(corsHeaders(origin, origins, false))) res.setHeader(name, value);
    const match = matchRoute(compiled, method, path);
    if (!match.route) {
      sendJson(res, match.pathKnown ? 405 : 404, { error: match.pathKnown ? 'ERR_METHOD_NOT_ALLOWED' : 'ERR_ROUTE_NOT_FOUND' });
      return;
    }
    if (!requests.take(routeKey(match.route))) {
      // Over the route's throttle: API Gateway's own answer, no Lambda runs.
      sendJson(res, 429, { message: 'Too Many Requests' });
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        sendJson(res, 413, { error: 'ERR_PAYLOAD_TOO_LARGE' });
        return;
      }
      throw error;
    }
    const started = Date.now();
    try {
      const handler = await loadHandler(handlerFile('http', match.route.fn));
      const result = await handler(
        buildEvent(req, body, match.route, match.pathParameters ?? {}),
        lambdaContext(`conversa-${match.route.fn}`),
      );
      writeResult(res, result);
    } catch (error) {
      opts.log(
        `[api] ${method} ${path} -> handler ${match.route.fn} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!res.headersSent) sendJson(res, 500, { error: 'ERR_INTERNAL' });
      return;
    }
    if (res.statusCode >= 500) opts.log(`[api] ${method} ${path} -> ${res.statusCode} (${Date.now() - started} ms)`);
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      opts.log(`[api] ${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { error: 'ERR_INTERNAL' });
      else res.end();
    });
  });
  // Keep-alive sockets would otherwise hold close() open until they time out.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    allowOrigins: (allowed) => {
      origins = [...allowed];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
