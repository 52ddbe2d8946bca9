/**
 * Who is calling, as far as the per-address limits need it: API Gateway's `sourceIp` (the TCP peer
 * it saw; the local gateway fills it the same way). Never a forwarded-for header, which any client
 * can write.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export const clientInfo = (event: APIGatewayProxyEventV2): { sourceIp: string | undefined } => ({
  sourceIp: event.requestContext?.http?.sourceIp,
});
