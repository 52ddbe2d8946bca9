/**
 * What an action sees: the parsed request and, on non-public routes, the verified identity with
 * the records the access checks already loaded (so actions never re-read them).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { TokenIdentity } from '#commons/jwt';
import type { Identity as DomainIdentity } from '#domain/identity';
import type { CompanyRecord } from '#storage/companies/companies';
import type { UserRecord } from '#storage/users/users';
import type { HttpRoute } from '../routes.ts';
import type { HttpResult } from './result.ts';

/** The domain's Identity (tenant, user, role, plan) with what only the HTTP layer holds. */
export interface Identity extends DomainIdentity {
  email: string;
  user: UserRecord;
  company: CompanyRecord;
  token: TokenIdentity;
  /** The raw bearer token, for actions that hand it back (POST /auth/session). */
  rawToken: string;
}

export interface RequestContext {
  event: APIGatewayProxyEventV2;
  /** Path parameters, as API Gateway delivers them (already URL-decoded). */
  params: Record<string, string>;
  query: Record<string, string>;
  /** Parsed JSON body, or undefined when there is none (or it is not JSON: see rawBody). */
  body: unknown;
  /** The decoded body bytes, for multipart uploads and other non-JSON bodies. */
  rawBody: Buffer | undefined;
  identity: Identity | undefined;
  route: HttpRoute;
}

/** A plain return value is sent as 200 JSON; return an HttpResult for another status. */
export type Action = (ctx: RequestContext) => Promise<unknown | HttpResult>;
