/**
 * A WebSocket client for tests, as the web app uses the realtime API: connect to `${wsUrl}?token=`,
 * send `{action, data}`, receive `{event, data}` frames.
 */
import { eventsOfFrame } from '@conversa/functions/contracts/channels';
import { WebSocket } from 'ws';

export interface Frame {
  event: string;
  data: unknown;
}

export interface TestSocket {
  ws: WebSocket;
  frames: Frame[];
  send(action: string, data?: unknown): void;
  waitFor(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  /** Resolves when the server closes the socket; fails after `timeoutMs`. */
  closed(timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens a socket; rejects with `HTTP <status>` when $connect refuses it. */
export function connectSocket(wsUrl: string, token: string): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsUrl}?token=${encodeURIComponent(token)}`);
    const frames: Frame[] = [];
    const waiters = new Set<() => void>();
    let isClosed = false;
    ws.on('message', (raw) => {
      // A coalesced message carries several events (contracts/channels.ts ServerFrame): one frame each here.
      frames.push(...eventsOfFrame(raw.toString()));
      for (const wake of waiters) wake();
    });
    ws.on('close', () => {
      isClosed = true;
      for (const wake of waiters) wake();
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);

    const waitUntil = <T>(probe: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> =>
      new Promise((found, fail) => {
        const check = () => {
          const value = probe();
          if (value === undefined) return false;
          cleanup();
          found(value);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          fail(new Error(`${what()} within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        if (!check()) waiters.add(check);
      });

    ws.once('open', () =>
      resolve({
        ws,
        frames,
        send: (action, data) => ws.send(JSON.stringify({ action, data })),
        close: () => ws.close(),
        waitFor: (match, timeoutMs = 5000) =>
          waitUntil(
            () => frames.find(match),
            timeoutMs,
            () => `no matching frame; got ${JSON.stringify(frames.map((f) => f.event))}`,
          ),
        closed: (timeoutMs = 5000) =>
          waitUntil(
            () => (isClosed ? true : undefined),
            timeoutMs,
            () => 'the server did not close the socket',
          ).then(() => undefined),
      }),
    );
  });
}
