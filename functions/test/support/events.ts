/** API Gateway HTTP API (payload v2) events, as the deployed API and the local gateway send them. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export interface EventOptions {
  token?: string;
  body?: unknown;
  /** A raw body string, sent as is (for malformed JSON). */
  rawBody?: string;
  isBase64Encoded?: boolean;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export function httpEvent(routeKey: string, options: EventOptions = {}): APIGatewayProxyEventV2 {
  const [method = 'GET', path = '/'] = routeKey.split(' ');
  let rawPath = path;
  for (const [name, value] of Object.entries(options.pathParameters ?? {}))
    rawPath = rawPath.replace(`{${name}}`, encodeURIComponent(value));
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: {
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    queryStringParameters: options.query,
    pathParameters: options.pathParameters,
    body,
    isBase64Encoded: options.isBase64Encoded ?? false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: crypto.randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

/** Status, parsed body and headers of a handler's response. */
export function parseResponse(result: APIGatewayProxyStructuredResultV2): {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
} {
  return {
    status: result.statusCode ?? 0,
    body: result.body ? (JSON.parse(result.body) as Record<string, unknown>) : {},
    headers: (result.headers ?? {}) as Record<string, unknown>,
  };
}
