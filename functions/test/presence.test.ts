/**
 * Presence from the sockets themselves (domain/users/presence.ts): a fresh heartbeat counts, a
 * stale one counts only if API Gateway saw the socket active within the window, a socket API
 * Gateway no longer holds is offline and forgotten, and the requests stay what the header says.
 * The storage and API Gateway are fakes; the clock is injected.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRESENCE_HEARTBEAT_TIMEOUT_MS, type Presence } from '../src/contracts/presence.ts';
import { createPresenceReader, PER_USER_QUERY_MAX, type PresenceReader, presenceChanged } from '../src/domain/users/presence.ts';
import { setUserAvailableListener } from '../src/domain/users/presence-events.ts';
import type { ConnectionActivity } from '../src/realtime/management.ts';
import { createUser, getUser } from '../src/storage/users/users.ts';
import type { ConnectionRecord } from '../src/storage/ws-connections.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { userFixture } from './support/fixtures.ts';
import { connectionRecord } from './support/socket-records.ts';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const STALE = PRESENCE_HEARTBEAT_TIMEOUT_MS + 1_000;

function setup() {
  const sockets: ConnectionRecord[] = [];
  /** API Gateway's view: connectionId -> last active (epoch ms; set as "ms before NOW"), or gone when absent. */
  const gateway = new Map<string, number | 'unknown'>();
  const calls = { userQueries: 0, companyQueries: 0, getConnection: [] as string[] };
  const forgotten: string[] = [];
  const clock = { now: NOW };
  const reader = createPresenceReader({
    listUserSockets: async (companyId, userId) => {
      calls.userQueries++;
      return sockets.filter((s) => s.companyId === companyId && s.userId === userId);
    },
    listCompanySockets: async (companyId) => {
      calls.companyQueries++;
      return sockets.filter((s) => s.companyId === companyId);
    },
    activity: async (connectionId): Promise<ConnectionActivity> => {
      calls.getConnection.push(connectionId);
      const seen = gateway.get(connectionId);
      if (seen === undefined) return 'gone';
      if (seen === 'unknown') return 'unknown';
      return { lastActiveAt: NOW - seen };
    },
    forget: async (_companyId, connectionId) => {
      forgotten.push(connectionId);
    },
    now: () => clock.now,
  });
  const socket = (id: string, userId: number, seenAgoMs: number, overrides: Partial<ConnectionRecord> = {}) => {
    sockets.push(connectionRecord(id, { companyId: 1, userId, lastSeenAt: ago(seenAgoMs), ...overrides }));
  };
  return { reader, sockets, gateway, calls, forgotten, clock, socket };
}

let t: ReturnType<typeof setup>;
beforeEach(() => {
  t = setup();
});

describe('readPresence', () => {
  it('is online with a fresh heartbeat, away when every live socket says away, offline without sockets', async () => {
    // Prepare
    t.socket('a', 1, 10_000);
    t.socket('b1', 2, 10_000, { status: 'away' });
    t.socket('b2', 2, 5_000, { status: 'away' });
    // Act
    const presence = await t.reader.readPresence(1, [1, 2, 3]);
    // Assess
    expect(Object.fromEntries(presence)).toEqual({ 1: 'online', 2: 'away', 3: 'offline' });
    expect(t.calls.getConnection).toEqual([]);
  });

  it('reads offline for a socket whose heartbeat is stale and that API Gateway saw no activity from (a lost socket)', async () => {
    // Prepare: the record says online, but nothing came from the socket for longer than the window
    t.socket('lost', 1, STALE);
    t.gateway.set('lost', STALE);
    // Act + Assess
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('offline');
    expect(t.calls.getConnection).toEqual(['lost']);
    expect(t.forgotten).toEqual([]);
  });

  it('keeps online a socket whose stored heartbeat is stale but whose pings API Gateway saw', async () => {
    t.socket('pinging', 1, 4 * 60_000);
    t.gateway.set('pinging', 18_000);
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('online');
  });

  it('reads offline and forgets a socket API Gateway no longer holds ($disconnect never ran)', async () => {
    t.socket('gone', 1, STALE);
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('offline');
    expect(t.forgotten).toEqual(['gone']);
  });

  it('a stale heartbeat turns a user offline as the clock passes the window', async () => {
    // Prepare: a socket that went silent right after its heartbeat
    t.socket('silent', 1, 0);
    t.gateway.set('silent', 0);
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('online');
    // Act: the window passes with nothing from the socket
    t.clock.now += STALE;
    // Assess
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('offline');
  });

  it('is online when one of several sockets is alive and online, whatever the others say', async () => {
    t.socket('dead', 1, STALE);
    t.socket('away-tab', 1, 1_000, { status: 'away' });
    t.socket('phone', 1, STALE);
    t.gateway.set('phone', 20_000);
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('online');
  });

  it('does not count a socket whose token expired (it receives nothing)', async () => {
    t.socket('expired', 1, 1_000, { tokenExpiresAt: Math.floor(NOW / 1000) - 1 });
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('offline');
  });

  it('falls back on the socket’s own heartbeat (userStatus every 5 minutes) when API Gateway does not answer', async () => {
    t.socket('recent', 1, 3 * 60_000);
    t.gateway.set('recent', 'unknown');
    t.socket('old', 2, 7 * 60_000);
    t.gateway.set('old', 'unknown');
    expect(Object.fromEntries(await t.reader.readPresence(1, [1, 2]))).toEqual({ 1: 'online', 2: 'offline' });
  });

  it('asks API Gateway once per socket per window: an answer holds until its activity is stale', async () => {
    t.socket('s', 1, STALE);
    t.gateway.set('s', 10_000);
    await t.reader.readPresence(1, [1]);
    t.clock.now += 30_000;
    await t.reader.readPresence(1, [1]);
    expect(t.calls.getConnection).toEqual(['s']);
    t.clock.now += PRESENCE_HEARTBEAT_TIMEOUT_MS;
    await t.reader.readPresence(1, [1]);
    expect(t.calls.getConnection).toEqual(['s', 's']);
  });

  it('never counts another company’s socket', async () => {
    t.socket('mine', 1, 1_000, { companyId: 2 });
    expect((await t.reader.readPresence(1, [1])).get(1)).toBe('offline');
  });

  it(`reads up to ${PER_USER_QUERY_MAX} users one Query each, more with one Query of the tenant`, async () => {
    const few = Array.from({ length: PER_USER_QUERY_MAX }, (_, i) => i + 1);
    await t.reader.readPresence(1, [...few, ...few]);
    expect(t.calls).toMatchObject({ userQueries: PER_USER_QUERY_MAX, companyQueries: 0 });
    await t.reader.readPresence(1, [...few, PER_USER_QUERY_MAX + 1]);
    expect(t.calls).toMatchObject({ userQueries: PER_USER_QUERY_MAX, companyQueries: 1 });
  });

  it('counts a socket the index does not show yet, and not one that just closed (hints)', async () => {
    t.socket('closing', 1, 1_000);
    const just = connectionRecord('new', { companyId: 1, userId: 2, lastSeenAt: ago(0) });
    const presence = await t.reader.readPresence(1, [1, 2], { add: just, remove: 'closing' });
    expect(Object.fromEntries(presence)).toEqual({ 1: 'offline', 2: 'online' });
  });
});

describe('presenceChanged (DynamoDB Local)', () => {
  let ddb: DynamoDbLocal;
  beforeAll(async () => {
    ddb = await startDynamoDbLocal();
  }, 60_000);
  afterAll(async () => {
    setUserAvailableListener(undefined);
    await ddb?.stop();
  });

  /** A reader that answers what the test says the sockets show. */
  const showing = (presence: Presence): PresenceReader => ({ readPresence: async (_c, ids) => new Map(ids.map((id) => [id, presence])) });

  it('records a change once, and calls onUserAvailable only when the user becomes online', async () => {
    // Prepare
    await createUser(userFixture({ id: 7, companyId: 31, email: 'presence@example.com' }));
    const available: number[] = [];
    setUserAvailableListener(async (_companyId, userId) => {
      available.push(userId);
    });
    // Act + Assess: online (recorded, the hook runs), online again (nothing), away, offline
    expect(await presenceChanged(31, 7, {}, showing('online'))).toBe('online');
    expect(await getUser(31, 7)).toMatchObject({ presence: 'online', online: true });
    await presenceChanged(31, 7, {}, showing('online'));
    expect(available).toEqual([7]);
    await presenceChanged(31, 7, {}, showing('away'));
    expect(await getUser(31, 7)).toMatchObject({ presence: 'away', online: true });
    await presenceChanged(31, 7, {}, showing('offline'));
    expect(await getUser(31, 7)).toMatchObject({ presence: 'offline', online: false });
    await presenceChanged(31, 7, {}, showing('online'));
    expect(available).toEqual([7, 7]);
  });

  it('writes nothing for a user that does not exist', async () => {
    await expect(presenceChanged(31, 999, {}, showing('online'))).resolves.toBe('online');
    expect(await getUser(31, 999)).toBeUndefined();
  });
});
