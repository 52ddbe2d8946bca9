import type { ClientMessage, ServerEvent } from '@conversa/functions/contracts';
import { eventsOfFrame, SOCKET_PING_INTERVAL_MS, USER_STATUS_INTERVAL_MS } from '@conversa/functions/contracts/channels';
import type { SocketStatus } from '@conversa/functions/contracts/presence';
import { reconnectDelayMs } from './reconnect-policy.ts';

export type EventListener = (event: ServerEvent) => void;

/** Said again by every new socket as it opens (the state they carry is kept here), so never queued. */
const replayedOnOpen = new Set<ClientMessage['action']>(['ping', 'joinChatBox', 'leaveChatBox', 'userStatus']);

/** How long before its token expires a socket is replaced by one with a new token. */
export const RENEW_BEFORE_EXPIRY_MS = 60_000;
/** Never sooner than this after a socket opened (a token that is already near its end). */
const MIN_RENEW_AFTER_MS = 10_000;

export interface RealtimeClientOptions {
  wsUrl: string;
  /**
   * Asked before every (re)connect, so a reconnect carries a fresh token; `renew` asks for a new one
   * even if the cached one is still valid. With its expiry, the client moves to a new socket with a
   * new token shortly before the old one expires (the server stops sending to a socket whose token
   * expired, and a socket's own checks run only every few minutes).
   */
  getToken: (renew: boolean) => Promise<string | { jwt: string; expiresAt?: number } | undefined>;
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
 * `onReconnect` lets the app refetch what it missed, once per socket that opened again. A minute
 * before its token expires, the socket is replaced by one carrying a new token.
 *
 * Presence (SPEC 7 "Client emits", issue 22 §1): every socket says `userStatus` with the user's
 * status (online or away) as it opens, again each time the app changes it, and every 300000 ms.
 */
export class RealtimeClient {
  private socket: WebSocket | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private statusTimer: ReturnType<typeof setInterval> | undefined;
  /** What this tab says of its user (userStatus), said again on every new socket and every 5 minutes. */
  private status: SocketStatus = 'online';
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  /** The socket is being replaced for a new token: reconnect at once, with `getToken(true)`. */
  private renewing = false;
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
    if (message.action === 'userStatus') this.status = message.data === 'away' ? 'away' : 'online';
    if (message.action === 'joinChatBox') this.chatBox = message.data;
    else if (message.action === 'leaveChatBox' && message.data === this.chatBox) this.chatBox = undefined;
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    // Messages sent before the socket opens are replayed on open (the room is rejoined from chatBox).
    else if (!replayedOnOpen.has(message.action)) this.pending.push(message);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearInterval(this.statusTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.renewTimer);
    this.socket?.close(1000);
    this.socket = undefined;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const renew = this.renewing;
    this.renewing = false;
    const got = await this.options.getToken(renew);
    const token = typeof got === 'string' ? got : got?.jwt;
    const expiresAt = typeof got === 'object' ? got.expiresAt : undefined;
    if (!token || this.closed) return; // inert without a token (SPEC 4)
    const url = `${this.options.wsUrl}${this.options.wsUrl.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      socket.send(JSON.stringify({ action: 'userStatus', data: this.status }));
      if (this.chatBox !== undefined) socket.send(JSON.stringify({ action: 'joinChatBox', data: this.chatBox }));
      for (const message of this.pending.splice(0)) socket.send(JSON.stringify(message));
      this.pingTimer = setInterval(() => this.send({ action: 'ping' }), SOCKET_PING_INTERVAL_MS);
      this.statusTimer = setInterval(() => this.send({ action: 'userStatus', data: this.status }), USER_STATUS_INTERVAL_MS);
      if (expiresAt !== undefined) {
        const renewIn = Math.max(MIN_RENEW_AFTER_MS, expiresAt * 1000 - Date.now() - RENEW_BEFORE_EXPIRY_MS);
        this.renewTimer = setTimeout(() => this.renew(socket), renewIn);
      }
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
      clearInterval(this.statusTimer);
      clearTimeout(this.renewTimer);
      if (this.socket === socket) this.socket = undefined;
      if (this.renewing) void this.connect();
      else this.scheduleReconnect();
    };
  }

  /** Replaces the open socket by one with a new token (the app refetches once, as after any drop). */
  private renew(socket: WebSocket): void {
    if (this.closed || this.socket !== socket) return;
    this.renewing = true;
    socket.close(1000);
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = (this.options.reconnectDelayMs ?? reconnectDelayMs)(this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}
