/**
 * Response shaping: every response (success or error) is JSON with the CORS headers, so the
 * browser can read error bodies too.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { env } from '#commons/env';
import { API_CORS } from '../declarations/api-cors.ts';

export class HttpResult {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** The body is already text in its own content type (a CSV), sent as it is. */
    readonly raw = false,
  ) {}
}

export const ok = (body: unknown): HttpResult => new HttpResult(200, body);
export const created = (body: unknown): HttpResult => new HttpResult(201, body);
export const noContent = (): HttpResult => new HttpResult(204, undefined);
/** A download: the text as a file the browser saves rather than shows. */
export const textFile = (text: string, contentType: string, fileName: string, headers: Record<string, string> = {}): HttpResult =>
  new HttpResult(200, text, { 'content-type': contentType, 'content-disposition': `attachment; filename="${fileName}"`, ...headers }, true);

/** The handler's own CORS headers; API Gateway answers with its own over them (declarations/api-cors.ts). */
export function corsHeaders(): Record<string, string> {
  return {
    'access-control-allow-origin': env.corsOrigin,
    'access-control-allow-headers': API_CORS.allowHeaders.join(','),
    'access-control-allow-methods': API_CORS.allowMethods.join(','),
    'access-control-expose-headers': API_CORS.exposeHeaders.join(','),
  };
}

export function toResponse(result: HttpResult): APIGatewayProxyStructuredResultV2 {
  const hasBody = result.body !== undefined && result.status !== 204;
  return {
    statusCode: result.status,
    headers: {
      ...corsHeaders(),
      // Every answer is read as the type it says (JSON, or a redirect to media), never sniffed into another.
      'x-content-type-options': 'nosniff',
      ...(hasBody ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      ...result.headers,
    },
    body: hasBody ? (result.raw ? String(result.body) : JSON.stringify(result.body)) : '',
  };
}
