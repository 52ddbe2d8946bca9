/**
 * The socket protocol: who may connect, what each client action does to the connection, and what
 * happens on an expired token or a stale connection. Ports are in-memory fakes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createSocketSession, type SocketIdentity, type SocketSessionDeps, type SocketUser } from '../src/realtime/socket-session.ts';
import type { ConnectionRecord, NewConnection } from '../src/storage/ws-connections.ts';

const NOW = 1_800_000_000;

function setup() {
  const users = new Map<string, SocketUser>();
  const store = new Map<string, ConnectionRecord>();
  /** What presence was told: the user and the socket that changed (domain/users/presence.ts presenceChanged). */
  const presence: { userId: number; status?: string; removed?: string; connecting?: boolean }[] = [];
  const posted: { connectionId: string; payload: unknown }[] = [];
  const closed: string[] = [];
  const tokens = new Map<string, SocketIdentity>();
  const clock = { now: NOW };
  const mustEnrol = new Set<number>();
  /** How each user may read a ticket, by the ref the client names: `until` when by a mention (readTicket). */
  const readable = new Map<string, { ticketId: number; until?: string }>();
  /** The connection writes each client action made (what a join costs). */
  const writes: string[] = [];

  const deps: SocketSessionDeps = {
    verifyToken: async (token) => {
      const identity = token ? tokens.get(token) : undefined;
      if (!identity || identity.expiresAt <= clock.now) throw new Error('invalid token');
      return identity;
    },
    getUser: async (companyId, userId) => users.get(`${companyId}/${userId}`),
    // As user-directory.ts: the company requires the factor of every user here (the map's ids) not enrolled.
    mustEnrolMfa: async (user) => mustEnrol.has(user.id) && !user.mfaEnabled,
    presenceChanged: async (_companyId, userId, hint) => {
      presence.push({
        userId,
        ...(hint.add ? { status: hint.add.status } : {}),
        ...(hint.remove ? { removed: hint.remove } : {}),
        ...(hint.connecting ? { connecting: true } : {}),
      });
    },
    connections: {
      put: async (input: NewConnection) => {
        const record: ConnectionRecord = {
          ...input,
          connectedAt: '',
          lastSeenAt: '',
          status: 'online',
          expiresAt: clock.now + 7200,
        };
        store.set(input.connectionId, record);
        return record;
      },
      find: async (id) => store.get(id),
      delete: async (_companyId, id) => {
        store.delete(id);
      },
      setReading: async (_companyId, id, reading) => {
        const record = store.get(id);
        writes.push(`set ${reading.ticketId}`);
        if (!record) return false;
        record.reading = reading;
        return true;
      },
      setStatus: async (_companyId, id, status, seenAt) => {
        const record = store.get(id);
        if (!record) return false;
        record.status = status;
        record.lastSeenAt = seenAt;
        return true;
      },
      // As storage does it: only while the reading is still of that ticket.
      clearReading: async (_companyId, id, ticketId) => {
        const record = store.get(id);
        writes.push(`clear ${ticketId}`);
        if (record?.reading?.ticketId === ticketId) delete record.reading;
      },
    },
    readTicket: async (connection, ref) => readable.get(`${connection.userId}/${ref}`),
    post: async (connectionId, payload) => {
      posted.push({ connectionId, payload });
      return 'sent';
    },
    close: async (connectionId) => {
      closed.push(connectionId);
    },
    now: () => clock.now,
  };

  const addUser = (user: Partial<SocketUser> & { id: number; companyId: number }) =>
    users.set(`${user.companyId}/${user.id}`, {
      profile: 'user',
      super: false,
      queueIds: [],
      allTicket: 'desabled',
      cognitoSub: `sub-${user.id}`,
      ...user,
    });
  const addToken = (token: string, identity: Partial<SocketIdentity> & { companyId: number; userId: number }) =>
    tokens.set(token, { sub: `sub-${identity.userId}`, issuedAt: NOW - 60, expiresAt: NOW + 3600, ...identity });

  return { session: createSocketSession(deps), store, presence, posted, closed, clock, addUser, addToken, mustEnrol, readable, writes };
}

let t: ReturnType<typeof setup>;
beforeEach(() => {
  t = setup();
  t.addUser({ id: 5, companyId: 7, profile: 'admin', queueIds: [1, 2], allTicket: 'enabled', sessionIat: NOW - 60 });
  t.addToken('good', { companyId: 7, userId: 5 });
});

const send = (id: string, action: string, data?: unknown) => t.session.message(id, action, JSON.stringify({ action, data }));

describe('$connect', () => {
  it('stores the connection with the user copied for audience filters, and tells presence', async () => {
    // Act
    const result = await t.session.connect('c1', 'good');
    // Assess
    expect(result.statusCode).toBe(200);
    expect(t.store.get('c1')).toMatchObject({
      companyId: 7,
      userId: 5,
      profile: 'admin',
      queueIds: [1, 2],
      allTicket: 'enabled',
      tokenExpiresAt: NOW + 3600,
    });
    // Still in its $connect: presence must post it nothing (API Gateway would answer 410 and the record go).
    expect(t.presence).toEqual([{ userId: 5, status: 'online', connecting: true }]);
  });

  it.each([
    ['no token', undefined],
    ['a bad token', 'forged'],
  ])('refuses %s with 401 and stores nothing', async (_name, token) => {
    expect((await t.session.connect('c1', token)).statusCode).toBe(401);
    expect(t.store.size).toBe(0);
  });

  it('refuses a sign-in that has not passed the second factor, and takes the one that did (issue 21)', async () => {
    // Prepare: user 6 has the factor on; its session passed the challenge with sign-in "passed"
    t.addUser({ id: 6, companyId: 7, mfaEnabled: true, mfaOrigin: 'passed', sessionIat: NOW - 60 });
    t.addToken('password-only', { companyId: 7, userId: 6, originJti: 'other' });
    t.addToken('no-origin', { companyId: 7, userId: 6 });
    t.addToken('verified', { companyId: 7, userId: 6, originJti: 'passed' });
    // Act + Assess
    expect((await t.session.connect('c1', 'password-only')).statusCode).toBe(401);
    expect((await t.session.connect('c2', 'no-origin')).statusCode).toBe(401);
    expect(t.store.size).toBe(0);
    expect((await t.session.connect('c3', 'verified')).statusCode).toBe(200);
  });

  it('refuses a user the company requires a second factor of until it enrols', async () => {
    // Prepare
    t.mustEnrol.add(5);
    // Act
    const result = await t.session.connect('c1', 'good');
    // Assess
    expect(result.statusCode).toBe(403);
    expect(t.store.size).toBe(0);
    expect(t.presence).toEqual([]);
  });

  it('refuses a token whose user no longer exists', async () => {
    t.addToken('ghost', { companyId: 7, userId: 99 });
    expect((await t.session.connect('c1', 'ghost')).statusCode).toBe(401);
  });

  it("refuses a token whose tenancy attributes name another user (the sub is not the stored user's)", async () => {
    // Prepare: user 9 of company 8 rewrote its own custom:companyId/custom:userId to company 7's user 5
    t.addToken('forged-tenant', { sub: 'sub-9', companyId: 7, userId: 5 });
    // Act
    const result = await t.session.connect('c1', 'forged-tenant');
    // Assess
    expect(result.statusCode).toBe(401);
    expect(t.store.size).toBe(0);
    expect(t.presence).toEqual([]);
  });

  it('refuses a user record without a Cognito sub to compare with', async () => {
    t.addUser({ id: 6, companyId: 7, cognitoSub: '' });
    t.addToken('no-sub', { companyId: 7, userId: 6, sub: '' });
    expect((await t.session.connect('c1', 'no-sub')).statusCode).toBe(401);
  });

  it('refuses a token of another sign-in than the claimed session, even a newer one (origin_jti)', async () => {
    t.addUser({ id: 6, companyId: 7, sessionIat: NOW - 60, sessionOrigin: 'claimed' });
    t.addToken('direct', { companyId: 7, userId: 6, issuedAt: NOW, originJti: 'direct-cognito-sign-in' });
    t.addToken('refreshed', { companyId: 7, userId: 6, issuedAt: NOW, originJti: 'claimed' });
    expect((await t.session.connect('c1', 'direct')).statusCode).toBe(401);
    expect((await t.session.connect('c2', 'refreshed')).statusCode).toBe(200);
    expect(t.store.get('c2')).toMatchObject({ tokenIssuedAt: NOW, tokenOrigin: 'claimed' });
  });

  it('refuses a token superseded by a newer sign-in (iat < sessionIat)', async () => {
    t.addUser({ id: 6, companyId: 7, sessionIat: NOW });
    t.addToken('old', { companyId: 7, userId: 6, issuedAt: NOW - 1 });
    t.addToken('new', { companyId: 7, userId: 6, issuedAt: NOW });
    expect((await t.session.connect('c1', 'old')).statusCode).toBe(401);
    expect((await t.session.connect('c2', 'new')).statusCode).toBe(200);
  });
});

describe('client actions', () => {
  beforeEach(async () => {
    await t.session.connect('c1', 'good');
  });

  it('joinChatBox stores nothing for a ticket its user sees anyway: its events reach them as a viewer', async () => {
    t.readable.set('5/42', { ticketId: 42 });
    expect((await send('c1', 'joinChatBox', 42)).statusCode).toBe(200);
    expect(t.store.get('c1')!.reading).toBeUndefined();
    expect(t.writes).toEqual([]);
  });

  it('joinChatBox of a ticket read by a mention keeps it (numeric id or uuid) until another join or its leave', async () => {
    const uuid = '3f1c2a9e-8d7b-4c6a-9e0f-1a2b3c4d5e6f';
    const until = '2027-01-01T00:00:00.000Z';
    t.readable.set('5/42', { ticketId: 42, until });
    t.readable.set(`5/${uuid}`, { ticketId: 43, until });
    await send('c1', 'joinChatBox', 42);
    expect(t.store.get('c1')!.reading).toEqual({ ticketId: 42, ref: '42', until });
    await send('c1', 'joinChatBox', uuid);
    expect(t.store.get('c1')!.reading).toEqual({ ticketId: 43, ref: uuid, until });
    // A late leave of the conversation closed before keeps the one open now.
    await send('c1', 'leaveChatBox', 42);
    expect(t.store.get('c1')!.reading).toEqual({ ticketId: 43, ref: uuid, until });
    await send('c1', 'leaveChatBox', uuid);
    expect(t.store.get('c1')!.reading).toBeUndefined();
  });

  it('joining a ticket it sees, or one it may not read, ends the reading of the one before', async () => {
    t.readable.set('5/42', { ticketId: 42, until: '2027-01-01T00:00:00.000Z' });
    t.readable.set('5/50', { ticketId: 50 });
    await send('c1', 'joinChatBox', 42);
    await send('c1', 'joinChatBox', 50);
    expect(t.store.get('c1')!.reading).toBeUndefined();
    await send('c1', 'joinChatBox', 42);
    // Another company's ticket, or one of a queue not theirs: refused, and the reading before ends.
    expect((await send('c1', 'joinChatBox', 77)).statusCode).toBe(400);
    expect(t.store.get('c1')!.reading).toBeUndefined();
  });

  it('the list and notification joins are acknowledged without a write', async () => {
    expect((await send('c1', 'joinTickets', 'open')).statusCode).toBe(200);
    expect((await send('c1', 'leaveTickets', 'open')).statusCode).toBe(200);
    expect((await send('c1', 'joinTickets', 'archived')).statusCode).toBe(400);
    expect((await send('c1', 'joinNotification')).statusCode).toBe(200);
    expect(t.writes).toEqual([]);
  });

  it("joinCompanyMessage answers only for the connection's own company", async () => {
    expect((await send('c1', 'joinCompanyMessage', 8)).statusCode).toBe(400);
    expect((await send('c1', 'joinCompanyMessage', '7')).statusCode).toBe(200);
    expect(t.writes).toEqual([]);
  });

  it('writes only the heartbeat and status for userStatus: the TTL set at $connect outlasts the socket', async () => {
    const before = structuredClone(t.store.get('c1'));
    // Past the 10 minutes after which pings used to rewrite the TTL: API Gateway closes every socket
    // at 2 h, so the connect-time TTL is never behind it.
    t.clock.now = NOW + 11 * 60;
    await send('c1', 'userStatus');
    expect(t.store.get('c1')).toEqual({ ...before, status: 'online', lastSeenAt: new Date(t.clock.now * 1000).toISOString() });
    expect(t.posted).toEqual([]);
  });

  it('userStatus says online (no data, as the spec sends it) or away, and tells presence each time', async () => {
    t.presence.length = 0;
    await send('c1', 'userStatus');
    await send('c1', 'userStatus', 'away');
    expect(t.store.get('c1')!.status).toBe('away');
    await send('c1', 'userStatus', 'online');
    expect(t.presence).toEqual([
      { userId: 5, status: 'online' },
      { userId: 5, status: 'away' },
      { userId: 5, status: 'online' },
    ]);
  });

  it.each([['busy'], [{ status: 'away' }], [7]])('ignores userStatus %j without writing or telling presence', async (data) => {
    t.presence.length = 0;
    expect((await send('c1', 'userStatus', data)).statusCode).toBe(400);
    expect(t.store.get('c1')!.status).toBe('online');
    expect(t.presence).toEqual([]);
  });

  it.each([
    ['non-JSON body', 'joinChatBox', 'not json'],
    ['missing data', 'joinChatBox', '{"action":"joinChatBox"}'],
    ['an object as ticket id', 'joinChatBox', '{"action":"joinChatBox","data":{"$ne":1}}'],
    ['a huge ticket id', 'joinChatBox', JSON.stringify({ action: 'joinChatBox', data: 'x'.repeat(500) })],
    ['an unknown action on $default', '$default', '{"action":"dance"}'],
  ])('ignores %s without crashing', async (_name, routeKey, body) => {
    t.readable.set(`5/${'x'.repeat(500)}`, { ticketId: 1, until: '2027-01-01T00:00:00.000Z' });
    await expect(t.session.message('c1', routeKey, body)).resolves.toEqual({ statusCode: 400 });
    expect(t.writes).toEqual([]);
  });

  it('refuses messages once the token expired: tells the client and closes the socket', async () => {
    t.clock.now = NOW + 3600;
    const result = await send('c1', 'joinTickets', 'open');
    expect(result.statusCode).toBe(401);
    expect(t.posted).toEqual([{ connectionId: 'c1', payload: { event: 'auth-expired', data: null } }]);
    expect(t.closed).toEqual(['c1']);
    expect(t.writes).toEqual([]);
  });

  it('closes a socket the server does not know, so the client registers again', async () => {
    expect((await send('unknown', 'userStatus')).statusCode).toBe(410);
    expect(t.closed).toEqual(['unknown']);
  });
});

describe('$disconnect', () => {
  it('deletes the connection and tells presence which socket closed (it reads whether another is left)', async () => {
    await t.session.connect('tab1', 'good');
    await t.session.connect('tab2', 'good');
    t.presence.length = 0;

    await t.session.disconnect('tab1');
    expect(t.store.has('tab1')).toBe(false);
    expect(t.presence).toEqual([{ userId: 5, removed: 'tab1' }]);
  });

  it('is a no-op for an unknown connection', async () => {
    await expect(t.session.disconnect('nope')).resolves.toEqual({ statusCode: 200 });
  });
});
