import type { ClientMessage, ServerEvent } from '@conversa/functions/contracts';
import { SOCKET_PING_INTERVAL_MS } from '@conversa/functions/contracts/channels';

export type EventListener = (event: ServerEvent) => void;

export interface RealtimeClientOptions {
  wsUrl: string;
  /** Asked before every (re)connect, so a reconnect carries a fresh token. */
  getToken: () => Promise<string | undefined>;
  onEvent: EventListener;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * One WebSocket to the API Gateway WebSocket API. It pings every 18 s (SPEC 9) so the gateway's
 * 10-minute idle limit never drops it, and reconnects with exponential back-off until closed.
 */
export class RealtimeClient {
  private socket: WebSocket | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private closed = false;
  private readonly pending: ClientMessage[] = [];

  constructor(private readonly options: RealtimeClientOptions) {}

  start(): void {
    void this.connect();
  }

  send(message: ClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    // Joins sent before the socket opens are replayed on open.
    else if (message.action !== 'ping') this.pending.push(message);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    this.socket?.close(1000);
    this.socket = undefined;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const token = await this.options.getToken();
    if (!token || this.closed) return; // inert without a token (SPEC 4)
    const url = `${this.options.wsUrl}${this.options.wsUrl.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      for (const message of this.pending.splice(0)) socket.send(JSON.stringify(message));
      this.pingTimer = setInterval(() => this.send({ action: 'ping' }), SOCKET_PING_INTERVAL_MS);
    };
    socket.onmessage = (message) => {
      const event = parseEvent(message.data);
      if (event) this.options.onEvent(event);
    };
    socket.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.socket === socket) this.socket = undefined;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempts) * (0.75 + Math.random() * 0.5);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}

function parseEvent(raw: unknown): ServerEvent | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<ServerEvent>;
    return typeof parsed.event === 'string' ? { event: parsed.event, data: parsed.data } : undefined;
  } catch {
    return undefined;
  }
}
