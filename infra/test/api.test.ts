/**
 * The APIs, identity and Lambdas of the stack, checked against the shared declarations they are
 * built from (routes.ts, queues.ts, env.ts), so adding a route or an env var can't silently miss AWS.
 */
import { env } from '@conversa/functions/commons/env';
import { SOCKET_PING_INTERVAL_MS } from '@conversa/functions/contracts/channels';
import {
  ACCOUNT_THROTTLE,
  HTTP_ROUTE_THROTTLE,
  REGION_SOCKETS,
  WS_PING_THROTTLE,
  WS_ROUTE_THROTTLE,
} from '@conversa/functions/declarations/api-throttles';
import { cognitoTriggers } from '@conversa/functions/declarations/cognito-triggers';
import { messageQueues } from '@conversa/functions/declarations/message-queues';
import { gatewayAnsweredWsRoutes, httpRoutes, routeKey, wsRouteKeys } from '@conversa/functions/routes';
import type { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaEntries } from '../lib/bundling.ts';
import { functionConstructId } from '../lib/conversa-stack.ts';
import { COGNITO_ADMIN_ACTIONS } from '../lib/identity.ts';
import { logicalIdOf, resourcesOf, synthesize } from './synth.ts';

let template: Template;
/** The routes' nested stack, its references to the API, authorizer and Lambdas resolved to the parent's ids. */
let routesTemplate: Template;
beforeAll(() => {
  ({ template, routesTemplate } = synthesize({ bundle: false }));
});

const functionId = (name: string) => logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId(name));
type Json = Record<string, unknown>;
const props = (type: string) => resourcesOf(template, type).map(([id, r]) => [id, r.Properties ?? {}] as [string, Json]);
const routeProps = (type: string) => resourcesOf(routesTemplate, type).map(([id, r]) => [id, r.Properties ?? {}] as [string, Json]);

/** The policy statements attached to a function's role. */
function statementsOf(name: string): Json[] {
  const role = logicalIdOf(template, 'AWS::IAM::Role', `${functionConstructId(name)}Role`);
  return props('AWS::IAM::Policy')
    .filter(([, p]) => (p.Roles as Json[]).some((r) => r.Ref === role))
    .flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement);
}
const actionsOf = (name: string) => statementsOf(name).flatMap((s) => [s.Action].flat() as string[]);

describe('HTTP API', () => {
  it('has exactly the routes of the shared route table', () => {
    // Prepare
    const httpApiId = logicalIdOf(template, 'AWS::ApiGatewayV2::Api', 'HttpApi');
    const deployed = routeProps('AWS::ApiGatewayV2::Route').map(([, p]) => [p.RouteKey as string, p.ApiId] as const);
    // Assess: all on the HTTP API, none left in the region's stack
    expect(deployed.map(([key]) => key).sort()).toEqual(httpRoutes.map(routeKey).sort());
    for (const [, apiId] of deployed) expect(apiId).toEqual({ Ref: httpApiId });
    expect(props('AWS::ApiGatewayV2::Route').filter(([, p]) => (p.ApiId as Json).Ref === httpApiId)).toEqual([]);
  });

  it('lets API Gateway invoke each route Lambda through one permission for the whole API, not one per route', () => {
    // Prepare
    const httpApiId = logicalIdOf(template, 'AWS::ApiGatewayV2::Api', 'HttpApi');
    const permissions = routeProps('AWS::Lambda::Permission').map(([, p]) => p);
    const routeLambdas = [...new Set(httpRoutes.map((route) => route.fn))];
    // Assess
    expect(permissions).toHaveLength(routeLambdas.length);
    for (const fn of routeLambdas) {
      const own = permissions.filter((p) => JSON.stringify(p.FunctionName).includes(functionId(fn)));
      expect(own, fn).toHaveLength(1);
      expect(own[0]).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      const sourceArn = JSON.stringify(own[0]!.SourceArn);
      expect(sourceArn).toContain(`{"Ref":"${httpApiId}"},"/*/*/*"`);
    }
  });

  it.each(httpRoutes.map((r) => [routeKey(r), r] as const))(
    '%s goes to its Lambda with payload v2 and the right authorizer',
    (key, route) => {
      // Prepare
      const [, apiRoute] = routeProps('AWS::ApiGatewayV2::Route').find(([, p]) => p.RouteKey === key)!;
      const integrationId = ((apiRoute.Target as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1][1] as { Ref: string }).Ref;
      const integration = routesTemplate.toJSON().Resources[integrationId].Properties;
      // Assess
      expect(JSON.stringify(integration.IntegrationUri)).toContain(functionId(route.fn));
      expect(integration.PayloadFormatVersion).toBe('2.0');
      if (route.access === 'public') {
        expect(apiRoute.AuthorizationType).toBe('NONE');
        expect(apiRoute.AuthorizerId).toBeUndefined();
      } else {
        expect(apiRoute.AuthorizationType).toBe('JWT');
        const authorizerId = resourcesOf(template, 'AWS::ApiGatewayV2::Authorizer')[0]![0];
        expect(apiRoute.AuthorizerId).toEqual({ Ref: authorizerId });
      }
    },
  );

  it('verifies Cognito tokens of this pool for this client', () => {
    const [[, authorizer]] = props('AWS::ApiGatewayV2::Authorizer') as [[string, Json]];
    const jwt = authorizer.JwtConfiguration as Json;
    expect(jwt.Audience).toEqual([{ Ref: logicalIdOf(template, 'AWS::Cognito::UserPoolClient', 'IdentityUserPoolWebClient') }]);
    expect(JSON.stringify(jwt.Issuer)).toContain(logicalIdOf(template, 'AWS::Cognito::UserPool', 'IdentityUserPool'));
  });

  it('allows CORS only from the CloudFront origin, throttles and logs access', () => {
    const [[, api]] = props('AWS::ApiGatewayV2::Api').filter(([, p]) => p.ProtocolType === 'HTTP') as [[string, Json]];
    const origins = (api.CorsConfiguration as Json).AllowOrigins as unknown[];
    expect(origins).toHaveLength(1);
    expect(JSON.stringify(origins[0])).toContain(logicalIdOf(template, 'AWS::CloudFront::Distribution', 'WebDistribution'));
    // A browser may send the external API's Idempotency-Key and read its rate window (issue 23 §3).
    expect(api.CorsConfiguration).toMatchObject({
      AllowHeaders: expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
      ExposeHeaders: expect.arrayContaining([
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'retry-after',
        'idempotent-replayed',
      ]),
      MaxAge: 86_400,
    });
    const [, stage] = props('AWS::ApiGatewayV2::Stage').find(([, p]) => p.StageName === '$default')!;
    expect(stage.DefaultRouteSettings).toMatchObject(throttleOf(HTTP_ROUTE_THROTTLE));
    expect(stage.AccessLogSettings).toMatchObject({ DestinationArn: expect.anything() });
  });

  it("throttles each route high enough for the region's goal: replies to 1,000 inbound messages a second", () => {
    const [, stage] = props('AWS::ApiGatewayV2::Stage').find(([, p]) => p.StageName === '$default')!;
    const settings = stage.DefaultRouteSettings as Json;
    expect(settings.ThrottlingRateLimit).toBeGreaterThanOrEqual(1_000);
    expect(settings.ThrottlingRateLimit).toBeLessThanOrEqual(ACCOUNT_THROTTLE.rateLimit);
    expect(settings.ThrottlingBurstLimit).toBeLessThanOrEqual(ACCOUNT_THROTTLE.burstLimit);
  });
});

/** A stage's route settings as CloudFormation spells them. */
const throttleOf = (throttle: { rateLimit: number; burstLimit: number }) => ({
  ThrottlingRateLimit: throttle.rateLimit,
  ThrottlingBurstLimit: throttle.burstLimit,
});

describe('WebSocket API', () => {
  it('routes on the action field and sends every route key to the realtime Lambda but the ones the gateway answers', () => {
    const [[wsApiId, wsApi]] = props('AWS::ApiGatewayV2::Api').filter(([, p]) => p.ProtocolType === 'WEBSOCKET') as [[string, Json]];
    expect(wsApi.RouteSelectionExpression).toBe('$request.body.action');
    const routes = props('AWS::ApiGatewayV2::Route').filter(([, p]) => (p.ApiId as Json).Ref === wsApiId);
    expect(routes.map(([, p]) => p.RouteKey).sort()).toEqual([...wsRouteKeys].sort());
    const integrations = props('AWS::ApiGatewayV2::Integration').filter(([, p]) => (p.ApiId as Json).Ref === wsApiId);
    const lambda = integrations.filter(([, p]) => p.IntegrationType === 'AWS_PROXY');
    expect(lambda).toHaveLength(1);
    expect(JSON.stringify(lambda[0]![1].IntegrationUri)).toContain(functionId('realtime'));
    for (const [, route] of routes) {
      const answered = route.RouteKey === 'ping';
      expect(JSON.stringify(route.Target).includes(lambda[0]![0])).toBe(!answered);
      if (!answered) expect(route.RouteResponseSelectionExpression).toBeUndefined();
    }
  });

  it('answers ping in API Gateway itself: a mock integration whose response is the pong frame, sent back two-way', () => {
    const [[wsApiId]] = props('AWS::ApiGatewayV2::Api').filter(([, p]) => p.ProtocolType === 'WEBSOCKET') as [[string, Json]];
    expect(Object.keys(gatewayAnsweredWsRoutes)).toEqual(['ping']);
    const [routeId, route] = props('AWS::ApiGatewayV2::Route').find(([, p]) => p.RouteKey === 'ping')!;
    expect(route.RouteResponseSelectionExpression).toBe('$default');
    const [mockId, mock] = props('AWS::ApiGatewayV2::Integration').find(([, p]) => p.IntegrationType === 'MOCK')!;
    expect(mock).toMatchObject({ ApiId: { Ref: wsApiId }, RequestTemplates: { $default: '{"statusCode":200}' } });
    expect(route.Target).toEqual({ 'Fn::Join': ['', ['integrations/', { Ref: mockId }]] });
    const [[, response]] = props('AWS::ApiGatewayV2::IntegrationResponse') as [[string, Json]];
    expect(response).toMatchObject({ IntegrationId: { Ref: mockId }, IntegrationResponseKey: '$default' });
    expect(JSON.parse((response.ResponseTemplates as Record<string, string>).$default!)).toEqual({ event: 'pong', data: null });
    const [[, routeResponse]] = props('AWS::ApiGatewayV2::RouteResponse') as [[string, Json]];
    expect(routeResponse).toMatchObject({ RouteId: { Ref: routeId }, RouteResponseKey: '$default' });
  });

  it('lets API Gateway invoke the realtime Lambda through one permission for every route key', () => {
    const [[wsApiId]] = props('AWS::ApiGatewayV2::Api').filter(([, p]) => p.ProtocolType === 'WEBSOCKET') as [[string, Json]];
    const permissions = props('AWS::Lambda::Permission').filter(([, p]) => p.Principal === 'apigateway.amazonaws.com');
    expect(permissions).toHaveLength(1);
    const [, permission] = permissions[0]!;
    expect(JSON.stringify(permission.FunctionName)).toContain(functionId('realtime'));
    expect(JSON.stringify(permission.SourceArn)).toContain(`{"Ref":"${wsApiId}"},"/*"`);
  });

  it('deploys stage prod automatically', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'prod', AutoDeploy: true });
  });

  it("throttles each route key for the region's goal: the pings of 100k sockets every 18 s, joins at 2,000 a second", () => {
    const [stageId, stage] = props('AWS::ApiGatewayV2::Stage').find(([, p]) => p.StageName === 'prod')!;
    expect(stage.DefaultRouteSettings).toMatchObject(throttleOf(WS_ROUTE_THROTTLE));
    const settings = stage.RouteSettings as Record<string, Json>;
    expect(Object.keys(settings)).toEqual(['ping']);
    expect(settings.ping).toEqual(throttleOf(WS_PING_THROTTLE));
    expect(settings.ping!.ThrottlingRateLimit).toBeGreaterThanOrEqual(REGION_SOCKETS / (SOCKET_PING_INTERVAL_MS / 1000));
    for (const throttle of [stage.DefaultRouteSettings as Json, settings.ping!]) {
      expect(throttle.ThrottlingRateLimit).toBeLessThanOrEqual(ACCOUNT_THROTTLE.rateLimit);
      expect(throttle.ThrottlingBurstLimit).toBeLessThanOrEqual(ACCOUNT_THROTTLE.burstLimit);
    }
    // The stage names the ping route in its settings, so CloudFormation must create that route first.
    const [pingRouteId] = props('AWS::ApiGatewayV2::Route').find(([, p]) => p.RouteKey === 'ping')!;
    expect(template.toJSON().Resources[stageId].DependsOn).toContain(pingRouteId);
  });
});

describe('Lambdas', () => {
  it.each(lambdaEntries().map((e) => [e.name]))('%s: nodejs22.x on arm64, 512 MB, its own log group', (name) => {
    const fn = template.toJSON().Resources[functionId(name)].Properties;
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 512, Handler: 'index.handler' });
    expect(fn.LoggingConfig.LogGroup).toEqual({ Ref: expect.stringMatching(new RegExp(`^${functionConstructId(name)}Logs`)) });
  });

  it.each(lambdaEntries().map((e) => [e.name, e.kind]))('%s: every variable functions/src/commons/env.ts requires is set', (name, kind) => {
    // Prepare: give the process exactly the variable names the stack sets for this function (a
    // pool's trigger takes the pool and client from Cognito's event: handlers/triggers)
    const variables = Object.keys(template.toJSON().Resources[functionId(name)].Properties.Environment.Variables);
    const saved = process.env;
    const fromEvent = kind === 'trigger' ? ['USER_POOL_ID', 'USER_POOL_CLIENT_ID'] : [];
    process.env = Object.fromEntries([...variables, ...fromEvent].map((key) => [key, 'set-by-stack']));
    try {
      // A table stream's consumer keeps the table's own derived items and is given the table alone
      // (its handler runs with no other variable: functions/test/message-words-writes.test.ts).
      if (kind === 'stream') {
        expect(env.tableName).toBe('set-by-stack');
        expect(variables.sort()).toEqual(['POWERTOOLS_SERVICE_NAME', 'SERVER_VERSION', 'TABLE_NAME']);
        return;
      }
      // Act + Assess: a missing one throws "Missing environment variable X"
      expect([env.tableName, env.userPoolId, env.userPoolClientId, env.wsManagementUrl, env.mediaBucket]).not.toContain(undefined);
      for (const queue of messageQueues) expect(env.queueUrl(queue.name)).toBe('set-by-stack');
      expect(variables).toEqual(expect.arrayContaining(['SERVER_VERSION', 'POWERTOOLS_SERVICE_NAME', 'CORS_ORIGIN']));
    } finally {
      process.env = saved;
    }
  });

  it('lets every publisher post to WebSocket connections (every function but the table stream consumers, which publish nothing)', () => {
    for (const { name, kind } of lambdaEntries()) {
      if (kind === 'stream') expect(actionsOf(name)).not.toContain('execute-api:ManageConnections');
      else expect(actionsOf(name)).toContain('execute-api:ManageConnections');
    }
  });

  it('gives Cognito admin actions only to auth, users and companies, and to a pool’s trigger only what it declares', () => {
    for (const { name, kind } of lambdaEntries()) {
      const admin = actionsOf(name).filter((a) => a.startsWith('cognito-idp:'));
      if (['auth', 'users', 'companies'].includes(name)) expect(admin.sort()).toEqual([...COGNITO_ADMIN_ACTIONS].sort());
      else if (kind === 'trigger') expect(admin).toEqual([...cognitoTriggers.find((trigger) => trigger.name === name)!.adminActions]);
      else expect(admin).toEqual([]);
    }
  });

  it('wires each declared queue consumer with partial batch failures', () => {
    // The table stream's consumers have mappings of their own (table-streams.test.ts).
    const mappings = props('AWS::Lambda::EventSourceMapping').filter(([, p]) => JSON.stringify(p.EventSourceArn).includes('Queues'));
    const consumers = messageQueues.filter((q) => q.consumer);
    expect(mappings).toHaveLength(consumers.length);
    for (const queue of consumers) {
      const mapping = mappings.find(([, p]) => JSON.stringify(p.FunctionName).includes(functionId(queue.consumer!)));
      expect(mapping?.[1].FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    }
  });
});

describe('Cognito', () => {
  it('signs in with email, has the tenant attributes and no self sign-up', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: { PasswordPolicy: { MinimumLength: 8, RequireUppercase: true, RequireLowercase: true, RequireNumbers: true } },
      // Recovery is ours (a mailed code of our own, issue 21): Cognito resets no password by itself.
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
    });
    const [[, pool]] = props('AWS::Cognito::UserPool') as [[string, Json]];
    const custom = (pool.Schema as Json[]).filter((a) => a.Name === 'companyId' || a.Name === 'userId');
    expect(custom).toEqual(expect.arrayContaining([expect.objectContaining({ AttributeDataType: 'String', Mutable: true })]));
    expect(custom).toHaveLength(2);
  });

  it("has a client for the API's password sign-in and refresh only, with revocable 30-day refresh tokens", () => {
    const [[, client]] = props('AWS::Cognito::UserPoolClient') as [[string, Json]];
    // No USER_PASSWORD_AUTH nor SRP: a client may not try passwords against the pool around the API.
    expect((client.ExplicitAuthFlows as string[]).sort()).toEqual(['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
    expect(client).toMatchObject({ EnableTokenRevocation: true, IdTokenValidity: 60, RefreshTokenValidity: 43200 });
    expect(client.GenerateSecret).toBeFalsy();
  });
});

describe('grants follow the code', () => {
  type Inputs = { files: string[]; importers: (module: string) => string[] };

  /**
   * The repo files each Lambda's bundle is made of, from esbuild's metafile (no guessing from names):
   * one build of every entry (without code splitting each output holds exactly its entry's files),
   * which parses the shared modules once instead of once a Lambda (29 s -> a few on a loaded CI).
   */
  async function inputsOfEvery(entries: { name: string; entry: string }[]): Promise<Map<string, Inputs>> {
    const out = await build({
      entryPoints: entries.map(({ name, entry }) => ({ in: entry, out: name })),
      outdir: 'grants-check',
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      external: ['@aws-sdk/*'],
      logLevel: 'silent',
    });
    const { inputs, outputs } = out.metafile;
    const byName = new Map<string, Inputs>();
    for (const [path, output] of Object.entries(outputs)) {
      if (!path.endsWith('.js')) continue;
      const files = Object.keys(output.inputs);
      const name = path.slice(path.lastIndexOf('/') + 1, -'.js'.length);
      byName.set(name, { files, importers: (module) => files.filter((file) => inputs[file]!.imports.some((i) => i.path === module)) });
    }
    return byName;
  }

  it('every Lambda that can send a session command may send to session-commands; every one that can touch media has the bucket', async () => {
    const missing: string[] = [];
    const entries = lambdaEntries();
    const built = await inputsOfEvery(entries);
    expect([...built.keys()].sort()).toEqual(entries.map(({ name }) => name).sort());
    for (const { name } of entries) {
      const { files, importers } = built.get(name)!;
      const statements = statementsOf(name);
      const allowed = (action: string, resource: string) =>
        statements.some((s) => [s.Action].flat().includes(action) && JSON.stringify(s.Resource).includes(resource));
      // The domain reaches the queue and the bucket through its ports; the wiring (adapters/wiring.ts)
      // hands every wired port its adapter, so what counts is code of the Lambda's own calling a port.
      const callers = (port: string) =>
        files.filter((f) => f.endsWith(port)).flatMap((file) => importers(file).filter((f) => !f.endsWith('adapters/wiring.ts')));
      if (callers('domain/messages/session-commands.ts').length && !allowed('sqs:SendMessage', 'Queuessessioncommands')) {
        missing.push(`${name}: sqs:SendMessage on session-commands`);
      }
      // S3 commands imported elsewhere count too; commons/s3.ts only builds the client, and the port's
      // adapter (media-bucket-s3.ts) is reached through the wiring.
      const s3Callers = importers('@aws-sdk/client-s3').filter((f) => !/(commons\/s3|adapters\/media-bucket-s3)\.ts$/.test(f));
      const bucketCallers = [...callers('domain/media/bucket.ts'), ...s3Callers];
      if (bucketCallers.length && !allowed('s3:GetObject*', 'MediaBucket'))
        missing.push(`${name}: the media bucket (${bucketCallers.join(', ')})`);
    }
    expect(missing).toEqual([]);
  }, 120_000);
});
