/**
 * What the WhatsApp tests and benches share: the simulator's control API (the contacts' phones),
 * a realtime socket that records `{event, data}` frames, a tenant with queues and a CONNECTED
 * connection, and the stack control (kill/start the session-host). No vitest imports: the benches
 * under tests/bench use it outside vitest.
 */
import { eventsOfFrame } from '@conversa/functions/contracts/channels';
import { WebSocket } from 'ws';
import type { Call } from './tenants.ts';

export interface ChatEntry {
  waMessageId: string;
  from: 'us' | 'contact';
  body: string;
  ack: number;
  timestamp: number;
}

export interface SimConnection {
  id: string;
  status: 'offline' | 'qrcode' | 'connected' | 'disconnected';
  online: boolean;
  pendingEvents: number;
  qrcode: string;
}

async function json<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** The simulated phone network; `id` is `<companyId>.<connectionId>`. */
export function simulator(baseUrl: string) {
  const api = (path: string) => `${baseUrl.replace(/\/$/, '')}/api/connections${path}`;
  const post = (path: string, body: unknown = {}) =>
    fetch(api(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return {
    async list(): Promise<SimConnection[]> {
      return (await json<{ connections: SimConnection[] }>(await fetch(api('')), 'list')).connections;
    },
    async find(id: string): Promise<SimConnection | undefined> {
      return (await this.list()).find((c) => c.id === id);
    },
    /** Scanning now; false when the phone shows no QR (already connected). */
    async scan(id: string): Promise<boolean> {
      const res = await post(`/${id}/scan`);
      if (res.status === 409) return false;
      await json(res, `scan ${id}`);
      return true;
    },
    async blockScan(id: string, blocked = true): Promise<void> {
      await json(await post(`/${id}/block-scan`, { blocked }), `block-scan ${id}`);
    },
    async autoAck(id: string, delayMs: number | null): Promise<void> {
      await json(await post(`/${id}/auto-ack`, { delayMs }), `auto-ack ${id}`);
    },
    /** The contact `number` writes to the connection. */
    async send(id: string, number: string, body: string, pushName?: string): Promise<{ waMessageId: string; timestamp: number }> {
      return json(await post(`/${id}/contacts/${number}/messages`, { body, pushName }), `contact ${number} sends`);
    },
    /** The contact's chat as their phone shows it. */
    async chat(id: string, number: string): Promise<ChatEntry[]> {
      return (await json<{ messages: ChatEntry[] }>(await fetch(api(`/${id}/contacts/${number}/messages`)), 'chat')).messages;
    },
    async ack(id: string, number: string, waMessageId: string, ack: 2 | 3 | 4): Promise<void> {
      await json(await post(`/${id}/contacts/${number}/messages/${waMessageId}/ack`, { ack }), `ack ${waMessageId}`);
    },
  };
}
export type Simulator = ReturnType<typeof simulator>;

export interface Frame {
  event: string;
  data: unknown;
  /** When this process received it (ms since epoch). */
  at: number;
}

export interface Socket {
  ws: WebSocket;
  frames: Frame[];
  send(action: string, data?: unknown): void;
  waitFor(what: string, match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): void;
  /** Called for every frame as it arrives (benches). */
  onFrame?: (frame: Frame) => void;
}

/** A realtime client as the web app opens it: `${wsUrl}?token=`. */
export function connectSocket(wsUrl: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsUrl}?token=${encodeURIComponent(token)}`);
    const frames: Frame[] = [];
    const waiters = new Set<() => void>();
    const socket: Socket = {
      ws,
      frames,
      send: (action, data) => ws.send(JSON.stringify({ action, data })),
      close: () => ws.close(),
      waitFor: (what, match, timeoutMs = 15_000) =>
        new Promise((found, fail) => {
          const check = () => {
            const frame = frames.find(match);
            if (!frame) return;
            cleanup();
            found(frame);
          };
          const timer = setTimeout(() => {
            cleanup();
            fail(new Error(`socket: no ${what} within ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.event))}`));
          }, timeoutMs);
          const cleanup = () => {
            clearTimeout(timer);
            waiters.delete(check);
          };
          waiters.add(check);
          check();
        }),
    };
    ws.on('message', (raw) => {
      // A coalesced message carries several events (contracts/channels.ts ServerFrame): one frame each here.
      const at = Date.now();
      for (const event of eventsOfFrame(raw.toString())) {
        const frame = { ...event, at };
        frames.push(frame);
        socket.onFrame?.(frame);
      }
      for (const wake of [...waiters]) wake();
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`socket: HTTP ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => resolve(socket));
  });
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  // Generous: the suite runs its projects side by side on 2 cores; a wait ends as soon as the state is reached.
  timeoutMs = 45_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Throws with the status and body unless the call succeeded. */
export async function ok<T>(call: Call, method: string, path: string, opts: Parameters<Call>[2] = {}): Promise<T> {
  const res = await call(method, path, opts);
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.text}`);
  return res.body as T;
}

export interface ConnectionSetup {
  connectionId: number;
  /** The simulator's id for it: `<companyId>.<connectionId>`. */
  simId: string;
  queueIds: number[];
}

/**
 * Queues named `names` and a connection with all of them and a greeting, through the API; the
 * simulated phone scans the QR (scan blocked until then, so the QR is really shown) and the
 * connection is CONNECTED in REST.
 */
export async function connectedConnection(
  call: Call,
  sim: Simulator,
  opts: { token: string; companyId: number; queues: string[]; greeting?: string; connection?: Record<string, unknown> },
): Promise<ConnectionSetup> {
  const queueIds: number[] = [];
  for (const [i, name] of opts.queues.entries()) {
    const queue = await ok<{ id: number }>(call, 'POST', '/queue', {
      token: opts.token,
      body: { name, color: `#${(0x224466 + i * 0x111111).toString(16).slice(0, 6)}`, orderQueue: i + 1 },
    });
    queueIds.push(queue.id);
  }
  const existing = await ok<{ id: number }[]>(call, 'GET', '/whatsapp', { token: opts.token });
  // Ids are per company and sequential: the next connection's simulator id is known before it exists.
  const nextId = Math.max(0, ...existing.map((c) => c.id)) + 1;
  await sim.blockScan(`${opts.companyId}.${nextId}`);
  const connection = await ok<{ id: number }>(call, 'POST', '/whatsapp', {
    token: opts.token,
    body: { name: `Phone ${nextId}`, greetingMessage: opts.greeting ?? 'Hello!', queueIds, maxUseBotQueues: 10, ...opts.connection },
  });
  if (connection.id !== nextId) throw new Error(`connection id ${connection.id}, expected ${nextId}`);
  const simId = `${opts.companyId}.${connection.id}`;
  await waitUntil(`connection ${simId} shows a QR`, async () => {
    const rest = await ok<{ status: string; qrcode: string }>(call, 'GET', `/whatsapp/${connection.id}`, { token: opts.token });
    return rest.status === 'qrcode' && rest.qrcode.length > 0;
  });
  await sim.scan(simId);
  await waitUntil(`connection ${simId} CONNECTED`, async () => {
    const rest = await ok<{ status: string }>(call, 'GET', `/whatsapp/${connection.id}`, { token: opts.token });
    return rest.status === 'CONNECTED';
  });
  return { connectionId: connection.id, simId, queueIds };
}

/** Test-only control of the stack's processes (tests/support/global-setup.ts). */
export function stackControl(controlUrl: string) {
  const post = async (path: string, body: unknown = {}) =>
    json<Record<string, unknown>>(
      await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      path,
    );
  return {
    killSessionHost: (signal: NodeJS.Signals = 'SIGKILL') => post('/session-host/kill', { signal }),
    startSessionHost: () => post('/session-host/start'),
  };
}

/** Waits until the restarted host has linked the phone again (the simulator sees the device online and connected). */
export async function waitLinked(sim: Simulator, simId: string, timeoutMs = 20_000): Promise<void> {
  await waitUntil(
    `phone ${simId} linked again`,
    async () => {
      const found = await sim.find(simId);
      return found?.online && found.status === 'connected';
    },
    timeoutMs,
  );
}

/** Percentile of sorted-on-the-fly values (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
