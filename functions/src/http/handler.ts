/**
 * One Lambda per feature area (`fn` in the route table). The middy chain follows STYLE:
 * normalise headers -> parse body -> access + validation inside the action -> error mapper last.
 *
 *   export const handler = httpHandler('users', { 'GET /users': listUsers, ... });
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { AppError } from '#commons/errors';
import { runInAuditScope } from '#domain/audit/request-scope';
import { type HttpFunctionName, type HttpRoute, routeKey, routesOf } from '../routes.ts';
import { authenticate } from './access.ts';
import { parseBody } from './body-parser.ts';
import { errorResponse } from './error-mapper.ts';
import { HttpResult, toResponse } from './result.ts';
import type { Action, RequestContext } from './types.ts';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
export type HttpLambdaHandler = (event: Event, context?: Context) => Promise<Result>;

/** Fails at module load (cold start, and every unit test importing a handler) if an action is missing or extra. */
function checkCoverage(fn: HttpFunctionName, actions: Record<string, Action>): Map<string, HttpRoute> {
  const routes = new Map(routesOf(fn).map((route) => [routeKey(route), route]));
  const missing = [...routes.keys()].filter((key) => !(key in actions));
  const extra = Object.keys(actions).filter((key) => !routes.has(key));
  if (missing.length || extra.length) {
    throw new Error(`httpHandler('${fn}'): missing actions [${missing.join(', ')}], unknown actions [${extra.join(', ')}]`);
  }
  return routes;
}

/**
 * HTTP APIs deliver path parameters already URL-decoded (and so does the local gateway): decoding
 * again would corrupt a literal `%41` in a reset password.
 */
function definedOnly(values: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) if (value !== undefined) out[key] = value;
  return out;
}

class RouteNotFoundError extends AppError {
  constructor() {
    super('ERR_ROUTE_NOT_FOUND', 404);
  }
}

export function httpHandler(fn: HttpFunctionName, actions: Record<string, Action>): HttpLambdaHandler {
  const routes = checkCoverage(fn, actions);

  const dispatch = async (event: Event): Promise<Result> => {
    const route = routes.get(event.routeKey);
    const action = actions[event.routeKey];
    if (!route || !action) throw new RouteNotFoundError();
    const identity = await authenticate(event, route);
    const { body, rawBody } = parseBody(event, route.maxBodyBytes);
    const ctx: RequestContext = {
      event,
      params: definedOnly(event.pathParameters),
      query: definedOnly(event.queryStringParameters),
      body,
      rawBody,
      identity,
      route,
    };
    // Audit entries written while this request is served name its caller, address and agent.
    const value = await runInAuditScope(
      {
        ip: event.requestContext?.http?.sourceIp ?? null,
        userAgent: event.headers?.['user-agent'] ?? event.requestContext?.http?.userAgent ?? null,
        actor: identity && { companyId: identity.companyId, userId: identity.userId, userName: identity.user.name },
      },
      () => action(ctx),
    );
    return toResponse(value instanceof HttpResult ? value : new HttpResult(200, value ?? null));
  };

  const handler = middy<Event, Result>()
    .use(httpHeaderNormalizer())
    .use({
      // Last in the chain: every thrown error becomes the spec's `{ error }` body.
      onError: (request) => {
        request.response = errorResponse(request.error);
      },
    })
    .handler(dispatch);

  return (event, context) => handler(event, context ?? ({} as Context));
}
