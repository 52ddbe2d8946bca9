import { API_CORS } from '@conversa/functions/declarations/api-cors';
import { HTTP_ROUTE_THROTTLE } from '@conversa/functions/declarations/api-throttles';
import { type Access, type HttpMethod as RouteMethod, routeKey } from '@conversa/functions/routes';
import { Duration, NestedStack, Stack } from 'aws-cdk-lib';
import {
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { apiAccessLogFormat } from './access-logs.ts';
import type { Identity } from './identity.ts';
import { retainedLogGroup } from './log-groups.ts';
import { acknowledge } from './nag.ts';

/** What the API needs of a route: functions/src/routes.ts's HttpRoute, or a test's wider table. */
export interface DeployedRoute {
  method: RouteMethod;
  path: string;
  fn: string;
  access: Access;
}

export interface ConversaHttpApiProps {
  /** The route table (functions/src/routes.ts's httpRoutes in the app). */
  routes: readonly DeployedRoute[];
  /** The Lambda of every `fn` the routes name. */
  functions: ReadonlyMap<string, IFunction>;
  identity: Identity;
  /** The only browser origin allowed by CORS. */
  webOrigin: string;
}

/**
 * The REST API: exactly the routes of functions/src/routes.ts, the same table the local gateway serves.
 *
 * The routes, their integrations, the authorizer and the invoke permissions live in a nested stack
 * (`Routes`): a route is one CloudFormation resource, and the spec's ~170 routes beside ~35 Lambdas
 * (5 resources each) and the alarms would take the region's stack past 300 of its 500. The API, its
 * stage and the Lambdas stay in the region's stack; the nested one only refers to them.
 */
export class ConversaHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** Holds every route, integration and invoke permission of the API. */
  readonly routeStack: NestedStack;
  /** Base URL without a trailing slash (the `$default` stage sits at the root). */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ConversaHttpApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      // Named after the stack, so each region's API is told apart in the console and in the logs.
      apiName: `${Stack.of(this).stackName}-http`,
      description: 'Conversa REST API',
      // The stage is declared below so it can carry throttling and access logs.
      createDefaultStage: false,
      // declarations/api-cors.ts, which the local gateway answers the same way.
      corsPreflight: {
        allowOrigins: [props.webOrigin],
        allowMethods: API_CORS.allowMethods.map((method) => CorsHttpMethod[method]),
        allowHeaders: [...API_CORS.allowHeaders],
        exposeHeaders: [...API_CORS.exposeHeaders],
        maxAge: Duration.seconds(API_CORS.maxAgeSeconds),
      },
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      // Per route, sized for the region's goal (declarations/api-throttles.ts; the local gateway enforces the same).
      throttle: HTTP_ROUTE_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(retainedLogGroup(this, 'AccessLogs')),
        format: apiAccessLogFormat('http'),
      },
    });
    this.url = this.api.apiEndpoint;

    this.routeStack = new NestedStack(this, 'Routes', { description: 'Conversa REST API routes' });
    // API Gateway verifies the token before any Lambda runs; handlers still check role and tenant.
    const authorizer = new HttpUserPoolAuthorizer('CognitoAuthorizer', props.identity.userPool, {
      userPoolClients: [props.identity.client],
    });
    const integrations = new Map<string, HttpLambdaIntegration>();
    const integrationOf = (fn: string) => {
      let integration = integrations.get(fn);
      if (!integration) {
        const handler = props.functions.get(fn);
        if (!handler) throw new Error(`Route table names Lambda ${fn}, which the stack does not deploy`);
        integration = new HttpLambdaIntegration(`${fn}Integration`, handler, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
          // One invoke permission per Lambda for the whole API instead of one per route: the
          // Lambda routes on routeKey itself, and per-route permissions were a third of the stack.
          scopePermissionToRoute: false,
        });
        integrations.set(fn, integration);
      }
      return integration;
    };
    for (const route of props.routes) {
      const apiRoute = new HttpRoute(this.routeStack, routeKey(route), {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: integrationOf(route.fn),
        authorizer: route.access === 'public' ? new HttpNoneAuthorizer() : authorizer,
      });
      if (route.access === 'public') {
        acknowledge(
          apiRoute,
          'APIG4',
          `${routeKey(route)} is public in the shared route table (sign-in, signup, password reset, plan list, version): it runs before a token exists.`,
        );
      }
    }
  }
}
