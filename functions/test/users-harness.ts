/**
 * Shared by the users/settings/plans/companies/helps tests: real DynamoDB Local and cognito-local
 * (A1's starters), tenants seeded through the domain (so users exist in Cognito too), real ID
 * tokens, and handlers driven with API Gateway HTTP API v2 events resolved from the route table.
 */
import { AdminInitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { resetVerifier } from '#commons/jwt';
import type { Profile } from '#contracts/users';
import { provisionUser } from '#domain/users/provision';
import type { HttpLambdaHandler } from '#http/handler';
import { createCompany, newCompanyId } from '#storage/companies/companies';
import { createPlan, newPlanId, type PlanRecord } from '#storage/plans/plans';
import { type HttpFunctionName, httpRoutes, routeKey } from '../src/routes.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { companyFixture, planFixture } from './support/fixtures.ts';

export const PASSWORD = 'Secret123';

export interface Stack {
  ddb: DynamoDbLocal;
  cognito: CognitoLocal;
  stop: () => Promise<void>;
}

/** `streams`: the table's stream, for a file that runs its consumers (support/table-streams.ts). */
export async function startStack(options: { streams?: boolean } = {}): Promise<Stack> {
  const [ddb, cognito] = await Promise.all([startDynamoDbLocal({ streams: options.streams ?? false }), startCognitoLocal()]);
  resetVerifier();
  return {
    ddb,
    cognito,
    stop: async () => {
      await Promise.all([ddb.stop(), cognito.stop()]);
    },
  };
}

let unique = 0;
export const uniq = (prefix: string): string => `${prefix}${Date.now().toString(36)}${(unique++).toString(36)}`;

export async function signIn(stack: Stack, email: string, password = PASSWORD): Promise<string> {
  const out = await stack.cognito.client.send(
    new AdminInitiateAuthCommand({
      AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
      UserPoolId: stack.cognito.userPoolId,
      ClientId: stack.cognito.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const token = out.AuthenticationResult?.IdToken;
  if (!token) throw new Error(`No ID token for ${email}`);
  return token;
}

export async function seedPlan(overrides: Partial<PlanRecord> = {}): Promise<PlanRecord> {
  const plan = planFixture({ id: await newPlanId(), name: uniq('Plan '), ...overrides });
  await createPlan(plan);
  return plan;
}

export interface SeededUser {
  id: number;
  email: string;
  token: string;
}

export interface Tenant {
  companyId: number;
  plan: PlanRecord;
  admin: SeededUser;
  addUser: (profile?: Profile, opts?: { super?: boolean }) => Promise<SeededUser>;
}

/** A company with its plan and one admin (optionally a super user), signed in. */
export async function seedTenant(
  stack: Stack,
  opts: { plan?: Partial<PlanRecord>; super?: boolean; dueDate?: string | null } = {},
): Promise<Tenant> {
  const plan = await seedPlan(opts.plan);
  const companyId = await newCompanyId();
  await createCompany(
    companyFixture({
      id: companyId,
      name: uniq('Company '),
      email: `${uniq('c')}@acme.test`,
      planId: plan.id,
      dueDate: opts.dueDate ?? null,
    }),
  );
  const addUser = async (profile: Profile = 'user', extra: { super?: boolean } = {}): Promise<SeededUser> => {
    const email = `${uniq('u')}@acme.test`;
    const record = await provisionUser(companyId, { name: uniq('User '), email, password: PASSWORD, profile, super: extra.super ?? false });
    return { id: record.id, email, token: await signIn(stack, email) };
  };
  const admin = await addUser('admin', { super: opts.super ?? false });
  return { companyId, plan, admin, addUser };
}

const handlers = new Map<HttpFunctionName, Promise<HttpLambdaHandler>>();

function handlerOf(fn: HttpFunctionName): Promise<HttpLambdaHandler> {
  let loaded = handlers.get(fn);
  if (!loaded) {
    loaded = import(`../src/handlers/http/${fn}.ts`).then((mod: { handler: HttpLambdaHandler }) => mod.handler);
    handlers.set(fn, loaded);
  }
  return loaded;
}

export interface CallOptions {
  token?: string;
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
  /** Extra request headers (a browser's user-agent). */
  headers?: Record<string, string>;
  /** The caller's address as API Gateway saw it. */
  sourceIp?: string;
}

export interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
  headers: Record<string, unknown>;
}

/** Calls the route `key` ("PUT /users/{id}") through its Lambda handler, as API Gateway would. */
export async function call(key: string, options: CallOptions = {}): Promise<CallResult> {
  const route = httpRoutes.find((r) => routeKey(r) === key);
  if (!route) throw new Error(`No route ${key}`);
  const params = Object.fromEntries(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)]));
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const event = {
    version: '2.0',
    routeKey: key,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    queryStringParameters: options.query,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    isBase64Encoded: false,
    requestContext: { http: { method: route.method, path, sourceIp: options.sourceIp } },
  } as unknown as APIGatewayProxyEventV2;
  const res = await (await handlerOf(route.fn))(event);
  const type = String(res.headers?.['content-type'] ?? '');
  const text = res.body ? String(res.body) : '';
  const result = {
    status: res.statusCode ?? 200,
    body: text && type.startsWith('application/json') ? JSON.parse(text) : text || undefined,
  };
  // Not enumerable: tests comparing `{ status, body }` whole keep doing so.
  return Object.defineProperty(result, 'headers', { value: res.headers ?? {}, enumerable: false }) as CallResult;
}
