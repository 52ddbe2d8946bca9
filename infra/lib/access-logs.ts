import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';

/**
 * One JSON line per request, with the fields HTTP and WebSocket APIs both provide: enough to follow
 * a request (requestId) into the Lambda's own logs and to see who was throttled or refused.
 */
export function apiAccessLogFormat(kind: 'http' | 'websocket'): AccessLogFormat {
  const common = {
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    routeKey: '$context.routeKey',
    status: '$context.status',
    error: '$context.error.message',
    integrationError: '$context.integrationErrorMessage',
  };
  const specific =
    kind === 'http'
      ? { protocol: '$context.protocol', responseLength: '$context.responseLength', latency: '$context.responseLatency' }
      : { connectionId: '$context.connectionId', eventType: '$context.eventType' };
  return AccessLogFormat.custom(JSON.stringify({ ...common, ...specific }));
}
