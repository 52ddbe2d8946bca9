/**
 * The sessions this host runs, and the leases that make it their only runner.
 *
 * - A session runs here only while this host holds its lease; every start goes through `acquire`.
 * - Heartbeat: every `heartbeatMs` each lease is pushed to now + `leaseMs`. A refused heartbeat (taken
 *   over, or no longer wanted) stops the session at once; a heartbeat that cannot reach DynamoDB
 *   keeps the session only until the lease it last wrote runs out.
 * - Scan: every `scanMs` the host lists wanted leases and takes the free or expired ones (a dead
 *   host's sessions, or its own from before a restart with the same HOST_ID). How many it found is
 *   the OrphanSessions metric: sessions someone wants that no live host runs at that moment.
 *   With a placement (placement.ts) it takes only those it has room for, and leaves an orphan for a
 *   short grace to an emptier host or a less loaded egress address; a full host takes nothing new.
 * - A provider's DISCONNECTED ends the session for good: it is stopped and no longer wanted.
 * Operations on one session are serialised (start, stop, logout never interleave).
 */
import type { ConnectionStatus } from '@conversa/functions/contracts';
import type { HostTimings } from './config.ts';
import type { InboundPublisher } from './inbound-publisher.ts';
import { type HostMetrics, noMetrics } from './metrics.ts';
import type { Placement } from './placement.ts';
import type { ProviderInbound, SessionHandle, SessionSpec, WhatsAppProvider } from './provider.ts';
import type { StatusReporter, StatusUpdate } from './status-reporter.ts';
import type { SessionKey } from './storage/leases.ts';
import * as leases from './storage/leases.ts';

export interface Logger {
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

interface LiveSession {
  key: SessionKey;
  handle?: SessionHandle;
  status: ConnectionStatus;
  /** The lease end this host last wrote successfully. */
  leaseUntil: number;
  ended: boolean;
  /** The connect hook ran for the current CONNECTED stretch (reset when the status leaves it). */
  connectHookRan?: boolean;
}

export interface SessionManagerDeps {
  hostId: string;
  timings: HostTimings;
  provider: WhatsAppProvider;
  inbound: InboundPublisher;
  status: StatusReporter;
  log: Logger;
  /** Where the scan reports orphaned sessions; none by default. */
  metrics?: HostMetrics;
  /** Which orphans this host takes; without one it takes every one it finds (tests about something else). */
  placement?: Placement;
  /**
   * Work a session does each time it becomes CONNECTED here (host.ts: check the company's contact
   * list numbers still unchecked). Runs in the background; a failure is logged.
   */
  onConnected?: (key: SessionKey, handle: SessionHandle) => Promise<unknown>;
  now?: () => number;
}

export const sessionId = ({ companyId, connectionId }: SessionKey): string => `${companyId}:${connectionId}`;

export class SessionManager {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private timers: NodeJS.Timeout[] = [];
  private closing = false;
  private readonly now: () => number;
  private readonly metrics: HostMetrics;

  constructor(private readonly deps: SessionManagerDeps) {
    this.now = deps.now ?? Date.now;
    this.metrics = deps.metrics ?? noMetrics;
  }

  get hostId(): string {
    return this.deps.hostId;
  }

  /** Starts heartbeats and the takeover scan (one scan right away: a restarted host reclaims at once). */
  start(): void {
    const { heartbeatMs, scanMs } = this.deps.timings;
    this.timers.push(setInterval(() => void this.heartbeatAll(), heartbeatMs));
    this.timers.push(setInterval(() => void this.scan(), scanMs));
    void this.scan();
  }

  /** Stops heartbeating without releasing anything: what a crashed or frozen host looks like (tests). */
  freeze(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** True when this host has no room for one more session (it runs only those it has). */
  isFull(): boolean {
    return this.deps.placement ? !this.deps.placement.hasRoom(this.sessions.size) : false;
  }

  /** Sessions running here, for tests and logs. */
  running(): SessionKey[] {
    return [...this.sessions.values()].map((s) => s.key);
  }

  owns(key: SessionKey): boolean {
    const live = this.sessions.get(sessionId(key));
    return Boolean(live && !live.ended && live.leaseUntil > this.now());
  }

  statusOf(key: SessionKey): ConnectionStatus | undefined {
    return this.sessions.get(sessionId(key))?.status;
  }

  handleOf(key: SessionKey): SessionHandle | undefined {
    return this.sessions.get(sessionId(key))?.handle;
  }

  /** Resolves true once the session is CONNECTED here, false after `ms` or if it stops or the host closes. */
  async waitConnected(key: SessionKey, ms: number): Promise<boolean> {
    const deadline = this.now() + ms;
    for (;;) {
      const live = this.sessions.get(sessionId(key));
      if (!live || live.ended || this.closing) return false;
      if (live.status === 'CONNECTED' && live.handle) return true;
      if (this.now() >= deadline) return false;
      await sleep(Math.min(50, ms));
    }
  }

  /**
   * Start (or restart) a session here. Returns false when another host holds it (the caller routes
   * the command there). `fresh` drops the credentials first (New QR).
   */
  startSession(key: SessionKey, opts: { fresh?: boolean; pairingNumber?: string } = {}): Promise<boolean> {
    return this.locked(key, async () => {
      if (this.closing) return false;
      const live = this.sessions.get(sessionId(key));
      if (live && !live.ended && !opts.fresh && live.status !== 'DISCONNECTED' && !opts.pairingNumber) return true;
      await leases.markWanted(key);
      if (!(await leases.acquire(key, this.leaseArgs()))) return false;
      if (live) await this.stopHandle(live);
      await this.launch(key, opts);
      return true;
    });
  }

  /** Takes a free wanted session here (scan, or a command found it ownerless). */
  takeOver(key: SessionKey): Promise<boolean> {
    return this.locked(key, async () => {
      if (this.closing) return false;
      const live = this.sessions.get(sessionId(key));
      if (live && !live.ended) return true;
      if (this.isFull() || !(await leases.acquire(key, this.leaseArgs()))) return false;
      await this.launch(key, {});
      return true;
    });
  }

  /** Log out on WhatsApp and stop wanting the session. Works whether or not it runs here. */
  logout(key: SessionKey): Promise<'done' | 'heldByOther'> {
    return this.locked(key, async () => {
      const live = this.sessions.get(sessionId(key));
      if (live && !live.ended) {
        live.ended = true;
        this.sessions.delete(sessionId(key));
        await live.handle?.logout().catch((error: unknown) => this.deps.log.warn('provider logout failed', { key, error: String(error) }));
        await leases.markUnwanted(key, { hostId: this.hostId, now: this.now() });
      } else {
        // Not running anywhere live: mark it unwanted first so no host takes it meanwhile, then log
        // out with a short-lived connection (the credentials must be dropped on WhatsApp too).
        if (!(await leases.markUnwanted(key, { hostId: this.hostId, now: this.now() }))) return 'heldByOther';
        await this.logoutOffline(key);
      }
      await this.report(key, { status: 'DISCONNECTED', qrcode: '', retries: 0 });
      return 'done';
    });
  }

  /** First step of a shutdown: no new sessions, and commands waiting for a session give up at once. */
  beginShutdown(): void {
    this.closing = true;
  }

  /** Shutdown: stop every session (credentials kept) and release its lease for another host. */
  async shutdown(): Promise<void> {
    this.closing = true;
    this.freeze();
    await this.deps.placement?.withdraw();
    const all = [...this.sessions.values()];
    await Promise.allSettled(
      all.map((live) =>
        this.locked(live.key, async () => {
          await this.stopHandle(live);
          await leases
            .release(live.key, this.hostId)
            .catch((error: unknown) => this.deps.log.warn('release failed', { key: live.key, error: String(error) }));
        }),
      ),
    );
    // Events still retrying (queue unreachable) get a grace period, then fail loudly (inbound-publisher.ts).
    await this.deps.inbound.close();
  }

  async heartbeatAll(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((live) => this.heartbeatOne(live)));
  }

  async scan(): Promise<void> {
    if (this.closing) return;
    const { placement } = this.deps;
    await placement?.refresh(this.sessions.size);
    let wanted: leases.Lease[];
    try {
      wanted = await leases.listWantedLeases();
    } catch (error) {
      this.deps.log.warn('lease scan failed', { error: String(error) });
      return;
    }
    const now = this.now();
    // Free (never owned, released, expired) or ours from before a restart, and not running here.
    const orphans = wanted.filter((lease) => (leases.isFree(lease, now) || lease.owner === this.hostId) && !this.owns(lease));
    this.metrics.orphanSessions(orphans.length);
    placement?.settle(orphans.map(sessionId));
    const left = { full: 0, waiting: 0 };
    for (const lease of orphans) {
      if (this.closing) return;
      const verdict = placement?.verdict(sessionId(lease), this.sessions.size, lease.owner === this.hostId) ?? 'take';
      if (verdict !== 'take') {
        left[verdict === 'full' ? 'full' : 'waiting'] += 1;
        continue;
      }
      const taken = await this.takeOver(lease).catch((error: unknown) => {
        this.deps.log.warn('takeover failed', { key: lease, error: String(error) });
        return false;
      });
      if (taken)
        this.deps.log.info('took over session', { companyId: lease.companyId, connectionId: lease.connectionId, from: lease.owner });
    }
    placement?.reportScan(left, this.sessions.size);
  }

  private async heartbeatOne(live: LiveSession): Promise<void> {
    if (live.ended) return;
    const args = this.leaseArgs();
    try {
      if (await leases.heartbeat(live.key, args)) {
        live.leaseUntil = args.now + args.leaseMs;
        return;
      }
      this.deps.log.warn('lease lost, stopping the session', { key: live.key });
    } catch (error) {
      if (this.now() < live.leaseUntil) {
        this.deps.log.warn('heartbeat failed, lease still valid', { key: live.key, error: String(error) });
        return;
      }
      this.deps.log.warn('heartbeat failed past the lease end, stopping the session', { key: live.key, error: String(error) });
    }
    await this.locked(live.key, async () => {
      if (this.sessions.get(sessionId(live.key)) === live) this.sessions.delete(sessionId(live.key));
      await this.stopHandle(live);
    });
  }

  private leaseArgs() {
    return { hostId: this.hostId, now: this.now(), leaseMs: this.deps.timings.leaseMs };
  }

  private async launch(key: SessionKey, opts: { fresh?: boolean; pairingNumber?: string }): Promise<void> {
    const live: LiveSession = { key, status: 'OPENING', leaseUntil: this.now() + this.deps.timings.leaseMs, ended: false };
    this.sessions.set(sessionId(key), live);
    await this.report(key, { status: 'OPENING', qrcode: '' });
    const spec: SessionSpec = { ...key, fresh: opts.fresh, pairingNumber: opts.pairingNumber };
    try {
      live.handle = await this.deps.provider.start(spec, {
        onStatus: (update) => this.onStatus(live, update),
        onInbound: (event) => this.onInbound(key, event),
      });
    } catch (error) {
      // Release (still wanted): another scan, here or elsewhere, tries again.
      this.deps.log.error('provider start failed', { key, error: String(error) });
      live.ended = true;
      if (this.sessions.get(sessionId(key)) === live) this.sessions.delete(sessionId(key));
      await leases.release(key, this.hostId).catch(() => undefined);
      return;
    }
    if (live.ended) await live.handle.stop().catch(() => undefined);
    else this.connectHook(live);
  }

  /** Once per CONNECTED stretch, when both the status and the handle are there (either may come first). */
  private connectHook(live: LiveSession): void {
    const hook = this.deps.onConnected;
    if (!hook || live.ended || live.status !== 'CONNECTED' || !live.handle || live.connectHookRan) return;
    live.connectHookRan = true;
    hook(live.key, live.handle).catch((error: unknown) =>
      this.deps.log.warn('connect hook failed', { key: live.key, error: String(error) }),
    );
  }

  private async onStatus(live: LiveSession, update: StatusUpdate & { reason?: string }): Promise<void> {
    // A stale session (lease lost, replaced) must not overwrite what the current owner reports.
    if (live.ended || this.sessions.get(sessionId(live.key)) !== live) return;
    live.status = update.status;
    if (update.status !== 'CONNECTED') live.connectHookRan = false;
    const outcome = await this.report(live.key, update);
    if (update.status === 'CONNECTED') this.connectHook(live);
    if (update.status === 'DISCONNECTED' || outcome === 'deleted') {
      this.deps.log.info('session ended', { key: live.key, reason: outcome === 'deleted' ? 'connection deleted' : update.reason });
      void this.locked(live.key, async () => {
        if (this.sessions.get(sessionId(live.key)) !== live) return;
        this.sessions.delete(sessionId(live.key));
        await this.stopHandle(live);
        await leases.markUnwanted(live.key, { hostId: this.hostId, now: this.now() });
      });
    }
  }

  private async onInbound(key: SessionKey, event: ProviderInbound): Promise<void> {
    await this.deps.inbound.publish({ ...event, companyId: key.companyId, connectionId: key.connectionId } as Parameters<
      InboundPublisher['publish']
    >[0]);
  }

  private async report(key: SessionKey, update: StatusUpdate): Promise<'ok' | 'deleted'> {
    try {
      return await this.deps.status.report(key, update);
    } catch (error) {
      this.deps.log.warn('status report failed', { key, status: update.status, error: String(error) });
      return 'ok';
    }
  }

  private async logoutOffline(key: SessionKey): Promise<void> {
    try {
      const handle = await this.deps.provider.start(
        { ...key },
        { onStatus: () => undefined, onInbound: (event) => this.onInbound(key, event) },
      );
      await handle.logout();
    } catch (error) {
      this.deps.log.warn('offline logout failed; credentials may remain until the next New QR', { key, error: String(error) });
    }
  }

  private async stopHandle(live: LiveSession): Promise<void> {
    live.ended = true;
    await live.handle
      ?.stop()
      .catch((error: unknown) => this.deps.log.warn('provider stop failed', { key: live.key, error: String(error) }));
  }

  private locked<T>(key: SessionKey, run: () => Promise<T>): Promise<T> {
    const id = sessionId(key);
    const previous = this.locks.get(id) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(run);
    this.locks.set(id, mine);
    void mine
      .catch(() => undefined)
      .then(() => {
        if (this.locks.get(id) === mine) this.locks.delete(id);
      });
    return mine;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
