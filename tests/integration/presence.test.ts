/**
 * Presence over real WebSockets through the local gateway (issue 22 §1): an attendant who connects is
 * online, says away and is away, and whose socket goes silent without a $disconnect (a closed laptop,
 * a lost network: the gateway still holds the TCP connection, nothing comes through it) is offline
 * within the heartbeat window, while a colleague whose tab keeps pinging stays online. The admin's
 * screens (GET /users, GET /dashboard) and the `company-{id}-presence` events tell the same story.
 */
import { channels } from '@conversa/functions/contracts/channels';
import type { DashboardData } from '@conversa/functions/contracts/dashboard';
import { PRESENCE_HEARTBEAT_TIMEOUT_MS, type Presence, type PresenceEvent } from '@conversa/functions/contracts/presence';
import type { User } from '@conversa/functions/contracts/users';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Api, createApi } from '../support/api.ts';
import { connectSocket, type TestSocket } from '../support/socket.ts';

const connect = (token: string) => connectSocket(inject('wsUrl'), token);
/** The web's ping cadence (SPEC 9: 18 s). */
const PING_MS = 18_000;
/** A frame's wait: the machine is shared by several stacks' tests. */
const FRAME_MS = 30_000;

let api: Api;
let tenant: Awaited<ReturnType<Api['createCompanyWithAdmin']>>;
const open: TestSocket[] = [];
const timers: ReturnType<typeof setInterval>[] = [];

beforeAll(async () => {
  api = createApi();
  const admin = inject('admin');
  const superSession = await api.login(admin.email, admin.password);
  tenant = await api.createCompanyWithAdmin(superSession.token, { label: 'presence' });
});

afterAll(() => {
  for (const timer of timers) clearInterval(timer);
  for (const socket of open) socket.close();
});

async function usersPresence(): Promise<Map<number, Presence>> {
  const page = await api.ok<{ users: User[] }>('GET', '/users', { token: tenant.admin.token, query: { pageNumber: 1 } });
  return new Map(page.users.map((user) => [user.id, user.presence]));
}

async function dashboardPresence(): Promise<Map<number, Presence>> {
  const data = await api.ok<DashboardData>('GET', '/dashboard', { token: tenant.admin.token });
  return new Map(data.attendants.map((a) => [a.id, a.presence]));
}

/** Polls GET /users until the user reads `presence`; resolves with the milliseconds it took. */
async function untilPresence(userId: number, presence: Presence, timeoutMs: number): Promise<number> {
  const start = Date.now();
  let last: Presence | undefined;
  while (Date.now() - start < timeoutMs) {
    last = (await usersPresence()).get(userId);
    if (last === presence) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  throw new Error(`user ${userId} still ${last}, not ${presence}, after ${timeoutMs} ms`);
}

const presenceEvents = (socket: TestSocket, userId: number) =>
  socket.frames
    .filter((f) => f.event === channels.presence(tenant.company.id))
    .map((f) => f.data as PresenceEvent)
    .filter((e) => e.userId === userId)
    .map((e) => e.presence);

describe('presence', () => {
  it('online on connect, away when it says so, offline within the window once its socket goes silent without a $disconnect', async () => {
    // Prepare: the admin watches; two attendants
    const watcher = await connect(tenant.admin.token);
    open.push(watcher);
    const attendant = await api.createUser(tenant.admin.token);
    const colleague = await api.createUser(tenant.admin.token);
    expect((await usersPresence()).get(attendant.id)).toBe('offline');

    // Act 1: both connect as the web does (userStatus as the socket opens); the colleague keeps pinging
    const lost = await connect(attendant.token);
    open.push(lost);
    lost.send('userStatus', 'online');
    const pinging = await connect(colleague.token);
    open.push(pinging);
    pinging.send('userStatus', 'online');
    timers.push(setInterval(() => pinging.send('ping'), PING_MS));

    // Assess 1
    await watcher.waitFor(() => presenceEvents(watcher, attendant.id).includes('online'), FRAME_MS);
    await untilPresence(attendant.id, 'online', FRAME_MS);
    expect((await dashboardPresence()).get(attendant.id)).toBe('online');

    // Act 2: the attendant says away (a hidden tab, or Away in the top bar)
    lost.send('userStatus', 'away');
    const wentSilentAt = Date.now();

    // Assess 2
    await watcher.waitFor(() => presenceEvents(watcher, attendant.id).includes('away'), FRAME_MS);
    expect((await usersPresence()).get(attendant.id)).toBe('away');
    expect((await dashboardPresence()).get(attendant.id)).toBe('away');

    // Act 3: nothing more comes through the attendant's socket (no ping, no close): the gateway still
    // holds it and never runs $disconnect, as with a laptop closed mid-session.
    // Assess 3: offline once the window has passed, not before; the pinging colleague stays online.
    await untilPresence(attendant.id, 'offline', PRESENCE_HEARTBEAT_TIMEOUT_MS + 30_000);
    const silentFor = Date.now() - wentSilentAt;
    expect(silentFor).toBeGreaterThanOrEqual(PRESENCE_HEARTBEAT_TIMEOUT_MS);
    expect(silentFor).toBeLessThan(120_000);
    expect(lost.ws.readyState).toBe(lost.ws.OPEN);
    expect((await dashboardPresence()).get(attendant.id)).toBe('offline');
    const others = await usersPresence();
    expect(others.get(colleague.id)).toBe('online');
    expect(presenceEvents(watcher, attendant.id)).toEqual(['online', 'away']);

    // Act 4: the attendant's tab wakes up and speaks again: online at once
    lost.send('userStatus', 'online');
    await watcher.waitFor(() => presenceEvents(watcher, attendant.id).length >= 3, FRAME_MS);
    await untilPresence(attendant.id, 'online', FRAME_MS);

    // Act 5: a closed socket ($disconnect runs) is offline at once, and says so
    lost.close();
    await watcher.waitFor(() => presenceEvents(watcher, attendant.id).at(-1) === 'offline', FRAME_MS);
    expect((await usersPresence()).get(attendant.id)).toBe('offline');
  }, 240_000);

  it('never shows another company a user’s presence, nor counts their sockets', async () => {
    const admin = inject('admin');
    const superSession = await api.login(admin.email, admin.password);
    const other = await api.createCompanyWithAdmin(superSession.token, { label: 'presence-b' });
    const theirs = await connect(other.admin.token);
    open.push(theirs);
    theirs.send('userStatus', 'online');
    const ours = await connect(tenant.admin.token);
    open.push(ours);
    const user = await api.createUser(tenant.admin.token);
    const socket = await connect(user.token);
    open.push(socket);
    socket.send('userStatus', 'online');
    await ours.waitFor(() => presenceEvents(ours, user.id).includes('online'), FRAME_MS);
    // The other company's sockets hear nothing of ours; its users list does not name our user.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(theirs.frames.filter((f) => f.event.startsWith(`company-${tenant.company.id}-`))).toEqual([]);
    const page = await api.ok<{ users: User[] }>('GET', '/users', { token: other.admin.token, query: { pageNumber: 1 } });
    expect(page.users.map((u) => u.id === user.id && u.email === user.email)).not.toContain(true);
  }, 120_000);
});
