/**
 * The realtime Lambda for real behind the local WebSocket gateway, on DynamoDB Local, with the real
 * management SDK client: sockets connect, open conversations, receive only their tenant's events, and dead
 * connections are cleaned up. Only token verification is faked (cognito-local is covered elsewhere):
 * a token here is `test.<json identity>`.
 */

import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startWsGateway, type WsGateway } from '../../infra/local/ws-gateway.ts';
import { messageAudience } from '../src/domain/tickets/publish.ts';
import { handler } from '../src/handlers/ws/realtime.ts';
import { resetManagementClient } from '../src/realtime/management.ts';
import { audience, publish, publishToAll, publishToCompany, publishToUser } from '../src/realtime/publisher.ts';
import { db, table } from '../src/storage/db.ts';
import { mentionItems } from '../src/storage/mentions.ts';
import { ticketKey } from '../src/storage/tickets/tickets.ts';
import { createUser, getUser } from '../src/storage/users/users.ts';
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
    expect(stored).toMatchObject({ companyId: 1, userId: 2, profile: 'user', queueIds: [3] });
    expect(stored!.reading).toBeUndefined();
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

  it('routes by user and audience; the list joins store nothing', async () => {
    // Prepare
    const admin = await connect(token(1, 1));
    const agent = await connect(token(1, 2));
    agent.send('joinTickets', 'open');
    agent.send('joinNotification');
    // Act
    await publishToUser(1, 2, 'company-1-auth', { action: 'update', user: { id: 2 } });
    await publish(1, 'company-1-queue', { action: 'update' }, audience.admins);
    await publish(1, 'company-1-user', { action: 'update' }, audience.queue(3));
    // Assess
    await agent.waitFor('company-1-user');
    await admin.waitFor('company-1-queue');
    expect(agent.frames.map((f) => f.event)).toEqual(['company-1-auth', 'company-1-user']);
    // The agent's presence (it connected after the admin) goes to the whole company: not what is routed here.
    expect(admin.frames.map((f) => f.event).filter((event) => event !== 'company-1-presence')).toEqual(['company-1-queue']);
    expect((await mine(1, 2))[0]).not.toHaveProperty('reading');
  });

  it("gives a ticket's messages to the socket that opened it by a colleague's mention, and to no other outsider", async () => {
    // Prepare: ticket 500 of queue 9, which the agent (queue 3) may not see; a note mentioned them on it.
    const ticket = { id: 500, uuid: 'a0a0a0a0-0000-4000-8000-000000000500', companyId: 1, status: 'open', queueId: 9, userId: 1 } as const;
    const createdAt = new Date().toISOString();
    const mention = {
      id: 'm-1',
      ticketId: ticket.id,
      ticketUuid: ticket.uuid,
      authorId: 1,
      authorName: 'Admin',
      contactName: 'Maria',
      excerpt: '@Agent',
      createdAt,
    };
    await db().send(new PutCommand({ TableName: table(), Item: { ...ticketKey(1, ticket.id), entity: 'ticket', ...ticket } }));
    await db().send(new PutCommand({ TableName: table(), Item: { pk: `C#1#TKU#${ticket.uuid}`, sk: 'LOOKUP', ticketId: ticket.id } }));
    await db().send(new TransactWriteCommand({ TransactItems: mentionItems(1, [2], mention) }));
    const reader = await connect(token(1, 2));
    const outsider = await connect(token(1, 3, { issuedAt: now() + 1 }));
    // Act: both open ticket 500's conversation, by its id and by its uuid
    reader.send('joinChatBox', ticket.id);
    outsider.send('joinChatBox', ticket.uuid);
    const [stored] = await until(async () => {
      const list = await mine(1, 2);
      return list[0]?.reading && list;
    });
    await publish(1, 'company-1-appMessage', { action: 'create' }, messageAudience(ticket));
    await publish(1, 'company-1-ticket', { action: 'update' }, audience.queue(9));
    // Assess: the reader gets the message, not the ticket's update; the outsider neither
    expect(stored!.reading).toMatchObject({ ticketId: 500, ref: '500' });
    await reader.waitFor('company-1-appMessage');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reader.frames.map((f) => f.event)).not.toContain('company-1-ticket');
    expect(outsider.frames.map((f) => f.event)).not.toContain('company-1-appMessage');
    expect((await mine(1, 3))[0]).not.toHaveProperty('reading');
    // Leaving the conversation ends it
    reader.send('leaveChatBox', ticket.id);
    await until(async () => !(await mine(1, 2))[0]?.reading);
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
