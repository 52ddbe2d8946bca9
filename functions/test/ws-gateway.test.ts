/**
 * The local WebSocket gateway behaves like API Gateway for what our Lambda relies on: $connect can
 * refuse, frames route on `action`, $disconnect runs, and the real management SDK client can post,
 * inspect and close connections (410 for unknown ones). New connections are throttled like AWS's
 * quota (429 before $connect), and a deploy's drop of every socket can be replayed.
 */
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  selectRouteKey,
  startWsGateway,
  type WsGateway,
  type WsGatewayEvent,
  type WsGatewayOptions,
} from '../../infra/local/ws-gateway.ts';
import { WS_PING_THROTTLE, WS_ROUTE_THROTTLE } from '../src/declarations/api-throttles.ts';

let gateway: WsGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/** Starts a gateway whose invoke records events and refuses $connect without `token=good`. */
async function startRecording(
  options: Partial<Pick<WsGatewayOptions, 'idleTimeoutMs' | 'newConnectionsPerSecond' | 'newConnectionBurst' | 'routeThrottle'>> = {},
) {
  const events: WsGatewayEvent[] = [];
  gateway = await startWsGateway({
    port: 0,
    ...options,
    invoke: async (event) => {
      events.push(event);
      if (event.requestContext.routeKey === '$connect') {
        return { statusCode: event.queryStringParameters?.token === 'good' ? 200 : 401 };
      }
      if (event.body === '"explode"') throw new Error('handler bug');
      return { statusCode: 200 };
    },
  });
  const management = new ApiGatewayManagementApiClient({
    endpoint: gateway.managementUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return { gateway, events, management };
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

const nextFrame = (socket: WebSocket): Promise<string> =>
  new Promise((resolve) => socket.once('message', (data) => resolve(data.toString())));

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('selectRouteKey', () => {
  it.each([
    ['{"action":"joinTickets","data":"open"}', 'joinTickets'],
    ['{"action":"ping"}', 'ping'],
    ['{"action":"dance"}', '$default'],
    ['{"action":"$connect"}', '$default'],
    ['{"action":42}', '$default'],
    ['not json', '$default'],
    ['null', '$default'],
  ])('%s -> %s', (body, expected) => {
    expect(selectRouteKey(body)).toBe(expected);
  });
});

describe('local WebSocket gateway', () => {
  it('runs $connect with the query string and opens the socket on 2xx', async () => {
    // Prepare
    const { gateway, events } = await startRecording();
    // Act
    const socket = await open(`${gateway.url}/?token=good&x=1`);
    // Assess
    const connect = events[0]!;
    expect(connect.requestContext).toMatchObject({ routeKey: '$connect', eventType: 'CONNECT', stage: 'local' });
    expect(connect.requestContext.connectionId).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(connect.requestContext.domainName).toBe(new URL(gateway.managementUrl).host);
    expect(connect.queryStringParameters).toEqual({ token: 'good', x: '1' });
    expect(connect.headers?.Host ?? connect.headers?.host).toBe(new URL(gateway.managementUrl).host);
    socket.close();
  });

  it('answers the upgrade with the status $connect returned', async () => {
    const { gateway } = await startRecording();
    await expect(open(`${gateway.url}/?token=bad`)).rejects.toThrow('HTTP 401');
    await expect(open(gateway.url)).rejects.toThrow('HTTP 401');
  });

  it('routes frames on action, unknown and non-JSON to $default, in order', async () => {
    // Prepare
    const { gateway, events } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    const connectionId = events[0]!.requestContext.connectionId;
    // Act
    socket.send(JSON.stringify({ action: 'joinTickets', data: 'open' }));
    socket.send(JSON.stringify({ action: 'leaveTickets', data: 'open' }));
    socket.send(JSON.stringify({ action: 'whatever' }));
    socket.send('hello');
    await until(() => events.length === 5);
    // Assess
    const messages = events.slice(1);
    expect(messages.map((e) => e.requestContext.routeKey)).toEqual(['joinTickets', 'leaveTickets', '$default', '$default']);
    expect(messages.every((e) => e.requestContext.eventType === 'MESSAGE' && e.requestContext.connectionId === connectionId)).toBe(true);
    expect(messages[0]!.body).toBe('{"action":"joinTickets","data":"open"}');
    expect(messages[3]!.body).toBe('hello');
    socket.close();
  });

  it('tells the client "Internal server error" when the handler throws', async () => {
    const { gateway } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    const frame = nextFrame(socket);
    socket.send('"explode"');
    expect(JSON.parse(await frame)).toMatchObject({ message: 'Internal server error' });
    socket.close();
  });

  it('runs $disconnect when the client closes', async () => {
    const { gateway, events } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    socket.close(1000);
    await until(() => events.some((e) => e.requestContext.routeKey === '$disconnect'));
    const disconnect = events.find((e) => e.requestContext.routeKey === '$disconnect')!;
    expect(disconnect.requestContext).toMatchObject({ eventType: 'DISCONNECT', connectionId: events[0]!.requestContext.connectionId });
  });

  it('delivers PostToConnection from the real SDK client and reports connection info', async () => {
    // Prepare
    const { gateway, events, management } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    const ConnectionId = events[0]!.requestContext.connectionId;
    const frame = nextFrame(socket);
    // Act
    await management.send(
      new PostToConnectionCommand({ ConnectionId, Data: JSON.stringify({ event: 'company-7-ticket', data: { action: 'update' } }) }),
    );
    const info = await management.send(new GetConnectionCommand({ ConnectionId }));
    // Assess
    expect(JSON.parse(await frame)).toEqual({ event: 'company-7-ticket', data: { action: 'update' } });
    expect(info.ConnectedAt).toBeInstanceOf(Date);
    expect(info.LastActiveAt).toBeInstanceOf(Date);
    expect(info.Identity?.SourceIp).toBe('127.0.0.1');
    socket.close();
  });

  it('answers 410 GoneException for a closed or unknown connection', async () => {
    const { gateway, events, management } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    const ConnectionId = events[0]!.requestContext.connectionId;
    socket.close();
    await until(() => events.some((e) => e.requestContext.routeKey === '$disconnect'));

    const post = management.send(new PostToConnectionCommand({ ConnectionId, Data: '{}' }));
    await expect(post).rejects.toMatchObject({ name: 'GoneException', $metadata: { httpStatusCode: 410 } });
    await expect(management.send(new GetConnectionCommand({ ConnectionId: 'nope+/=' }))).rejects.toMatchObject({ name: 'GoneException' });
  });

  it('DeleteConnection closes the socket and runs $disconnect', async () => {
    const { gateway, events, management } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    const ConnectionId = events[0]!.requestContext.connectionId;
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

    await management.send(new DeleteConnectionCommand({ ConnectionId }));

    expect(await closed).toBe(1000);
    await until(() => events.some((e) => e.requestContext.routeKey === '$disconnect'));
  });

  it('closes idle connections after the idle timeout, and activity keeps them open', async () => {
    const { gateway } = await startRecording({ idleTimeoutMs: 300 });
    const idle = await open(`${gateway.url}?token=good`);
    const busy = await open(`${gateway.url}?token=good`);
    const idleClosed = new Promise<number>((resolve) => idle.once('close', (code) => resolve(code)));
    const keepAlive = setInterval(() => busy.send('{"action":"ping"}'), 100);

    expect(await idleClosed).toBe(1001);
    await new Promise((resolve) => setTimeout(resolve, 300));
    clearInterval(keepAlive);
    expect(busy.readyState).toBe(WebSocket.OPEN);
    busy.close();
  });

  it('answers 429 to a new connection over the quota without running $connect, and refills', async () => {
    // Prepare: a bucket of 2 refilled at 5 per second
    const { gateway, events } = await startRecording({ newConnectionsPerSecond: 5, newConnectionBurst: 2 });
    const connects = () => events.filter((e) => e.requestContext.routeKey === '$connect').length;
    // Act
    const attempts = await Promise.allSettled([1, 2, 3].map(() => open(`${gateway.url}?token=good`)));
    // Assess
    expect(attempts.map((a) => a.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(attempts.find((a) => a.status === 'rejected')?.reason).toEqual(new Error('HTTP 429'));
    expect(connects()).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const later = await open(`${gateway.url}?token=good`);
    expect(connects()).toBe(3);
    for (const attempt of attempts) if (attempt.status === 'fulfilled') attempt.value.close();
    later.close();
  });

  it("throttles messages per route key as the stage does: over a key's bucket, 'Too Many Requests' and no invoke", async () => {
    // Prepare: joinTickets may take 2 at once, refilled at 5 a second; every other key is not limited here
    const { gateway, events } = await startRecording({
      routeThrottle: (key) => (key === 'joinTickets' ? { rateLimit: 5, burstLimit: 2 } : { rateLimit: 1000, burstLimit: 1000 }),
    });
    const socket = await open(`${gateway.url}?token=good`);
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(data.toString()));
    const joins = () => events.filter((e) => e.requestContext.routeKey === 'joinTickets').length;
    // Act
    for (let i = 0; i < 3; i++) socket.send(JSON.stringify({ action: 'joinTickets', data: 'open' }));
    socket.send(JSON.stringify({ action: 'leaveTickets', data: 'open' }));
    await until(() => frames.length === 1 && events.some((e) => e.requestContext.routeKey === 'leaveTickets'));
    // Assess: the third join was refused on the socket, the other key went through
    expect(joins()).toBe(2);
    expect(JSON.parse(frames[0]!)).toMatchObject({ message: 'Too Many Requests', connectionId: events[0]!.requestContext.connectionId });
    await new Promise((resolve) => setTimeout(resolve, 250));
    socket.send(JSON.stringify({ action: 'joinTickets', data: 'open' }));
    await until(() => joins() === 3);
    socket.close();
  });

  it("defaults to the stack's figures: ping has its own, higher throttle", async () => {
    // Prepare
    const { gateway, events } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(data.toString()));
    // Act: a burst of pings past the other keys' burst, but within ping's
    const burst = WS_ROUTE_THROTTLE.burstLimit + 10;
    expect(burst).toBeLessThanOrEqual(WS_PING_THROTTLE.burstLimit);
    for (let i = 0; i < burst; i++) socket.send(JSON.stringify({ action: 'ping' }));
    await until(() => frames.length === burst, 10_000);
    // Assess: every ping answered pong, none refused
    expect(new Set(frames)).toEqual(new Set(['{"event":"pong","data":null}']));
    expect(events.filter((e) => e.requestContext.routeKey === 'ping')).toEqual([]);
    socket.close();
  });

  it('answers ping itself with pong, as the stack does with a mock integration, and invokes nothing', async () => {
    // Prepare
    const { gateway, events } = await startRecording();
    const socket = await open(`${gateway.url}?token=good`);
    // Act
    const frame = nextFrame(socket);
    socket.send(JSON.stringify({ action: 'ping' }));
    // Assess
    expect(JSON.parse(await frame)).toEqual({ event: 'pong', data: null });
    socket.send(JSON.stringify({ action: 'userStatus' }));
    await until(() => events.some((e) => e.requestContext.routeKey === 'userStatus'));
    expect(events.map((e) => e.requestContext.routeKey)).toEqual(['$connect', 'userStatus']);
    socket.close();
  });

  it('drops every socket at once with 1001 Going Away, and each one gets its $disconnect', async () => {
    // Prepare
    const { gateway, events } = await startRecording();
    const sockets = await Promise.all([1, 2, 3].map(() => open(`${gateway.url}?token=good`)));
    const codes = Promise.all(sockets.map((s) => new Promise<number>((resolve) => s.once('close', (code) => resolve(code)))));
    // Act
    const dropped = gateway.dropAll();
    // Assess
    expect(dropped).toBe(3);
    expect(await codes).toEqual([1001, 1001, 1001]);
    await until(() => events.filter((e) => e.requestContext.routeKey === '$disconnect').length === 3);
  });
});
