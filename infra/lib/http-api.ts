import { type HttpFunctionName, httpRoutes, routeKey } from '@conversa/functions/routes';
import { Duration } from 'aws-cdk-lib';
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

export interface ConversaHttpApiProps {
  functions: Record<HttpFunctionName, IFunction>;
  identity: Identity;
  /** The only browser origin allowed by CORS. */
  webOrigin: string;
}

/** The REST API: exactly the routes of functions/src/routes.ts, the same table the local gateway serves. */
export class ConversaHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** Base URL without a trailing slash (the `$default` stage sits at the root). */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ConversaHttpApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      description: 'Conversa REST API',
      // The stage is declared below so it can carry throttling and access logs.
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [props.webOrigin],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.DELETE, CorsHttpMethod.OPTIONS],
        allowHeaders: ['authorization', 'content-type'],
        maxAge: Duration.days(1),
      },
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 200, burstLimit: 400 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(retainedLogGroup(this, 'AccessLogs')),
        format: apiAccessLogFormat('http'),
      },
    });
    this.url = this.api.apiEndpoint;

    // API Gateway verifies the token before any Lambda runs; handlers still check role and tenant.
    const authorizer = new HttpUserPoolAuthorizer('CognitoAuthorizer', props.identity.userPool, {
      userPoolClients: [props.identity.client],
    });
    const integrations = new Map<HttpFunctionName, HttpLambdaIntegration>();
    const integrationOf = (fn: HttpFunctionName) => {
      let integration = integrations.get(fn);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${fn}Integration`, props.functions[fn], {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        });
        integrations.set(fn, integration);
      }
      return integration;
    };
    for (const route of httpRoutes) {
      const apiRoute = new HttpRoute(this, routeKey(route), {
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
