/**
 * Realtime over the whole local stack, as the web client uses it: connect to `${wsUrl}?token=`,
 * changes made through the REST API arrive as `{event, data}` frames, only within the tenant.
 */
import { channels } from '@conversa/functions/contracts/channels';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { type Api, createApi } from '../support/api.ts';
import { connectSocket, type TestSocket } from '../support/socket.ts';

const connect = (token: string) => connectSocket(inject('wsUrl'), token);

let api: Api;
let tenantA: Awaited<ReturnType<Api['createCompanyWithAdmin']>>;
let tenantB: Awaited<ReturnType<Api['createCompanyWithAdmin']>>;

beforeAll(async () => {
  api = createApi();
  const admin = inject('admin');
  const superSession = await api.login(admin.email, admin.password);
  tenantA = await api.createCompanyWithAdmin(superSession.token, { label: 'rt-a' });
  tenantB = await api.createCompanyWithAdmin(superSession.token, { label: 'rt-b' });
});

describe('realtime', () => {
  it("delivers a company's events to its users and never to another company's", async () => {
    // Prepare
    const a = await connect(tenantA.admin.token);
    const b = await connect(tenantB.admin.token);
    const idA = tenantA.company.id;
    const idB = tenantB.company.id;
    // Act: a change in each company through the REST API
    const created = await api.createUser(tenantA.admin.token);
    await api.createUser(tenantB.admin.token);
    // Assess
    const frameA = await a.waitFor((f) => f.event === channels.user(idA));
    expect(frameA.data).toMatchObject({ action: 'create', user: { id: created.id } });
    await b.waitFor((f) => f.event === channels.user(idB));
    expect(a.frames.filter((f) => f.event.startsWith(`company-${idB}-`))).toEqual([]);
    expect(b.frames.filter((f) => f.event.startsWith(`company-${idA}-`))).toEqual([]);
    a.close();
    b.close();
  });

  it('a tenant with more sockets than the fan-out threshold (100) gets every event on every socket, in order, through the fan-out queue', async () => {
    // Prepare: 101 tabs of tenant A's admin, one socket of tenant B.
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 101; i += 25)
      sockets.push(...(await Promise.all(Array.from({ length: Math.min(25, 101 - i) }, () => connect(tenantA.admin.token)))));
    const b = await connect(tenantB.admin.token);
    const idA = tenantA.company.id;
    // Act
    const first = await api.createUser(tenantA.admin.token);
    const second = await api.createUser(tenantA.admin.token);
    // Assess
    const created = (socket: (typeof sockets)[number]) =>
      socket.frames
        .filter((f) => f.event === channels.user(idA) && (f.data as { action?: string }).action === 'create')
        .map((f) => (f.data as { user: { id: number } }).user.id);
    for (const socket of sockets) {
      await socket.waitFor(() => created(socket).includes(second.id), 30_000);
      expect(created(socket)).toEqual([first.id, second.id]);
    }
    expect(b.frames.filter((f) => f.event.startsWith(`company-${idA}-`))).toEqual([]);
    for (const socket of [...sockets, b]) socket.close();
  });

  it('answers ping with pong', async () => {
    const socket = await connect(tenantA.admin.token);
    socket.send('ping');
    await socket.waitFor((f) => f.event === 'pong');
    socket.close();
  });

  it('accepts join actions and ignores bad input without dropping the socket', async () => {
    const socket = await connect(tenantA.admin.token);
    socket.send('joinTickets', 'open');
    socket.send('joinChatBox', { $ne: 1 });
    socket.send('joinCompanyMessage', tenantB.company.id);
    socket.ws.send('not json');
    socket.send('ping');
    await socket.waitFor((f) => f.event === 'pong');
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    // Presence may speak meanwhile (the previous test's 101 sockets close while this one opens).
    expect(socket.frames.map((f) => f.event).filter((event) => !event.endsWith('-presence'))).toEqual(['pong']);
    socket.close();
  });

  it('refuses a missing or bad token', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
    await expect(connect('not-a-jwt')).rejects.toThrow('HTTP 401');
    const [header, payload] = tenantA.admin.token.split('.');
    await expect(connect(`${header}.${payload}.forged-signature`)).rejects.toThrow('HTTP 401');
  });

  it('refuses a token superseded by a newer sign-in of the same user', async () => {
    // Prepare: sign in twice, in different seconds (iat has second granularity)
    const user = await api.createUser(tenantA.admin.token);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const newer = await api.login(user.email, user.password);
    // Act + Assess
    await expect(connect(user.token)).rejects.toThrow('HTTP 401');
    const socket = await connect(newer.token);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});
