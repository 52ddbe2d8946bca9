/**
 * The realtime Lambda for real behind the local WebSocket gateway, on DynamoDB Local, with the real
 * management SDK client: sockets connect, join rooms, receive only their tenant's events, and dead
 * connections are cleaned up. Only token verification is faked (cognito-local is covered elsewhere):
 * a token here is `test.<json identity>`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startWsGateway, type WsGateway } from '../../infra/local/ws-gateway.ts';
import { handler } from '../src/handlers/ws/realtime.ts';
import { resetManagementClient } from '../src/realtime/management.ts';
import { audience, publish, publishToAll, publishToCompany, publishToTicket, publishToUser, rooms } from '../src/realtime/publisher.ts';
import { createUser, getUser } from '../src/storage/users.ts';
import * as connections from '../src/storage/ws-connections.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { subOf, userFixture } from './support/fixtures.ts';

vi.mock('../src/commons/jwt.ts', async () => {
  const { UnauthorizedError } = await import('../src/commons/errors.ts');
  return {
    verifyIdToken: async (token: string | undefined) => {
      if (!token?.startsWith('test.')) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
      const identity = JSON.parse(token.slice(5));
      if (identity.expiresAt <= Date.now() / 1000) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
      return identity;
    },
    resetVerifier: () => {},
  };
});

const now = () => Math.floor(Date.now() / 1000);
const token = (companyId: number, userId: number, extra: { issuedAt?: number; expiresAt?: number } = {}) =>
  `test.${JSON.stringify({ sub: subOf(companyId, userId), email: 'e', companyId, userId, authTime: now(), issuedAt: now(), expiresAt: now() + 3600, ...extra })}`;

let ddb: DynamoDbLocal;
let gateway: WsGateway;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
  gateway = await startWsGateway({ port: 0, invoke: (event) => handler(event) });
  process.env.WS_MANAGEMENT_URL = gateway.managementUrl;
  resetManagementClient();
  await createUser(userFixture({ id: 1, companyId: 1, email: 'admin1@example.com', profile: 'admin' }));
  await createUser(userFixture({ id: 2, companyId: 1, email: 'agent1@example.com', profile: 'user', queueIds: [3] }));
  await createUser(userFixture({ id: 1, companyId: 2, email: 'admin2@example.com', profile: 'admin' }));
  await createUser(userFixture({ id: 3, companyId: 1, email: 'moved@example.com', profile: 'user', sessionIat: now() }));
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await ddb?.stop();
});

interface Client {
  socket: WebSocket;
  frames: { event: string; data: unknown }[];
  send(action: string, data?: unknown): void;
  waitFor(event: string): Promise<{ event: string; data: unknown }>;
}

const open: Client[] = [];
beforeEach(() => {
  for (const client of open.splice(0)) client.socket.close();
});

function connect(tokenValue: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${gateway.url}?token=${encodeURIComponent(tokenValue)}`);
    const frames: Client['frames'] = [];
    socket.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', reject);
    socket.once('open', () => {
      const client: Client = {
        socket,
        frames,
        send: (action, data) => socket.send(JSON.stringify({ action, data })),
        waitFor: (event) => until(() => frames.find((f) => f.event === event)),
      };
      open.push(client);
      resolve(client);
    });
  });
}

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mine = async (companyId: number, userId: number) =>
  (await connections.listCompanyConnections(companyId)).filter((c) => c.userId === userId);

describe('realtime over the local gateway', () => {
  it('stores the connection on $connect with the user copied, and marks the user online', async () => {
    const agent = await connect(token(1, 2));
    const [stored] = await until(async () => {
      const list = await mine(1, 2);
      return list.length === 1 && list;
    });
    expect(stored).toMatchObject({ companyId: 1, userId: 2, profile: 'user', queueIds: [3], rooms: [] });
    expect(stored!.expiresAt).toBeGreaterThan(now() + 7000);
    expect((await getUser(1, 2))?.online).toBe(true);
    expect(await connections.findConnection(stored!.connectionId)).toMatchObject({ companyId: 1, userId: 2 });
    agent.socket.close();
  });

  it('refuses a bad token, an unknown user and a superseded session with 401', async () => {
    await expect(connect('garbage')).rejects.toThrow('HTTP 401');
    await expect(connect(token(1, 99))).rejects.toThrow('HTTP 401');
    await expect(connect(token(1, 3, { issuedAt: now() - 120 }))).rejects.toThrow('HTTP 401');
    await expect(connect(token(1, 3, { issuedAt: now() + 1 }))).resolves.toBeDefined();
  });

  it("delivers a tenant's events to that tenant only", async () => {
    // Prepare
    const a = await connect(token(1, 1));
    const b = await connect(token(2, 1));
    // Act
    await publishToCompany(1, 'company-1-ticket', { action: 'update', ticket: { id: 9 } });
    await publishToCompany(2, 'company-2-ticket', { action: 'delete', ticketId: 4 });
    // Assess
    expect((await a.waitFor('company-1-ticket')).data).toEqual({ action: 'update', ticket: { id: 9 } });
    await b.waitFor('company-2-ticket');
    expect(a.frames.map((f) => f.event)).not.toContain('company-2-ticket');
    expect(b.frames.map((f) => f.event)).not.toContain('company-1-ticket');
  });

  it('routes by user, room and audience', async () => {
    // Prepare
    const admin = await connect(token(1, 1));
    const agent = await connect(token(1, 2));
    agent.send('joinChatBox', 77);
    agent.send('joinTickets', 'open');
    await until(async () => (await mine(1, 2)).some((c) => c.rooms.length === 2));
    // Act
    await publishToUser(1, 2, 'company-1-auth', { action: 'update', user: { id: 2 } });
    await publishToTicket(1, 77, 'company-1-appMessage', { action: 'create' });
    await publish(1, 'company-1-queue', { action: 'update' }, audience.admins);
    await publish(1, 'company-1-user', { action: 'update' }, audience.room(rooms.status('open')));
    // Assess
    await agent.waitFor('company-1-user');
    await admin.waitFor('company-1-queue');
    expect(agent.frames.map((f) => f.event)).toEqual(['company-1-auth', 'company-1-appMessage', 'company-1-user']);
    // The agent's presence (it connected after the admin) goes to the whole company: not what is routed here.
    expect(admin.frames.map((f) => f.event).filter((event) => event !== 'company-1-presence')).toEqual(['company-1-queue']);
  });

  it('a socket that opens chat box after chat box keeps one (its stored item stays small)', async () => {
    // Prepare
    const agent = await connect(token(1, 2));
    // Act: 300 conversations opened on one socket, as a client that never leaves them would
    for (let ticketId = 1; ticketId <= 300; ticketId++) agent.send('joinChatBox', `${ticketId}-${'x'.repeat(56)}`);
    const last = rooms.ticket(`300-${'x'.repeat(56)}`);
    // Assess: only the last one is held, and its events arrive
    const [stored] = await until(async () => {
      const list = await mine(1, 2);
      return list[0]?.rooms.includes(last) && list;
    }, 15_000);
    expect(stored!.rooms).toEqual([last]);
    await publishToTicket(1, `300-${'x'.repeat(56)}`, 'company-1-appMessage', { action: 'create' });
    await agent.waitFor('company-1-appMessage');
  });

  it('answers ping with pong', async () => {
    const agent = await connect(token(1, 2));
    agent.send('ping');
    expect(await agent.waitFor('pong')).toEqual({ event: 'pong', data: null });
  });

  it('publishToAll reaches every tenant', async () => {
    const a = await connect(token(1, 2));
    const b = await connect(token(2, 1));
    await publishToAll('company-announcement', { action: 'create', record: { id: 1 } });
    await a.waitFor('company-announcement');
    await b.waitFor('company-announcement');
  });

  it('publishToAll reaches sockets in every shard of the platform-wide index', async () => {
    // Prepare: 40 sockets land in most of the ALL_SHARDS shards (a hash of the connection id).
    const sockets = await Promise.all(Array.from({ length: 40 }, (_, i) => connect(i % 2 ? token(2, 1) : token(1, 2))));
    const listed = await connections.listAllConnections();
    const ids = new Set(listed.map((c) => c.connectionId));
    // Act
    await publishToAll('company-announcement', { action: 'create', record: { id: 2 } });
    // Assess
    await Promise.all(sockets.map((socket) => socket.waitFor('company-announcement')));
    expect(ids.size).toBeGreaterThanOrEqual(40);
    for (const socket of sockets) socket.socket.close();
  });

  it('tells a socket whose token expired, and closes it', async () => {
    const soon = await connect(token(1, 2, { expiresAt: now() + 2 }));
    const closed = new Promise((resolve) => soon.socket.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 2100));
    soon.send('joinTickets', 'open');
    expect(await soon.waitFor('auth-expired')).toEqual({ event: 'auth-expired', data: null });
    await closed;
  });

  it('$disconnect deletes the connection and marks the user offline after the last one', async () => {
    await until(async () => (await mine(1, 2)).length === 0);
    const tab1 = await connect(token(1, 2));
    const tab2 = await connect(token(1, 2));
    tab1.socket.close();
    await until(async () => (await mine(1, 2)).length === 1);
    expect((await getUser(1, 2))?.online).toBe(true);
    tab2.socket.close();
    await until(async () => (await mine(1, 2)).length === 0);
    await until(async () => (await getUser(1, 2))?.online === false);
  });

  it('deletes a stored connection whose socket is gone (410) when publishing', async () => {
    // Prepare: a record for a socket the gateway never had, as after a lost $disconnect: written a
    // minute ago (a 410 from a socket younger than CONNECTING_GRACE_MS may still be in its $connect).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 60_000);
    await connections.putConnection({
      connectionId: 'ghost0000000000=',
      companyId: 1,
      userId: 1,
      profile: 'admin',
      super: false,
      queueIds: [],
      allTicket: 'desabled',
      tokenExpiresAt: now() + 3600,
      tokenIssuedAt: now(),
      tokenJti: '',
      tokenOrigin: '',
    });
    vi.useRealTimers();
    // Act
    const result = await publishToCompany(1, 'company-1-ticket', { action: 'update' });
    // Assess
    expect(result.gone).toBeGreaterThanOrEqual(1);
    expect(await connections.findConnection('ghost0000000000=', 1)).toBeUndefined();
  });
});
