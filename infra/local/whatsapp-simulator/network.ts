/**
 * The simulated WhatsApp network: linked devices (one per connection), their pairing (the part of
 * "credentials" that lives on the phone's side), simulated contacts and their chats. It outlives
 * session-host restarts, which is why it runs in the local stack's process, not the host's: events a
 * device has not acknowledged are kept and delivered again when a device reconnects, and sends are
 * deduplicated by WhatsApp message id, as WhatsApp does.
 */
import { randomBytes } from 'node:crypto';
import {
  type DeviceToNetwork,
  type NetworkToDevice,
  type SimEvent,
  type SimLocation,
  type SimMedia,
  type SimPhoneContact,
  simSessionKey,
} from '@conversa/session-host/providers/simulator-protocol';
import type { WebSocket } from 'ws';

export interface ChatEntry {
  waMessageId: string;
  /** `us`: sent by the connection (our attendant or bot); `contact`: by the simulated contact. */
  from: 'us' | 'contact';
  body: string;
  media?: SimMedia & { asVoice?: boolean };
  location?: SimLocation;
  quotedId?: string;
  /** For our messages: 1 server, 2 delivered, 3 read, 4 played. */
  ack: number;
  timestamp: number;
  deleted?: boolean;
  edited?: boolean;
}

export type SimStatus = 'offline' | 'qrcode' | 'connected' | 'disconnected';

interface SimSession {
  key: string;
  companyId: number;
  connectionId: number;
  paired: boolean;
  number?: string;
  status: SimStatus;
  scanBlocked: boolean;
  autoAckMs?: number;
  qr?: { code: string; retries: number; timer?: NodeJS.Timeout };
  socket?: WebSocket;
  outbox: { seq: number; event: SimEvent }[];
  nextSeq: number;
  chats: Map<string, ChatEntry[]>;
  byWaId: Map<string, { number: string; entry: ChatEntry }>;
  /** Saved contacts (number -> name), set through the control API. */
  addressBook: Map<string, string>;
  /** The name each contact that wrote gave itself (WhatsApp's push name). */
  pushNames: Map<string, string>;
}

export interface NetworkOptions {
  /** Delay before a shown QR is "scanned" (unless scanning is blocked for the connection). */
  scanMs: number;
  /** How long a QR stays valid before the next one; 3 unscanned QRs end the session. */
  qrRefreshMs: number;
  /** When set, our messages are acked delivered after this delay and read after twice it. */
  autoAckMs?: number;
}

export const QR_ATTEMPTS = 3;

/**
 * Who has an account on the simulated network (what Baileys' onWhatsApp asks WhatsApp): every
 * number of 10 to 15 digits that does not start with 0, as E.164 numbers are (no country code starts
 * with 0). So `5511987654321` is on WhatsApp and `0011987654321` or `12345678` are not: tests and
 * the local product name a number off WhatsApp by its leading 0.
 */
export const isOnSimulatedWhatsApp = (number: string): boolean => /^[1-9]\d{9,14}$/.test(number);

export class LookupError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class SimNetwork {
  private readonly sessions = new Map<string, SimSession>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: NetworkOptions) {}

  list() {
    return [...this.sessions.values()].map((s) => ({
      id: s.key,
      companyId: s.companyId,
      connectionId: s.connectionId,
      status: s.status,
      number: s.number ?? '',
      qrcode: s.status === 'qrcode' ? (s.qr?.code ?? '') : '',
      retries: s.qr?.retries ?? 0,
      scanBlocked: s.scanBlocked,
      online: Boolean(s.socket),
      pendingEvents: s.outbox.length,
      contacts: [...s.chats.keys()],
    }));
  }

  /** `<companyId>.<connectionId>`, or a bare connection id when only one company has it. */
  resolve(id: string): SimSession {
    const exact = this.sessions.get(id);
    if (exact) return exact;
    const matches = [...this.sessions.values()].filter((s) => String(s.connectionId) === id);
    if (matches.length === 1 && matches[0]) return matches[0];
    if (matches.length > 1) throw new LookupError(409, `connection ${id} exists in several companies: use <companyId>.<connectionId>`);
    throw new LookupError(404, `no phone session for connection ${id} (has the session-host started it?)`);
  }

  // --- the device side -------------------------------------------------------------------------

  attach(socket: WebSocket): void {
    let session: SimSession | undefined;
    socket.on('message', (raw) => {
      let message: DeviceToNetwork;
      try {
        message = JSON.parse(String(raw)) as DeviceToNetwork;
      } catch {
        return;
      }
      if (message.type === 'hello') {
        session = this.hello(socket, message);
        return;
      }
      if (!session || session.socket !== socket) return;
      this.fromDevice(session, message);
    });
    socket.on('close', () => {
      if (!session || session.socket !== socket) return;
      session.socket = undefined;
      this.clearQr(session);
      if (session.status !== 'disconnected') session.status = 'offline';
    });
  }

  private hello(socket: WebSocket, hello: Extract<DeviceToNetwork, { type: 'hello' }>): SimSession {
    const key = simSessionKey(hello.companyId, hello.connectionId);
    const session = this.sessions.get(key) ?? this.newSession(hello.companyId, hello.connectionId);
    // One linked socket per session: a newer one (a restarted or new owner host) replaces the old.
    if (session.socket && session.socket !== socket) {
      this.send(session.socket, { type: 'disconnected', reason: 'replaced' });
      session.socket.close();
    }
    session.socket = socket;
    this.clearQr(session);
    if (hello.fresh) {
      session.paired = false;
      session.number = undefined;
    }
    if (session.paired) this.connect(session);
    else this.showQr(session, 0);
    return session;
  }

  private fromDevice(session: SimSession, message: DeviceToNetwork): void {
    const reply = (result: NetworkToDevice) => session.socket && this.send(session.socket, result);
    switch (message.type) {
      case 'eventAck':
        session.outbox = session.outbox.filter((pending) => pending.seq !== message.seq);
        return;
      case 'onWhatsApp':
        if (!session.paired || session.status !== 'connected') {
          reply({ type: 'result', reqId: message.reqId, ok: false, error: 'ERR_WAPP_NOT_INITIALIZED' });
          return;
        }
        reply({ type: 'result', reqId: message.reqId, ok: true, registered: message.numbers.filter(isOnSimulatedWhatsApp) });
        return;
      case 'listContacts':
        if (!session.paired || session.status !== 'connected') {
          reply({ type: 'result', reqId: message.reqId, ok: false, error: 'ERR_WAPP_NOT_INITIALIZED' });
          return;
        }
        reply({ type: 'result', reqId: message.reqId, ok: true, contacts: this.phoneContacts(session) });
        return;
      case 'logout':
        session.paired = false;
        session.number = undefined;
        session.status = 'disconnected';
        reply({ type: 'result', reqId: message.reqId, ok: true });
        return;
      case 'send': {
        if (!session.paired || session.status !== 'connected') {
          reply({ type: 'result', reqId: message.reqId, ok: false, error: 'ERR_WAPP_NOT_INITIALIZED' });
          return;
        }
        if (!/^[\d-]+(@g\.us)?$/.test(message.to)) {
          reply({ type: 'result', reqId: message.reqId, ok: false, error: 'ERR_WAPP_INVALID_CONTACT' });
          return;
        }
        const existing = session.byWaId.get(message.waMessageId);
        if (existing) {
          reply({ type: 'result', reqId: message.reqId, ok: true, waMessageId: message.waMessageId, timestamp: existing.entry.timestamp });
          return;
        }
        const entry: ChatEntry = {
          waMessageId: message.waMessageId,
          from: 'us',
          body: message.body,
          media: message.media,
          quotedId: message.quotedId,
          ack: 1,
          timestamp: Date.now(),
        };
        this.addToChat(session, message.to, entry);
        reply({ type: 'result', reqId: message.reqId, ok: true, waMessageId: entry.waMessageId, timestamp: entry.timestamp });
        const autoAckMs = session.autoAckMs ?? this.options.autoAckMs;
        if (autoAckMs !== undefined) {
          this.later(autoAckMs, () => this.ack(session.key, message.waMessageId, 2));
          this.later(autoAckMs * 2, () => this.ack(session.key, message.waMessageId, 3));
        }
        return;
      }
      case 'delete':
      case 'edit': {
        const found = session.byWaId.get(message.waMessageId);
        if (found) {
          if (message.type === 'delete') found.entry.deleted = true;
          else {
            found.entry.body = message.body;
            found.entry.edited = true;
          }
        }
        reply({ type: 'result', reqId: message.reqId, ok: true });
        return;
      }
    }
  }

  private showQr(session: SimSession, retries: number): void {
    const code = `2@${randomBytes(24).toString('base64')},${randomBytes(16).toString('base64')}`;
    session.status = 'qrcode';
    session.qr = { code, retries };
    if (session.socket) this.send(session.socket, { type: 'qr', code, retries });
    const qr = session.qr;
    if (!session.scanBlocked) {
      qr.timer = this.later(this.options.scanMs, () => session.qr === qr && this.scanNow(session.key));
      return;
    }
    qr.timer = this.later(this.options.qrRefreshMs, () => {
      if (session.qr !== qr) return;
      if (retries + 1 < QR_ATTEMPTS) {
        this.showQr(session, retries + 1);
        return;
      }
      session.qr = undefined;
      session.status = 'disconnected';
      if (session.socket) this.send(session.socket, { type: 'disconnected', reason: 'qr-timeout' });
    });
  }

  private connect(session: SimSession): void {
    session.paired = true;
    session.number ??= phoneNumberOf(session.companyId, session.connectionId);
    session.status = 'connected';
    this.clearQr(session);
    if (!session.socket) return;
    this.send(session.socket, { type: 'connected', number: session.number });
    for (const pending of session.outbox) this.send(session.socket, { type: 'event', seq: pending.seq, event: pending.event });
  }

  // --- the control side (HTTP API, page) --------------------------------------------------------

  scanNow(id: string): void {
    const session = this.resolve(id);
    if (session.status !== 'qrcode') throw new LookupError(409, `connection ${id} shows no QR (status ${session.status})`);
    this.connect(session);
  }

  /** Also before the device ever linked (`<companyId>.<connectionId>` only): the phone will not scan. */
  blockScan(id: string, blocked: boolean): void {
    const session = this.resolveOrCreate(id);
    session.scanBlocked = blocked;
    // Blocking applies to the QR on screen too: its pending auto-scan becomes a refresh cycle.
    if (blocked && session.status === 'qrcode' && session.qr) {
      const retries = session.qr.retries;
      this.clearQr(session);
      this.showQr(session, retries);
    }
  }

  setAutoAck(id: string, delayMs: number | undefined): void {
    this.resolveOrCreate(id).autoAckMs = delayMs;
  }

  private resolveOrCreate(id: string): SimSession {
    const canonical = /^(\d+)\.(\d+)$/.exec(id);
    if (canonical && !this.sessions.has(id)) return this.newSession(Number(canonical[1]), Number(canonical[2]));
    return this.resolve(id);
  }

  private newSession(companyId: number, connectionId: number): SimSession {
    const session: SimSession = {
      key: simSessionKey(companyId, connectionId),
      companyId,
      connectionId,
      paired: false,
      status: 'offline',
      scanBlocked: false,
      outbox: [],
      nextSeq: 1,
      chats: new Map(),
      byWaId: new Map(),
      addressBook: new Map(),
      pushNames: new Map(),
    };
    this.sessions.set(session.key, session);
    return session;
  }

  qrCode(id: string): string | undefined {
    const session = this.resolve(id);
    return session.status === 'qrcode' ? session.qr?.code : undefined;
  }

  /** A simulated contact writes to the connection. Delivered now if the device is online, else on reconnect. */
  contactSends(
    id: string,
    number: string,
    input: { body?: string; media?: SimMedia; location?: SimLocation; quotedId?: string; pushName?: string },
  ): ChatEntry {
    const session = this.resolve(id);
    const entry: ChatEntry = {
      waMessageId: `3A${randomBytes(9).toString('hex').toUpperCase()}`,
      from: 'contact',
      body: input.body ?? '',
      media: input.media,
      location: input.location,
      quotedId: input.quotedId,
      ack: 0,
      timestamp: Date.now(),
    };
    this.addToChat(session, number, entry);
    // Like WhatsApp, a contact without a profile name sends none: the product names it by its number.
    if (input.pushName) session.pushNames.set(number, input.pushName);
    this.emit(session, {
      kind: 'message',
      id: entry.waMessageId,
      number,
      ...(input.pushName ? { pushName: input.pushName } : {}),
      timestamp: entry.timestamp,
      body: entry.body,
      media: input.media,
      location: input.location,
      quotedId: input.quotedId,
      history: !session.socket || session.status !== 'connected' ? true : undefined,
    });
    return entry;
  }

  /** The contact's phone acknowledges one of our messages (2 delivered, 3 read, 4 played). */
  ack(id: string, waMessageId: string, ack: number): void {
    const session = this.resolve(id);
    const found = session.byWaId.get(waMessageId);
    if (found?.entry.from !== 'us') throw new LookupError(404, `no message ${waMessageId} sent by connection ${id}`);
    if (ack <= found.entry.ack) return;
    found.entry.ack = ack;
    this.emit(session, { kind: 'ack', waMessageId, number: found.number, ack });
  }

  /** Saves contacts in the phone's address book (also before the device ever linked: `<companyId>.<connectionId>`). */
  saveContacts(id: string, contacts: SimPhoneContact[]): void {
    const session = this.resolveOrCreate(id);
    for (const contact of contacts) session.addressBook.set(contact.number, contact.name ?? '');
  }

  /** Address book first, then everyone the phone chatted with; groups are not contacts. */
  phoneContacts(session: SimSession): SimPhoneContact[] {
    const numbers = new Set([...session.addressBook.keys(), ...[...session.chats.keys()].filter((n) => /^\d+$/.test(n))]);
    return [...numbers].map((number) => {
      const name = session.addressBook.get(number) || session.pushNames.get(number);
      return name ? { number, name } : { number };
    });
  }

  contactsOf(id: string): SimPhoneContact[] {
    return this.phoneContacts(this.resolve(id));
  }

  chat(id: string, number: string): ChatEntry[] {
    return this.resolve(id).chats.get(number) ?? [];
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const session of this.sessions.values()) session.socket?.close();
  }

  private emit(session: SimSession, event: SimEvent): void {
    const seq = session.nextSeq++;
    session.outbox.push({ seq, event });
    if (session.socket && session.status === 'connected') this.send(session.socket, { type: 'event', seq, event });
  }

  private addToChat(session: SimSession, number: string, entry: ChatEntry): void {
    const chat = session.chats.get(number) ?? [];
    chat.push(entry);
    session.chats.set(number, chat);
    session.byWaId.set(entry.waMessageId, { number, entry });
  }

  private clearQr(session: SimSession): void {
    if (session.qr?.timer) clearTimeout(session.qr.timer);
    session.qr = undefined;
  }

  private later(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        run();
      } catch {
        // A session changed under a timer (deleted, rescanned): nothing to do.
      }
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private send(socket: WebSocket, message: NetworkToDevice): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }
}

/** A stable, plausible Brazilian mobile number per connection. */
export function phoneNumberOf(companyId: number, connectionId: number): string {
  return `55119${String((companyId * 10_000 + connectionId) % 100_000_000).padStart(8, '0')}`;
}
