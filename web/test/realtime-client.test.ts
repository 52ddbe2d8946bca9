/**
 * The socket client after a drop (issue 15: "reconnects with jittered exponential back-off and
 * resyncs what it missed"): API Gateway ends every WebSocket after 2 hours and a deploy drops them
 * all, and a new socket is a new connection to the server. The open conversation's room must be
 * joined again on it, the app told once so it refetches its lists, and the retries spread out: a
 * crowd dropped at once meets API Gateway's 500 new connections per second, and a retry over it is
 * refused (429). The server may coalesce several events in one frame (a JSON array, in order).
 */
import type { ServerEvent } from '@conversa/functions/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENEW_BEFORE_EXPIRY_MS, RealtimeClient } from '../src/lib/realtime/realtime-client.ts';
import { FIRST_RETRY_WINDOW_MS, reconnectDelayMs } from '../src/lib/realtime/reconnect-policy.ts';

class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | undefined;
  onclose: (() => void) | undefined;
  onmessage: ((message: { data: unknown }) => void) | undefined;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

const latest = () => FakeSocket.all.at(-1) as FakeSocket;
/** What a socket sent but its presence (every socket says userStatus as it opens: see the presence tests). */
const joined = (socket: FakeSocket) => socket.sent.filter((m) => (m as { action: string }).action !== 'userStatus');
const statuses = (socket: FakeSocket) => socket.sent.filter((m) => (m as { action: string }).action === 'userStatus');
/** Lets the client's connect (it awaits the token) create its socket. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function client(onReconnect = vi.fn(), onEvent = vi.fn()) {
  const realtime = new RealtimeClient({ wsUrl: 'wss://x/ws', getToken: async () => 'token', onEvent, onReconnect });
  realtime.start();
  return { realtime, onReconnect, onEvent };
}

/** Drops the latest socket (open or still connecting) and returns how long the client waited before its next one. */
async function waitOfNextAttempt(): Promise<number> {
  const before = FakeSocket.all.length;
  latest().drop();
  let waited = 0;
  while (FakeSocket.all.length === before) {
    await vi.advanceTimersByTimeAsync(100);
    waited += 100;
  }
  return waited;
}

describe('RealtimeClient presence (SPEC 7 "Client emits": userStatus every 300000 ms; issue 22 §1)', () => {
  it('says userStatus as each socket opens, on each change, and every 300000 ms with the current status', async () => {
    // Prepare
    const { realtime } = client();
    await settle();
    // Act: a status chosen before the socket opens is what it says first
    realtime.send({ action: 'userStatus', data: 'away' });
    latest().open();
    // Assess
    expect(latest().sent[0]).toEqual({ action: 'userStatus', data: 'away' });
    realtime.send({ action: 'userStatus', data: 'online' });
    expect(statuses(latest())).toEqual([
      { action: 'userStatus', data: 'away' },
      { action: 'userStatus', data: 'online' },
    ]);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(statuses(latest())).toHaveLength(3);
    expect(statuses(latest()).at(-1)).toEqual({ action: 'userStatus', data: 'online' });
    await vi.advanceTimersByTimeAsync(300_000);
    expect(statuses(latest())).toHaveLength(4);
    realtime.close();
  });

  it('a new socket after a drop says the status last set, once, not the ones queued while down', async () => {
    const { realtime } = client();
    await settle();
    latest().open();
    latest().drop();
    realtime.send({ action: 'userStatus', data: 'online' });
    realtime.send({ action: 'userStatus', data: 'away' });
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_WINDOW_MS);
    latest().open();
    expect(statuses(latest())).toEqual([{ action: 'userStatus', data: 'away' }]);
    realtime.close();
  });
});

describe('RealtimeClient after a dropped socket', () => {
  it('joins the open conversation again on the new socket and asks for a resync once', async () => {
    const { realtime, onReconnect } = client();
    await settle();
    latest().open();
    realtime.send({ action: 'joinChatBox', data: 'ticket-uuid-1' });
    expect(joined(latest())).toEqual([{ action: 'joinChatBox', data: 'ticket-uuid-1' }]);
    expect(onReconnect).not.toHaveBeenCalled();

    latest().drop();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_WINDOW_MS);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();

    expect(joined(latest())).toEqual([{ action: 'joinChatBox', data: 'ticket-uuid-1' }]);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    realtime.close();
  });

  it('rejoins nothing after the conversation was left, and only the latest of several', async () => {
    const { realtime } = client();
    await settle();
    latest().open();
    realtime.send({ action: 'joinChatBox', data: 'a' });
    realtime.send({ action: 'joinChatBox', data: 'b' });
    latest().drop();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_WINDOW_MS);
    latest().open();
    expect(joined(latest())).toEqual([{ action: 'joinChatBox', data: 'b' }]);

    realtime.send({ action: 'leaveChatBox', data: 'b' });
    latest().drop();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_WINDOW_MS);
    latest().open();
    expect(joined(latest())).toEqual([]);
    realtime.close();
  });

  it('spreads the first retry after a drop uniformly over the first window', async () => {
    // Prepare: the client draws its wait from Math.random; the drawn fraction of the window is what it waits
    const { realtime } = client();
    await settle();
    latest().open();
    const waits: number[] = [];
    // Act: a drop at each of these draws, the socket opening again in between
    for (const draw of [0, 0.25, 0.5, 0.999]) {
      vi.spyOn(Math, 'random').mockReturnValue(draw);
      waits.push(await waitOfNextAttempt());
      latest().open();
    }
    // Assess
    expect(waits).toEqual([100, 1_300, 2_500, 5_000]);
    realtime.close();
  });

  it('draws the first retry from the whole window, so a crowd dropped at once does not arrive in one second', () => {
    const draws = Array.from({ length: 2_000 }, () => reconnectDelayMs(0));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThanOrEqual(FIRST_RETRY_WINDOW_MS);
    const perSecond = [0, 1, 2, 3, 4].map((second) => draws.filter((d) => Math.floor(d / 1000) === second).length);
    // Uniform: 400 a second; the old 1 s +-25 % put all 2,000 within half a second.
    for (const count of perSecond) expect(count).toBeGreaterThan(300);
  });

  it('doubles the window after each attempt that never opened, up to 30 s, and starts over once one opens', async () => {
    // Prepare
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const { realtime } = client();
    await settle();
    latest().open();
    // Act: the socket drops, then six attempts are refused (closed without opening, as a 429 upgrade is)
    const waits = [];
    for (let attempt = 0; attempt < 7; attempt++) waits.push(await waitOfNextAttempt());
    latest().open();
    const afterOpen = await waitOfNextAttempt();
    // Assess: 5, 10, 20, 30, 30 ... s (the window, as the draw is its top)
    expect(waits.map((ms) => Math.round(ms / 1000))).toEqual([5, 10, 20, 30, 30, 30, 30]);
    expect(Math.round(afterOpen / 1000)).toBe(5);
    realtime.close();
  });

  it('asks for one resync per socket that opened again, however many attempts it took, and none per event', async () => {
    // Prepare
    const { realtime, onReconnect } = client();
    await settle();
    latest().open();
    // Act: a drop, two refused attempts, then an open socket that receives events
    for (let attempt = 0; attempt < 3; attempt++) await waitOfNextAttempt();
    latest().open();
    for (let i = 0; i < 5; i++)
      latest().onmessage?.({
        data: JSON.stringify([
          { event: 'e', data: i },
          { event: 'e', data: i },
        ]),
      });
    // Assess
    expect(onReconnect).toHaveBeenCalledTimes(1);
    await waitOfNextAttempt();
    latest().open();
    expect(onReconnect).toHaveBeenCalledTimes(2);
    realtime.close();
  });
});

describe('RealtimeClient frames', () => {
  it('dispatches a single event and every event of a coalesced array frame, in order, skipping what is not an event', async () => {
    // Prepare
    const { realtime, onEvent } = client();
    await settle();
    latest().open();
    // Act
    const deliver = (data: unknown) => latest().onmessage?.({ data });
    deliver(JSON.stringify({ event: 'one', data: 1 }));
    deliver(JSON.stringify([{ event: 'two', data: 2 }, { nope: true }, 'text', null, { event: 3 }, { event: 'three', data: { n: 3 } }]));
    deliver('not json');
    deliver(JSON.stringify([]));
    deliver(JSON.stringify({ event: 'four' }));
    // Assess
    const events = onEvent.mock.calls.map(([event]) => event as ServerEvent);
    expect(events).toEqual([
      { event: 'one', data: 1 },
      { event: 'two', data: 2 },
      { event: 'three', data: { n: 3 } },
      { event: 'four', data: undefined },
    ]);
    realtime.close();
  });
});

describe('RealtimeClient before its token expires', () => {
  it('moves to a new socket with a renewed token a minute before expiry, rejoins and asks for one resync', async () => {
    // Prepare: tokens that expire an hour after they are handed out
    const asked: boolean[] = [];
    const onReconnect = vi.fn();
    const realtime = new RealtimeClient({
      wsUrl: 'wss://x/ws',
      getToken: async (renew) => {
        asked.push(renew);
        return { jwt: `token-${asked.length}`, expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      },
      onEvent: vi.fn(),
      onReconnect,
    });
    realtime.start();
    await settle();
    latest().open();
    realtime.send({ action: 'joinChatBox', data: 'ticket-uuid-1' });
    const first = latest();
    // Act: just before the renewal nothing happens; at it, the old socket closes and a new one connects at once
    await vi.advanceTimersByTimeAsync(3600_000 - RENEW_BEFORE_EXPIRY_MS - 1000);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    // Assess
    expect(first.readyState).toBe(3);
    expect(FakeSocket.all).toHaveLength(2);
    expect(latest().url).toContain('token=token-2');
    expect(asked).toEqual([false, true]);
    latest().open();
    expect(joined(latest())).toEqual([{ action: 'joinChatBox', data: 'ticket-uuid-1' }]);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    realtime.close();
  });

  it('does not renew a token without an expiry, nor after close', async () => {
    const { realtime } = client();
    await settle();
    latest().open();
    await vi.advanceTimersByTimeAsync(3 * 3600_000);
    expect(FakeSocket.all).toHaveLength(1);
    realtime.close();
    await vi.advanceTimersByTimeAsync(3600_000);
    expect(FakeSocket.all).toHaveLength(1);
  });
});
