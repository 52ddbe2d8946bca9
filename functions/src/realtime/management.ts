/**
 * The API Gateway management API (`@connections`): how a Lambda talks back to a socket. Locally the
 * endpoint is the local WebSocket gateway (infra/local/ws-gateway.ts), which serves the same API, so
 * this is the real SDK client in both places.
 */
import type { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { env } from '#commons/env';
import { logger } from '#commons/logger';

/*
 * The SDK client is loaded on the first frame, not at a cold start: most requests of most Lambdas
 * publish nothing, and its ~10 KB kept external-api's cold start over 500 KB (infra/test/bundling).
 */
type ManagementSdk = typeof import('@aws-sdk/client-apigatewaymanagementapi');
let sdk: Promise<ManagementSdk> | undefined;
let client: ApiGatewayManagementApiClient | undefined;

const loadSdk = (): Promise<ManagementSdk> => {
  sdk ??= import('@aws-sdk/client-apigatewaymanagementapi');
  return sdk;
};

export async function managementClient(): Promise<ApiGatewayManagementApiClient> {
  const { ApiGatewayManagementApiClient } = await loadSdk();
  client ??= new ApiGatewayManagementApiClient({ region: env.region, endpoint: env.wsManagementUrl, maxAttempts: 2 });
  return client;
}

/** Test hook: the next call builds a client for the current WS_MANAGEMENT_URL. */
export function resetManagementClient(): void {
  client = undefined;
}

export type PostOutcome = 'sent' | 'gone' | 'failed';

const isGone = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'GoneException' || e?.$metadata?.httpStatusCode === 410;
};

/** Sends one JSON frame. Never throws: one dead socket must not fail the request that published. */
export async function postToConnection(connectionId: string, payload: unknown): Promise<PostOutcome> {
  try {
    const { PostToConnectionCommand } = await loadSdk();
    await (await managementClient()).send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: JSON.stringify(payload) }));
    return 'sent';
  } catch (error) {
    if (isGone(error)) return 'gone';
    logger.warn('postToConnection failed', { connectionId, error: error as Error });
    return 'failed';
  }
}

/** Closes a socket from the server side (API Gateway then runs $disconnect). */
export async function closeConnection(connectionId: string): Promise<void> {
  try {
    const { DeleteConnectionCommand } = await loadSdk();
    await (await managementClient()).send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } catch (error) {
    if (!isGone(error)) logger.warn('closeConnection failed', { connectionId, error: error as Error });
  }
}

/**
 * What API Gateway knows of a socket: `gone` when it no longer holds it (a $disconnect that never
 * reached us), else when it was last active (any frame from the client, the 18 s pings included,
 * which API Gateway answers itself); `unknown` when the management API did not answer.
 */
export type ConnectionActivity = { lastActiveAt: number } | 'gone' | 'unknown';

export async function connectionActivity(connectionId: string): Promise<ConnectionActivity> {
  try {
    const { GetConnectionCommand } = await loadSdk();
    const out = await (await managementClient()).send(new GetConnectionCommand({ ConnectionId: connectionId }));
    const at = out.LastActiveAt ?? out.ConnectedAt;
    return at ? { lastActiveAt: new Date(at).getTime() } : 'unknown';
  } catch (error) {
    if (isGone(error)) return 'gone';
    logger.warn('getConnection failed', { connectionId, error: error as Error });
    return 'unknown';
  }
}
