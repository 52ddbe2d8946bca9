import type { ClientMessage, ServerEvent } from '@conversa/functions/contracts';
import { eventsOfFrame, SOCKET_PING_INTERVAL_MS } from '@conversa/functions/contracts/channels';
import { reconnectDelayMs } from './reconnect-policy.ts';

export type EventListener = (event: ServerEvent) => void;

export interface RealtimeClientOptions {
  wsUrl: string;
  /** Asked before every (re)connect, so a reconnect carries a fresh token. */
  getToken: () => Promise<string | undefined>;
  onEvent: EventListener;
  /**
   * After a socket opened again (a dropped connection, API Gateway's 2-hour limit, a deploy): what
   * happened meanwhile reached nobody, so the caller refetches what it shows, once.
   */
  onReconnect?: () => void;
  /** The wait before the next attempt after `failures` attempts that never opened; reconnect-policy.ts's by default (bench:reconnect replays others). */
  reconnectDelayMs?: (failures: number) => number;
}

/**
 * One WebSocket to the API Gateway WebSocket API. It pings every 18 s (SPEC 9) so the gateway's
 * 10-minute idle limit never drops it, and reconnects with jittered exponential back-off until
 * closed (reconnect-policy.ts: many clients dropped at once do not come back in step). A new socket
 * is a new connection to the server: the open conversation's room is joined again, and
 * `onReconnect` lets the app refetch what it missed, once per socket that opened again.
 */
export class RealtimeClient {
  private socket: WebSocket | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Attempts since the last open that closed without opening (refused, 429 included). */
  private failures = 0;
  private closed = false;
  private opened = false;
  /** The conversation whose events this client asked for (joinChatBox), joined again on every new socket. */
  private chatBox: unknown;
  private readonly pending: ClientMessage[] = [];

  constructor(private readonly options: RealtimeClientOptions) {}

  start(): void {
    void this.connect();
  }

  send(message: ClientMessage): void {
    if (message.action === 'joinChatBox') this.chatBox = message.data;
    else if (message.action === 'leaveChatBox' && message.data === this.chatBox) this.chatBox = undefined;
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    // Messages sent before the socket opens are replayed on open (the room is rejoined from chatBox).
    else if (message.action !== 'ping' && message.action !== 'joinChatBox' && message.action !== 'leaveChatBox') this.pending.push(message);
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
      this.failures = 0;
      if (this.chatBox !== undefined) socket.send(JSON.stringify({ action: 'joinChatBox', data: this.chatBox }));
      for (const message of this.pending.splice(0)) socket.send(JSON.stringify(message));
      this.pingTimer = setInterval(() => this.send({ action: 'ping' }), SOCKET_PING_INTERVAL_MS);
      if (this.opened) this.options.onReconnect?.();
      this.opened = true;
    };
    // One event per frame, or several the server coalesced, in order.
    socket.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      for (const event of eventsOfFrame(message.data)) this.options.onEvent(event);
    };
    socket.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.socket === socket) this.socket = undefined;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = (this.options.reconnectDelayMs ?? reconnectDelayMs)(this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}
