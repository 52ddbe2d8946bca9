/**
 * The API describes itself (issue 23 §1): GET /api/openapi.json is generated from routes.ts and the
 * request schemas of declarations/http-requests.ts. This file holds the two together:
 * - every route of routes.ts is in the document, with its path parameters, and no declaration names a
 *   route that does not exist;
 * - every handler's action is run with a fake caller and the schemas it hands to parseInput are
 *   recorded: each must be the very schema object declared for its route and part (body, query,
 *   params), and each declared schema must be one the action validates with. A handler that changes
 *   its schema, or a declaration that names another, fails here.
 * No stack: the actions' domain calls fail on the missing table, after their input was parsed.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Action, RequestContext } from '#http/types';
import { httpRequests } from '../src/declarations/http-requests.ts';
import { buildOpenApiDocument, EXTERNAL_SEND_ROUTE, externalSendAnswerSchema, openApiPath } from '../src/declarations/openapi.ts';
import { httpFunctions, httpRoutes, routeKey } from '../src/routes.ts';

interface Parsed {
  /** body, query, params, or the name of the one path parameter parsed. */
  part: string;
  schema: unknown;
}
const parsed: Parsed[] = [];
const parsedIds: string[] = [];
/** The request the running action was given: what it parses is told apart by identity, not by its error label. */
let current: RequestContext | undefined;

function partOf(value: unknown, root: string): string {
  if (!current) return root;
  if (value === current.query) return 'query';
  if (value === current.params) return 'params';
  if (value === current.body) return 'body';
  const param = Object.entries(current.params).find(([, sample]) => sample === value);
  return param ? param[0] : root;
}

vi.mock('#http/validate', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#http/validate')>();
  return {
    ...actual,
    parseInput: (schema: Parameters<typeof actual.parseInput>[0], value: unknown, root = 'body') => {
      parsed.push({ part: partOf(value, root), schema });
      return actual.parseInput(schema, value, root);
    },
    parseId: (params: Record<string, string>, name = 'id') => {
      parsedIds.push(name);
      return actual.parseId(params, name);
    },
  };
});

const actionsOf = new Map<string, Record<string, Action>>();
vi.mock('#http/handler', () => ({
  httpHandler: (fn: string, actions: Record<string, Action>) => {
    actionsOf.set(fn, actions);
    return async () => ({ statusCode: 500 });
  },
}));

// The external API admits its token before it reads the body: a fake sender lets the action reach its parse.
vi.mock('#domain/external-api/send', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#domain/external-api/send')>()),
  admitExternalRequest: async () => ({ rate: { limit: 1, remaining: 1, resetInSeconds: 1 } }),
  assertAdmitted: async () => ({ company: { id: FAKE_ID }, connection: { id: FAKE_ID } }),
  sendExternalMessage: async () => ({}),
}));

const FAKE_ID = 987_654_321;
const WEBHOOK_TOKEN = 'openapi-test';

/** Valid path parameters, so an action gets past them to its body; any body is refused as a string. */
const sampleParams: Record<string, string> = {
  email: 'nobody@example.com',
  token: '123456',
  newPassword: 'Secret-password-1',
  jobId: '00000000-0000-4000-8000-000000000000',
  uuid: '00000000-0000-4000-8000-000000000000',
  key: 'userRating',
  path: `${FAKE_ID}/file.png`,
  deliveryId: 'whd_0000000000aaaaaaaaaaaaaaaa',
};

function fakeContext(method: string, path: string): RequestContext {
  const params = Object.fromEntries([...path.matchAll(/\{(\w+)\+?\}/g)].map(([, name]) => [name, sampleParams[name!] ?? String(FAKE_ID)]));
  const identity = {
    companyId: FAKE_ID,
    userId: FAKE_ID,
    profile: 'admin',
    super: true,
    email: 'nobody@example.com',
    plan: { users: 10, connections: 10, queues: 10 },
    user: { id: FAKE_ID, companyId: FAKE_ID, name: 'Docs', profile: 'admin', queueIds: [] },
    company: { id: FAKE_ID, name: 'Docs' },
    token: {},
    rawToken: 'token',
  };
  return {
    event: { routeKey: `${method} ${path}`, headers: { 'asaas-access-token': WEBHOOK_TOKEN } } as unknown as APIGatewayProxyEventV2,
    params,
    query: {},
    body: 'not a JSON object',
    rawBody: Buffer.from('not a JSON object'),
    identity: identity as unknown as RequestContext['identity'],
    route: httpRoutes.find((route) => routeKey(route) === `${method} ${path}`)!,
  };
}

const within = (ms: number, work: Promise<unknown>) =>
  Promise.race([work.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms))]);

/** What each route's action handed to parseInput (and the ids it read with parseId). */
const seen = new Map<string, { parsed: Parsed[]; ids: string[] }>();

beforeAll(async () => {
  process.env.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN;
  delete process.env.TABLE_NAME;
  for (const fn of httpFunctions) await import(`../src/handlers/http/${fn}.ts`);
  for (const route of httpRoutes) {
    const action = actionsOf.get(route.fn)?.[routeKey(route)];
    if (!action) continue;
    parsed.length = 0;
    parsedIds.length = 0;
    // Some actions are not async: their parse throws synchronously.
    current = fakeContext(route.method, route.path);
    const ctx = current;
    await within(
      5_000,
      Promise.resolve().then(() => action(ctx)),
    );
    seen.set(routeKey(route), { parsed: [...parsed], ids: [...parsedIds] });
  }
}, 120_000);

// biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON document by path
type Json = Record<string, any>;
const document = buildOpenApiDocument('test') as Json;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and plain JSON', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(document.info.title).toBe('Conversa API');
  });

  it('has every route of routes.ts, tagged with its Lambda, and the public ones without a token', () => {
    const missing = httpRoutes.filter((route) => !document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()]);
    expect(missing.map(routeKey)).toEqual([]);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item as Json));
    expect(operations).toHaveLength(httpRoutes.length);
    for (const route of httpRoutes) {
      const operation = document.paths[openApiPath(route.path)][route.method.toLowerCase()];
      expect(operation.tags, routeKey(route)).toEqual([route.fn]);
      expect(operation.responses['4XX'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      if (route.access === 'public' && routeKey(route) !== EXTERNAL_SEND_ROUTE) expect(operation.security, routeKey(route)).toEqual([]);
      if (route.access !== 'public') expect(operation.security, routeKey(route)).toEqual([{ session: [] }]);
    }
    expect(document.paths['/api/openapi.json'].get.security).toEqual([]);
  });

  it('declares no request for a route that does not exist', () => {
    const routes = new Set(httpRoutes.map(routeKey));
    expect(Object.keys(httpRequests).filter((key) => !routes.has(key))).toEqual([]);
  });

  it('names each path parameter of a path as a required path parameter, ids as integers', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(path, 'no API Gateway greedy parameter left').not.toMatch(/\+\}/);
      for (const [method, operation] of Object.entries(item as Json)) {
        const pathParams = (operation.parameters ?? []).filter((parameter: Json) => parameter.in === 'path');
        expect(pathParams.map((parameter: Json) => parameter.name).sort(), `${method} ${path}`).toEqual([...names].sort());
        for (const parameter of pathParams) expect(parameter.required).toBe(true);
      }
    }
    expect(document.paths['/users/{id}'].get.parameters[0]).toEqual({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'integer', exclusiveMinimum: 0 },
    });
  });

  it('carries request bodies and query parameters from the zod schemas', () => {
    const login = document.paths['/auth/login'].post.requestBody.content['application/json'].schema;
    expect(login.type).toBe('object');
    expect(login.required).toEqual(expect.arrayContaining(['email', 'password']));
    const tickets = document.paths['/tickets'].get.parameters.map((parameter: Json) => `${parameter.in}:${parameter.name}`);
    expect(tickets).toEqual(expect.arrayContaining(['query:pageNumber', 'query:searchParam']));
  });

  it('describes the external API in full: its token, Idempotency-Key, both bodies and its answers with RateLimit-* headers', () => {
    const send = document.paths['/api/messages/send'].post;
    expect(send.security).toEqual([{ connectionToken: [] }]);
    expect(send.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    expect(Object.keys(send.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(send.requestBody.content['application/json'].schema.required).toEqual(['number']);
    expect(Object.keys(send.requestBody.content['multipart/form-data'].schema.properties)).toEqual(
      expect.arrayContaining(['number', 'body', 'medias']),
    );
    for (const status of ['200', '400', '403', '409', '422', '429']) {
      expect(Object.keys(send.responses[status].headers), status).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
    expect(send.responses['429'].headers['Retry-After']).toBeDefined();
    expect(send.responses['200'].content['application/json'].schema.properties.mensagem.const).toBe('Mensagem enviada');
  });

  it("answers the external API's 200 as its handler does", async () => {
    const { SENT_ANSWER } = await vi.importActual<typeof import('#domain/external-api/send')>('#domain/external-api/send');
    expect(externalSendAnswerSchema.parse(SENT_ANSWER)).toEqual(SENT_ANSWER);
  });
});

describe('the handlers validate with the declared schemas', () => {
  const declaredFor = (key: string, part: string): unknown => {
    const request = httpRequests[key]!;
    if (part === 'body') return request.body;
    if (part === 'query') return request.query;
    if (part === 'params') return request.params;
    return request.param?.[part];
  };

  it('runs an action for every route', () => {
    expect(httpRoutes.filter((route) => !seen.has(routeKey(route))).map(routeKey)).toEqual([]);
  });

  it("hands parseInput only the schema declared for the route's part", () => {
    const undeclared = [...seen].flatMap(([key, { parsed: calls }]) =>
      calls.filter(({ part, schema }) => declaredFor(key, part) !== schema).map(({ part }) => `${key} (${part})`),
    );
    expect(undeclared).toEqual([]);
  });

  it('validates with every schema declared for the route', () => {
    const unused = Object.entries(httpRequests).flatMap(([key, request]) => {
      const parts = seen.get(key)?.parsed.map(({ part }) => part) ?? [];
      const declared = [
        ...(request.body ? ['body'] : []),
        ...(request.query ? ['query'] : []),
        ...(request.params ? ['params'] : []),
        ...Object.keys(request.param ?? {}),
      ];
      return declared.filter((part) => !parts.includes(part)).map((part) => `${key} (${part})`);
    });
    expect(unused).toEqual([]);
  });

  it('documents every id read with parseId as an integer path parameter', () => {
    for (const route of httpRoutes) {
      const operation = document.paths[openApiPath(route.path)][route.method.toLowerCase()];
      for (const name of seen.get(routeKey(route))?.ids ?? []) {
        const parameter = operation.parameters.find((candidate: Json) => candidate.in === 'path' && candidate.name === name);
        expect(parameter?.schema.type, `${routeKey(route)} {${name}}`).toBe('integer');
      }
    }
  });
});
