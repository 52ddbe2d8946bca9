/**
 * The API described in OpenAPI 3.1 (`GET /api/openapi.json`), generated from the route table
 * (routes.ts: methods, paths, access, plan flags, the Lambda as the tag) and the request schemas the
 * handlers validate with (http-requests.ts), through zod's own JSON Schema output: OpenAPI 3.1's
 * schemas are JSON Schema 2020-12, so zod's output goes in as it is. Nothing here is written by hand
 * but the words around it and the external API's answers, which its handler shapes itself.
 *
 * Loaded only by that route's dynamic import (handlers/http/auth.ts): the generator and every request
 * schema stay out of every Lambda's cold start (npm run bench:bundles).
 */
import * as z from 'zod';
import { type HttpRoute, httpRoutes, routeKey } from '../routes.ts';
import { httpRequests, type RequestDeclaration } from './http-requests.ts';

type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.1';
/** What a send answers (domain/external-api/send.ts' SENT_ANSWER, held to it by functions/test/openapi.test.ts). */
export const externalSendAnswerSchema = z.object({ mensagem: z.literal('Mensagem enviada') });

/** The external API's one route, described in full (headers, answers) for the clients that integrate with it. */
export const EXTERNAL_SEND_ROUTE = 'POST /api/messages/send';

/** A request schema as JSON Schema 2020-12: what a client may send (the input side of transforms and defaults). */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return json;
}

/** API Gateway's greedy `{path+}` is OpenAPI's `{path}`. */
export const openApiPath = (path: string): string => path.replace(/\{(\w+)\+\}/g, '{$1}');

const pathParamNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\+?\}/g)].map((match) => match[1] as string);

/** `id` and `...Id` are read with parseId (a positive integer); declared parameters with their own schema. */
function pathParamSchema(name: string, request: RequestDeclaration): Json {
  const declared = request.param?.[name];
  if (declared) return jsonSchemaOf(declared);
  const together = request.params && (jsonSchemaOf(request.params).properties as Record<string, Json> | undefined)?.[name];
  if (together) return together;
  if (name === 'id' || name.endsWith('Id')) return { type: 'integer', exclusiveMinimum: 0 };
  return { type: 'string' };
}

function parametersOf(route: HttpRoute, request: RequestDeclaration): Json[] {
  const path = pathParamNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: pathParamSchema(name, request) }));
  if (!request.query) return path;
  const query = jsonSchemaOf(request.query);
  const required = new Set((query.required as string[] | undefined) ?? []);
  const properties = (query.properties ?? {}) as Record<string, Json>;
  return [...path, ...Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }))];
}

function requestBodyOf(request: RequestDeclaration): Json | undefined {
  const content: Json = {};
  const body = request.body && jsonSchemaOf(request.body);
  if (body) content['application/json'] = { schema: body };
  if (request.upload) {
    const fields = (body?.properties ?? {}) as Record<string, Json>;
    const file = { type: 'string', contentMediaType: 'application/octet-stream' };
    content['multipart/form-data'] = {
      schema: { type: 'object', properties: { ...fields, [request.upload]: { type: 'array', items: file } } },
    };
  }
  return Object.keys(content).length ? { required: Boolean(body?.required), content } : undefined;
}

const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function responsesOf(route: HttpRoute, request: RequestDeclaration): Json {
  const responses: Json = { '2XX': { description: 'Success' } };
  if (request.body || request.query || request.params || request.param || request.upload) {
    responses['400'] = errorResponse('Invalid input: `ERR_VALIDATION` with the offending `field` and its `message`');
  }
  if (route.access !== 'public') responses['401'] = errorResponse('No session, or an expired one: `ERR_SESSION_EXPIRED`');
  if (route.access === 'admin' || route.access === 'super' || route.plan) {
    responses['403'] = errorResponse(route.plan ? `Not allowed, or the plan lacks \`${route.plan}\`` : 'Not allowed: `ERR_NO_PERMISSION`');
  }
  responses['4XX'] = errorResponse('Refused: `{ "error": "ERR_..." }`');
  return responses;
}

const securityOf = (route: HttpRoute): Json[] => (route.access === 'public' ? [] : [{ session: [] }]);

function operationOf(route: HttpRoute, request: RequestDeclaration): Json {
  const operation: Json = {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, next?: string) => next?.toUpperCase() ?? '')}`,
    summary: request.summary,
    tags: [route.fn],
    'x-access': route.access,
  };
  if (route.plan) operation['x-plan-feature'] = route.plan;
  const parameters = parametersOf(route, request);
  if (parameters.length) operation.parameters = parameters;
  const body = requestBodyOf(request);
  if (body) operation.requestBody = body;
  operation.responses = responsesOf(route, request);
  operation.security = securityOf(route);
  return routeKey(route) === EXTERNAL_SEND_ROUTE ? externalSendOperation(operation) : operation;
}

const rateLimitHeaders: Json = {
  'RateLimit-Limit': { description: "The token's requests per window", schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
};

const withRateLimit = (response: Json): Json => ({ ...response, headers: rateLimitHeaders });

/** The external API: a connection's token, not a session; every answer to a known token carries its RateLimit-* headers. */
function externalSendOperation(operation: Json): Json {
  return {
    ...operation,
    description:
      'Sends a text (JSON) or files (multipart `medias`, with `body` captions) to `number` from the connection the token belongs to. ' +
      'An `Idempotency-Key` makes a retry safe: the same key and body within 24 h answer the first answer again.',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Any string of 1 to 255 characters, new for each message; retries reuse it',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ],
    security: [{ connectionToken: [] }],
    responses: {
      '200': {
        description: 'Sent (or queued to be sent)',
        headers: {
          ...rateLimitHeaders,
          'Idempotent-Replayed': {
            description: "`true` when this is a stored answer to the key's first request",
            schema: { type: 'string' },
          },
        },
        content: { 'application/json': { schema: jsonSchemaOf(externalSendAnswerSchema) } },
      },
      '400': withRateLimit(errorResponse('`ERR_VALIDATION` (with `field`), `ERR_WAPP_INVALID_CONTACT` or `ERR_IDEMPOTENCY_KEY_INVALID`')),
      '401': errorResponse('No token, or an unknown one: `ERR_UNAUTHORIZED`'),
      '403': withRateLimit(errorResponse('`ERR_COMPANY_INACTIVE`, or the plan lacks the external API: `ERR_PLAN_FEATURE_DISABLED`')),
      '409': withRateLimit(errorResponse('The key is still being answered: `ERR_IDEMPOTENCY_KEY_IN_USE`')),
      '422': withRateLimit(errorResponse('The key was used with another body: `ERR_IDEMPOTENCY_KEY_REUSED`')),
      '429': {
        ...withRateLimit(errorResponse('Over the rate limit: `ERR_TOO_MANY_REQUESTS`')),
        headers: { ...rateLimitHeaders, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
      },
      '4XX': errorResponse('Refused: `{ "error": "ERR_..." }`'),
    },
  };
}

/** One tag per Lambda, the external API's first: it is what API clients come for. */
function tagsOf(routes: readonly HttpRoute[]): Json[] {
  const names = [...new Set(routes.map((route) => route.fn))];
  const externalFirst = [...names.filter((name) => name === 'external-api'), ...names.filter((name) => name !== 'external-api')];
  return externalFirst.map((name) => ({ name }));
}

export function buildOpenApiDocument(version: string, routes: readonly HttpRoute[] = httpRoutes, requests = httpRequests): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const request = requests[routeKey(route)];
    if (!request) throw new Error(`No request declaration for ${routeKey(route)} (declarations/http-requests.ts)`);
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, request) };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Conversa API',
      version,
      description:
        'The REST API of the Conversa inbox, generated from the route table and the request schemas its handlers validate with. ' +
        'Every error answers `{ "error": "ERR_..." }`. The external messages API (`POST /api/messages/send`) takes a connection token.',
    },
    servers: [{ url: '/' }],
    tags: tagsOf(routes),
    security: [{ session: [] }],
    paths,
    components: {
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The signed-in user’s ID token' },
        connectionToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A connection's API token (Connections page), for the external messages API only",
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string', pattern: '^ERR_[A-Z0-9_]+$', examples: ['ERR_VALIDATION'] },
            field: { type: 'string', description: 'The offending field of a validation error' },
            message: { type: 'string' },
          },
        },
      },
    },
  };
}

let built: Json | undefined;
/** Built once per container: the route table and schemas do not change while it lives. */
export function openApiDocument(version: string): Json {
  built ??= buildOpenApiDocument(version);
  return built;
}
