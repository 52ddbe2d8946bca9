import { WS_ROUTE_THROTTLE, wsRouteThrottle } from '@conversa/functions/declarations/api-throttles';
import { gatewayAnsweredWsRoutes, wsRouteKeys } from '@conversa/functions/routes';
import { Stack } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnApi,
  CfnIntegration,
  CfnIntegrationResponse,
  CfnRoute,
  CfnRouteResponse,
  type CfnStage,
  LogGroupLogDestination,
  WebSocketApi,
  WebSocketIntegrationType,
  WebSocketRouteIntegration,
  type WebSocketRouteIntegrationBindOptions,
  type WebSocketRouteIntegrationConfig,
  WebSocketStage,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { type IGrantable, ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct, type IConstruct } from 'constructs';
import { apiAccessLogFormat } from './access-logs.ts';
import type { EnvironmentTarget } from './data-table.ts';
import { retainedLogGroup } from './log-groups.ts';
import { acknowledge, nagRefOf, nagRegionOf, policyOwnerOf } from './nag.ts';

export interface ConversaWebSocketApiProps {
  /** Serves every route key: connect (token in the query), disconnect, joins, ping. */
  realtime: IFunction;
}

/**
 * Realtime: the client sends `{"action": "joinTickets", ...}`; every key goes to the realtime Lambda
 * but the ones API Gateway answers itself (`ping`).
 */
export class ConversaWebSocketApi extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;

  constructor(scope: Construct, id: string, props: ConversaWebSocketApiProps) {
    super(scope, id);
    this.api = new WebSocketApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-realtime`,
      description: 'Conversa realtime events',
      routeSelectionExpression: '$request.body.action',
    });
    const integration = new LambdaProxyIntegration('RealtimeIntegration', props.realtime);
    // One invoke permission for every route key of this API (CDK's WebSocketLambdaIntegration adds one per route).
    props.realtime.addPermission('RealtimeApiInvoke', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(this).formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: '*' }),
    });
    const routes = new Map<string, IConstruct>();
    for (const key of wsRouteKeys) {
      const answer = gatewayAnsweredWsRoutes[key];
      const route = answer ? this.gatewayAnswered(key, answer) : this.api.addRoute(key, { integration });
      routes.set(key, route);
      acknowledge(
        route,
        'APIG4',
        key === '$connect'
          ? 'Browsers cannot set headers on a WebSocket: the realtime Lambda verifies the Cognito JWT from the query string and refuses the connection otherwise.'
          : `${key} only reaches connections that $connect already authenticated; API Gateway has no per-message authorizer.`,
      );
    }

    // WebSocket stages (unlike HTTP ones) log through the account-level API Gateway role; without it
    // the stage's access logs are silently dropped. The setting is per account and region.
    const cloudWatchRole = new Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    acknowledge(
      cloudWatchRole,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'AWS-maintained policy made for exactly this account-level API Gateway logging role; it must create groups API Gateway names itself.',
    );
    const account = new CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: cloudWatchRole.roleArn });

    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: 'prod',
      autoDeploy: true,
      // Per route key, sized for the region's goal (declarations/api-throttles.ts; the local gateway
      // enforces the same): every route at WS_ROUTE_THROTTLE, and `ping`, which every open socket
      // sends every 18 s, at its own figure below.
      throttle: WS_ROUTE_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(retainedLogGroup(this, 'AccessLogs')),
        format: apiAccessLogFormat('websocket'),
      },
    });
    this.stage.node.addDependency(account);
    for (const [key, route] of routes) {
      const throttle = wsRouteThrottle(key);
      if (throttle === WS_ROUTE_THROTTLE) continue;
      // RouteSettings is untyped JSON in CloudFormation's schema: spelt as CloudFormation spells it.
      (this.stage.node.defaultChild as CfnStage).addPropertyOverride(`RouteSettings.${key}`, {
        ThrottlingRateLimit: throttle.rateLimit,
        ThrottlingBurstLimit: throttle.burstLimit,
      });
      // A stage's route settings name routes that must exist when the stage is created or updated.
      this.stage.node.addDependency(route);
    }
  }

  /**
   * A route API Gateway answers itself (routes.ts gatewayAnsweredWsRoutes): a MOCK integration whose
   * request template only sets the status and whose integration response is the fixed frame, sent
   * back on the socket through the route's `$default` route response (two-way). No Lambda runs.
   */
  private gatewayAnswered(key: string, answer: unknown): CfnRoute {
    const id = key.replace(/[^A-Za-z0-9]/g, '');
    const mock = new CfnIntegration(this, `${id}Answer`, {
      apiId: this.api.apiId,
      integrationType: 'MOCK',
      templateSelectionExpression: '\\$default',
      requestTemplates: { $default: JSON.stringify({ statusCode: 200 }) },
    });
    new CfnIntegrationResponse(this, `${id}AnswerResponse`, {
      apiId: this.api.apiId,
      integrationId: mock.ref,
      integrationResponseKey: '$default',
      templateSelectionExpression: '\\$default',
      responseTemplates: { $default: JSON.stringify(answer) },
    });
    const route = new CfnRoute(this, `${id}Route`, {
      apiId: this.api.apiId,
      routeKey: key,
      target: `integrations/${mock.ref}`,
      routeResponseSelectionExpression: '$default',
    });
    new CfnRouteResponse(this, `${id}RouteResponse`, { apiId: this.api.apiId, routeId: route.ref, routeResponseKey: '$default' });
    return route;
  }

  /** wss:// URL browsers connect to. */
  get url(): string {
    return this.stage.url;
  }

  /** WS_MANAGEMENT_URL and `execute-api:ManageConnections` together: a publisher needs both. */
  bindPublisher(target: EnvironmentTarget, grantee: IGrantable): void {
    target.addEnvironment('WS_MANAGEMENT_URL', this.stage.callbackUrl);
    this.stage.grantManagementApiAccess(grantee);
    const owner = policyOwnerOf(grantee);
    const api = nagRefOf(this.api.node.defaultChild as CfnApi, owner);
    acknowledge(
      owner,
      `IAM5[Resource::arn:<AWS::Partition>:execute-api:${nagRegionOf(this)}:<AWS::AccountId>:${api}/${this.stage.stageName}/*/@connections/*]`,
      'Connection ids exist only at run time; the grant is limited to the @connections endpoint of this API and stage.',
    );
  }
}

/** A Lambda proxy integration that leaves the invoke permission to the API (one for all its routes). */
class LambdaProxyIntegration extends WebSocketRouteIntegration {
  private readonly handler: IFunction;

  constructor(id: string, handler: IFunction) {
    super(id);
    this.handler = handler;
  }

  override bind(options: WebSocketRouteIntegrationBindOptions): WebSocketRouteIntegrationConfig {
    return {
      type: WebSocketIntegrationType.AWS_PROXY,
      uri: Stack.of(options.route).formatArn({
        service: 'apigateway',
        account: 'lambda',
        resource: 'path/2015-03-31/functions',
        resourceName: `${this.handler.functionArn}/invocations`,
      }),
    };
  }
}
