/**
 * One WhatsApp session on Baileys: the socket, its reconnects and what it reports.
 *
 * Lifecycle (SPEC 4 "Connection status"): QR codes are reported as `qrcode` with a retry count and
 * after `maxQrCodes` unscanned codes the session gives up (DISCONNECTED); a pairing code is
 * reported as PAIRING; `open` is CONNECTED. On close the disconnect reason decides: 515 (restart
 * required, sent right after pairing) reconnects at once, 401 (logged out on the phone) forgets the
 * credentials and stays DISCONNECTED, 403 stays DISCONNECTED, anything else reconnects with
 * exponential back-off while reporting TIMEOUT (408) or OPENING.
 *
 * Events of one chat are handled in order (a chain per chat) and each resolves only once the
 * session manager has queued it; chats do not wait for each other's media downloads.
 */

import type { ConnectionStatus } from '@conversa/functions/contracts/connections';
import type { PhoneContact } from '@conversa/functions/contracts/session-events';
import {
  type AuthenticationCreds,
  type ConnectionState,
  type Contact,
  DisconnectReason,
  makeCacheableSignalKeyStore,
  type makeWASocket,
  type SocketConfig,
  type WACallEvent,
} from '@whiskeysockets/baileys';
import { type Backoff, backoffDelay, DEFAULT_BACKOFF, InboundNotQueuedError } from '../../inbound-publisher.ts';
import type {
  DeleteCommand,
  EditCommand,
  ProviderInbound,
  SendCommand,
  SendOptions,
  SessionCallbacks,
  SessionHandle,
  SessionSpec,
} from '../../provider.ts';
import { clearPhoneContacts, listPhoneContacts, savePhoneContacts } from '../../storage/phone-contacts.ts';
import { clearAuthState, loadAuthState, type StoredAuthState } from './auth-state.ts';
import { phoneContactsOf, toPhoneContact } from './contacts.ts';
import { callEvent, type DownloadMedia, type InboundContext, messageEvent, receiptEvents, updateEvents } from './inbound.ts';
import { jidUser, LidResolver, toJid } from './jids.ts';
import type { ILogger } from './logger.ts';
import type { MediaStore } from './media.ts';
import { deleteContent, editContent, sendContent, sendOptions } from './outbound.ts';

type Socket = ReturnType<typeof makeWASocket>;

export interface SessionDeps {
  makeSocket: typeof makeWASocket;
  now: () => number;
  logger: ILogger;
  download: DownloadMedia;
  media: MediaStore;
  /** The company's `call` setting ('enabled' | 'disabled'). */
  callSetting: (companyId: number) => Promise<string>;
  /** Wait before reconnect attempt `attempt` (1-based). */
  reconnectDelayMs: (attempt: number) => number;
  maxQrCodes: number;
  /** How long a logout waits for a registered session that is still connecting. */
  logoutOpenWaitMs: number;
  /** Extra socket options (tests point `waWebSocketUrl` at a closed local port). */
  socketConfig?: Partial<SocketConfig>;
  /** Waits between attempts to build and hand over an inbound event (see `deliver`). */
  inboundBackoff?: Backoff;
}

function statusCodeOf(error: unknown): number | undefined {
  const boom = error as { output?: { statusCode?: number } } | undefined;
  return boom?.output?.statusCode;
}

export class BaileysSession implements SessionHandle {
  private sock?: Socket;
  private auth!: StoredAuthState;
  private open = false;
  private closed = false;
  private qrCodes = 0;
  private attempts = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private readonly pairingRequested = new WeakSet<Socket>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly resolver = new LidResolver(() => this.sock?.signalRepository?.lidMapping);
  private readonly log: ILogger;

  constructor(
    private readonly spec: SessionSpec,
    private readonly callbacks: SessionCallbacks,
    private readonly deps: SessionDeps,
  ) {
    this.log = deps.logger.child({ companyId: spec.companyId, connectionId: spec.connectionId });
  }

  async start(): Promise<void> {
    if (this.spec.fresh) {
      await clearAuthState(this.spec.companyId, this.spec.connectionId);
      await clearPhoneContacts(this.spec.companyId, this.spec.connectionId); // a new QR may link another phone
    }
    this.auth = await loadAuthState(this.spec.companyId, this.spec.connectionId);
    // The noise and identity keys of a new login are stored before the first QR shows them.
    if (this.auth.created) await this.auth.saveCreds();
    // The host reports OPENING when it launches the session; the next report here is a code or CONNECTED.
    this.connect();
  }

  private connect(): void {
    if (this.closed) return;
    const sock = this.deps.makeSocket({
      auth: { creds: this.auth.creds, keys: makeCacheableSignalKeyStore(this.auth.keys, this.log) },
      logger: this.log,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      emitOwnEvents: true,
      getMessage: async () => undefined,
      ...this.deps.socketConfig,
    });
    this.sock = sock;
    const current = () => this.sock === sock && !this.closed;
    const on =
      <T>(handler: (arg: T) => void) =>
      (arg: T) => {
        if (current()) handler(arg);
      };
    sock.ev.on(
      'connection.update',
      on((update) => {
        // Sends check `open` synchronously: none may start on a socket that has just closed.
        if (update.connection === 'close') this.open = false;
        this.serial('@connection', () => this.onConnection(sock, update));
      }),
    );
    sock.ev.on(
      'creds.update',
      on((update) => this.serial('@creds', () => this.onCreds(update))),
    );
    sock.ev.on(
      'messages.upsert',
      on(({ messages, type }) => {
        for (const msg of messages)
          this.serial(msg.key.remoteJid ?? '', () =>
            this.deliver(`message ${msg.key.id}`, () => messageEvent(this.context(sock), msg, type)),
          );
      }),
    );
    sock.ev.on(
      'messages.update',
      on((updates) => {
        for (const update of updates) {
          this.serial(update.key.remoteJid ?? '', () =>
            this.deliver(`update of ${update.key.id}`, () => updateEvents(this.context(sock), [update])),
          );
        }
      }),
    );
    sock.ev.on(
      'message-receipt.update',
      on((receipts) => {
        for (const receipt of receipts) {
          this.serial(receipt.key.remoteJid ?? '', () =>
            this.deliver(`receipt of ${receipt.key.id}`, () => receiptEvents(this.context(sock), [receipt])),
          );
        }
      }),
    );
    sock.ev.on(
      'call',
      on((calls) => {
        for (const call of calls.filter((c) => c.status === 'offer')) this.serial(call.from, () => this.onCall(sock, call));
      }),
    );
    sock.ev.on(
      'lid-mapping.update',
      on(({ lid, pn }) => this.resolver.learn(lid, pn)),
    );
    const learnContacts = on((contacts: Partial<Contact>[]) => {
      for (const c of contacts) this.resolver.learn(c.lid ?? c.id, c.phoneNumber ?? c.id);
    });
    sock.ev.on('contacts.upsert', learnContacts);
    sock.ev.on('contacts.update', learnContacts);
    sock.ev.on(
      'messaging-history.set',
      on(({ lidPnMappings }) => {
        for (const { lid, pn } of lidPnMappings ?? []) this.resolver.learn(lid, pn);
      }),
    );
    // The phone's contacts, for `importContacts`: stored after the LID pairs above are learned.
    const rememberContacts = on((contacts: Partial<Contact>[]) => this.serial('@contacts', () => this.rememberContacts(contacts)));
    sock.ev.on('contacts.upsert', rememberContacts);
    sock.ev.on('contacts.update', rememberContacts);
    sock.ev.on(
      'messaging-history.set',
      on(({ contacts }) => {
        if (contacts?.length) rememberContacts(contacts);
      }),
    );
  }

  /** WhatsApp reports the address book once (after pairing), so it is stored, not kept in memory. */
  private async rememberContacts(contacts: Partial<Contact>[]): Promise<void> {
    const found = await phoneContactsOf(contacts, this.resolver);
    if (found.length) await savePhoneContacts(this.spec.companyId, this.spec.connectionId, found);
  }

  /** The contacts reported so far, once the ones still being stored are in. */
  async listContacts(): Promise<PhoneContact[]> {
    await this.chains.get('@contacts');
    return (await listPhoneContacts(this.spec.companyId, this.spec.connectionId)).map(toPhoneContact);
  }

  private context(sock: Socket): InboundContext {
    return {
      companyId: this.spec.companyId,
      connectionId: this.spec.connectionId,
      resolver: this.resolver,
      media: this.deps.media,
      download: this.deps.download,
      reupload: sock.updateMediaMessage,
      logger: this.log,
      now: this.deps.now,
    };
  }

  /** Runs `task` after the previous task of the same chain; a failure is logged, never thrown. */
  private serial(chain: string, task: () => Promise<void>): void {
    const next = (this.chains.get(chain) ?? Promise.resolve())
      .then(task)
      .catch((error) => this.log.error({ err: error, chain }, 'event handling failed'));
    this.chains.set(chain, next);
    void next.then(() => {
      if (this.chains.get(chain) === next) this.chains.delete(chain);
    });
  }

  /**
   * Builds a WhatsApp event's inbound events (downloading its media into the bucket) and hands them
   * to the session manager, which resolves once they are queued. Baileys has already acknowledged
   * the event to WhatsApp, which will not send it again, so a failure is retried with back-off for as
   * long as the session runs (the host's publisher retries the queue itself; what fails here is
   * mostly the bucket). Events already handed over are not handed over again. What ends the retries
   * is logged as an error with the event's id, never dropped silently: the queue refusing an event
   * (that one is skipped, the rest go on), or the session stopping.
   */
  private async deliver(what: string, build: () => Promise<ProviderInbound | ProviderInbound[] | undefined>): Promise<void> {
    let handed = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const built = await build();
        const events = built === undefined ? [] : Array.isArray(built) ? built : [built];
        for (const event of events.slice(handed)) {
          try {
            await this.callbacks.onInbound(event);
          } catch (error) {
            if (!(error instanceof InboundNotQueuedError && error.reason === 'refused')) throw error;
            this.log.error({ err: error, what, kind: event.kind }, 'inbound event refused by the queue: skipped');
          }
          handed++;
        }
        return;
      } catch (error) {
        if (this.closed || error instanceof InboundNotQueuedError) {
          this.log.error({ err: error, what, attempts: attempt }, 'inbound event lost: not queued before the session stopped');
          return;
        }
        const delayMs = backoffDelay(attempt, this.deps.inboundBackoff ?? DEFAULT_BACKOFF);
        this.log.warn({ err: error, what, attempt, delayMs }, 'inbound event not handed over yet; retrying');
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  private async report(update: { status: ConnectionStatus; qrcode?: string; retries?: number; number?: string; reason?: string }) {
    try {
      await this.callbacks.onStatus(update);
    } catch (error) {
      this.log.error({ err: error, status: update.status }, 'status report failed');
    }
  }

  private async onConnection(sock: Socket, update: Partial<ConnectionState>): Promise<void> {
    if (update.qr) await this.onQr(sock, update.qr);
    if (update.connection === 'open') {
      this.open = true;
      this.settleOpenWaiters();
      this.qrCodes = 0;
      this.attempts = 0;
      const number = sock.user?.id ? jidUser(sock.user.id) : undefined;
      await this.report({ status: 'CONNECTED', qrcode: '', retries: 0, ...(number ? { number } : {}) });
    }
    if (update.connection === 'close') await this.onClose(statusCodeOf(update.lastDisconnect?.error), update.lastDisconnect?.error);
  }

  private async onQr(sock: Socket, qr: string): Promise<void> {
    const pairing = this.spec.pairingNumber && !this.auth.creds.registered;
    if (pairing && this.pairingRequested.has(sock)) return;
    this.qrCodes += 1;
    if (this.qrCodes > this.deps.maxQrCodes) {
      this.log.info({ shown: this.qrCodes - 1 }, 'login codes not used: giving up');
      await this.shutdown();
      await this.report({ status: 'DISCONNECTED', qrcode: '', retries: 0, reason: 'qrcodeTimeout' });
      return;
    }
    if (pairing) {
      this.pairingRequested.add(sock);
      const code = await sock.requestPairingCode(this.spec.pairingNumber!.replace(/\D/g, ''));
      await this.report({ status: 'PAIRING', qrcode: code, retries: this.qrCodes });
      return;
    }
    await this.report({ status: 'qrcode', qrcode: qr, retries: this.qrCodes });
  }

  private async onClose(code: number | undefined, error: unknown): Promise<void> {
    this.open = false;
    this.sock = undefined;
    if (this.closed) return;
    this.log.info({ code, reason: (error as Error | undefined)?.message }, 'connection closed');
    if (code === DisconnectReason.restartRequired) {
      this.connect();
      return;
    }
    if (code === DisconnectReason.loggedOut) {
      this.closed = true;
      this.settleOpenWaiters();
      await clearAuthState(this.spec.companyId, this.spec.connectionId);
      await clearPhoneContacts(this.spec.companyId, this.spec.connectionId);
      await this.report({ status: 'DISCONNECTED', qrcode: '', retries: 0, number: '', reason: 'loggedOut' });
      return;
    }
    if (code === DisconnectReason.forbidden) {
      this.closed = true;
      this.settleOpenWaiters();
      await this.report({ status: 'DISCONNECTED', qrcode: '', reason: 'forbidden' });
      return;
    }
    this.attempts += 1;
    const delay = this.deps.reconnectDelayMs(this.attempts);
    await this.report({
      status: code === DisconnectReason.timedOut ? 'TIMEOUT' : 'OPENING',
      retries: this.attempts,
      reason: String(code ?? 'unknown'),
    });
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private async onCreds(update: Partial<AuthenticationCreds>): Promise<void> {
    Object.assign(this.auth.creds, update);
    await this.auth.saveCreds();
  }

  private async onCall(sock: Socket, call: WACallEvent): Promise<void> {
    const rejected = (await this.deps.callSetting(this.spec.companyId)) === 'disabled';
    if (rejected) await sock.rejectCall(call.id, call.from);
    await this.deliver(`call ${call.id}`, () => callEvent(this.context(sock), call, rejected));
  }

  private connected(): Socket {
    if (!this.sock || !this.open || this.closed) throw new Error('ERR_WAPP_NOT_INITIALIZED');
    return this.sock;
  }

  /**
   * Which numbers have a WhatsApp account: one `onWhatsApp` (USync) query for the whole batch, which
   * answers the accounts found with their jids. A Brazilian mobile may answer with the jid of its
   * older 8-digit form (or the other way round), so both forms count as the number.
   */
  async checkNumbers(numbers: string[]): Promise<string[]> {
    if (!numbers.length) return [];
    const sock = this.connected();
    const found = (await sock.onWhatsApp(...numbers)) ?? [];
    const accounts = new Set(found.filter((entry) => entry.exists).map((entry) => jidUser(entry.jid)));
    return numbers.filter((number) => accounts.has(number) || accounts.has(brazilianAlternate(number)));
  }

  /** `waMessageId` is derived from our messageId by the host: a resend after a crash is the same WhatsApp message. */
  async send(command: SendCommand, { waMessageId }: SendOptions): Promise<{ waMessageId: string; timestamp: number }> {
    const sock = this.connected();
    const content = await sendContent(command, this.deps.media);
    const sent = await sock.sendMessage(toJid(command.number, command.isGroup), content, sendOptions(command, waMessageId));
    const seconds = sent?.messageTimestamp;
    const timestamp = seconds === null || seconds === undefined ? this.deps.now() : Number(seconds) * 1000;
    return { waMessageId: sent?.key.id ?? waMessageId, timestamp };
  }

  async deleteMessage(command: DeleteCommand): Promise<void> {
    const { jid, content } = deleteContent(command);
    await this.connected().sendMessage(jid, content);
  }

  async editMessage(command: EditCommand): Promise<void> {
    const { jid, content } = editContent(command);
    await this.connected().sendMessage(jid, content);
  }

  async logout(): Promise<void> {
    // A host may log out a session it has just started (logout of a session running nowhere): give a
    // registered session a moment to open, or WhatsApp keeps listing a linked device nobody uses.
    if (this.auth.creds.registered && !this.open && !this.closed) await this.waitOpen(this.deps.logoutOpenWaitMs);
    const sock = this.sock;
    const wasOpen = this.open;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    try {
      if (sock && wasOpen) await sock.logout();
    } catch (error) {
      this.log.warn({ err: error }, 'logout on WhatsApp failed; forgetting the credentials anyway');
    }
    await this.shutdown();
    await clearAuthState(this.spec.companyId, this.spec.connectionId);
    await clearPhoneContacts(this.spec.companyId, this.spec.connectionId);
    await this.report({ status: 'DISCONNECTED', qrcode: '', retries: 0, number: '', reason: 'logout' });
  }

  private readonly openWaiters = new Set<() => void>();

  private waitOpen(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.openWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.openWaiters.add(done);
    });
  }

  private settleOpenWaiters(): void {
    for (const done of [...this.openWaiters]) done();
  }

  async stop(): Promise<void> {
    await this.shutdown();
  }

  /** Ends the socket without touching the stored credentials; waits for events already taken in. */
  private async shutdown(): Promise<void> {
    this.closed = true;
    this.open = false;
    this.settleOpenWaiters();
    clearTimeout(this.reconnectTimer);
    const sock = this.sock;
    this.sock = undefined;
    if (sock) {
      try {
        sock.end(undefined);
      } catch (error) {
        this.log.warn({ err: error }, 'socket end failed');
      }
    }
    await Promise.all([...this.chains.entries()].filter(([chain]) => chain !== '@connection').map(([, pending]) => pending));
  }
}

/** The other form of a Brazilian mobile number: with the ninth digit added after the area code, or without it. */
export function brazilianAlternate(number: string): string {
  if (/^55\d{2}9\d{8}$/.test(number)) return `${number.slice(0, 4)}${number.slice(5)}`;
  if (/^55\d{2}[6-9]\d{7}$/.test(number)) return `${number.slice(0, 4)}9${number.slice(4)}`;
  return number;
}
