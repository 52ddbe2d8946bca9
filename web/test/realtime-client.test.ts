/**
 * The socket client after a drop (issue 15: "reconnects with jittered exponential back-off and
 * resyncs what it missed"): API Gateway ends every WebSocket after 2 hours and a deploy drops them
 * all, and a new socket is a new connection to the server. The open conversation's room must be
 * joined again on it, the app told once so it refetches its lists, and the retries spread out.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeClient } from '../src/lib/realtime/realtime-client.ts';

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
/** Lets the client's connect (it awaits the token) create its socket. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function client(onReconnect = vi.fn()) {
  const realtime = new RealtimeClient({ wsUrl: 'wss://x/ws', getToken: async () => 'token', onEvent: () => {}, onReconnect });
  realtime.start();
  return { realtime, onReconnect };
}

describe('RealtimeClient after a dropped socket', () => {
  it('joins the open conversation again on the new socket and asks for a resync once', async () => {
    const { realtime, onReconnect } = client();
    await settle();
    latest().open();
    realtime.send({ action: 'joinChatBox', data: 'ticket-uuid-1' });
    expect(latest().sent).toEqual([{ action: 'joinChatBox', data: 'ticket-uuid-1' }]);
    expect(onReconnect).not.toHaveBeenCalled();

    latest().drop();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();

    expect(latest().sent).toEqual([{ action: 'joinChatBox', data: 'ticket-uuid-1' }]);
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
    await vi.advanceTimersByTimeAsync(2_000);
    latest().open();
    expect(latest().sent).toEqual([{ action: 'joinChatBox', data: 'b' }]);

    realtime.send({ action: 'leaveChatBox', data: 'b' });
    latest().drop();
    await vi.advanceTimersByTimeAsync(5_000);
    latest().open();
    expect(latest().sent).toEqual([]);
    realtime.close();
  });

  it('waits longer after each failed attempt, with jitter, up to 30 s', async () => {
    const { realtime } = client();
    await settle();
    const waits: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const before = FakeSocket.all.length;
      latest().drop();
      let waited = 0;
      while (FakeSocket.all.length === before) {
        await vi.advanceTimersByTimeAsync(100);
        waited += 100;
      }
      waits.push(waited);
    }
    // 1, 2, 4, 8, 16, 30, 30 s, each within +-25 %.
    const nominal = [1, 2, 4, 8, 16, 30, 30].map((s) => s * 1000);
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual((nominal[i] as number) * 0.75);
      expect(wait).toBeLessThanOrEqual((nominal[i] as number) * 1.25 + 100);
    });
    realtime.close();
  });
});
