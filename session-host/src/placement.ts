/**
 * Which live host takes a session nobody runs (an orphan: new, released, or its host died).
 *
 * Every host publishes its load each scan (storage/host-loads.ts: sessions, room, egress group) and
 * reads the others'. The rule, for one orphan, at one host:
 * - A host with no room (capacity.ts: its memory budget is spent) refuses it: `full`. Memory is the
 *   one hard limit, since a host that runs out of it loses every session it holds.
 * - Otherwise the hosts with room are ordered: first those whose egress address carries fewer than
 *   `sessionsPerEgress` sessions, then the address carrying fewest sessions (so they spread over the
 *   addresses), then the most room (the emptiest host of that address), then the host id. The first
 *   one takes it now; every other host `wait`s `graceMs` (from when it first saw the orphan) for it.
 * - After the grace any host with room takes it: placement may delay a session, never strand it.
 *   The egress cap is a preference for the same reason: past it, a session still runs (and the
 *   host's log says the address is over its cap) rather than waiting for an address that has none.
 * Hosts that do not publish (an older version during a deploy, or a row past `staleMs`) are not
 * counted: with nobody else known, a host takes what it has room for, as before placement existed.
 */
import type { HostCapacity } from './capacity.ts';
import type { Logger } from './session-manager.ts';
import type { HostLoad } from './storage/host-loads.ts';
import * as loads from './storage/host-loads.ts';

export type Verdict = 'take' | 'wait' | 'full';

export interface PlacementRule {
  /** How long a host that is not first in the order leaves an orphan for the one that is. */
  graceMs: number;
  /** Sessions per egress address beyond which the hosts of other addresses come first. */
  sessionsPerEgress: number;
}

/** Sessions per egress group over the given hosts. */
export function sessionsByEgress(hosts: readonly HostLoad[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const host of hosts) totals.set(host.egressGroup, (totals.get(host.egressGroup) ?? 0) + host.sessions);
  return totals;
}

/** The hosts with room, in the order they should take the next session. */
export function placementOrder(hosts: readonly HostLoad[], sessionsPerEgress: number): HostLoad[] {
  const egress = sessionsByEgress(hosts);
  const carried = (host: HostLoad) => egress.get(host.egressGroup) ?? 0;
  const overCap = (host: HostLoad) => (carried(host) >= sessionsPerEgress ? 1 : 0);
  return hosts
    .filter((host) => host.room > 0)
    .sort(
      (a, b) =>
        overCap(a) - overCap(b) || carried(a) - carried(b) || b.room - a.room || (a.hostId < b.hostId ? -1 : a.hostId > b.hostId ? 1 : 0),
    );
}

/** What `me` does with an orphan it has seen for `waitedMs`, given the other live hosts. */
export function placementVerdict(me: HostLoad, peers: readonly HostLoad[], waitedMs: number, rule: PlacementRule): Verdict {
  if (me.room <= 0) return 'full';
  const [first] = placementOrder([me, ...peers.filter((peer) => peer.hostId !== me.hostId)], rule.sessionsPerEgress);
  return first?.hostId === me.hostId || waitedMs >= rule.graceMs ? 'take' : 'wait';
}

export interface PlacementDeps {
  hostId: string;
  egressGroup: string;
  egressAddress?: string;
  capacity: HostCapacity;
  rule: PlacementRule;
  /** A host whose row is older than this is dead to placement. */
  staleMs: number;
  log: Logger;
  now?: () => number;
}

/** One host's side of placement: its published load, the others' as last read, and its orphans' waits. */
export class Placement {
  private peers: HostLoad[] = [];
  /** When this host first saw each orphan it has not taken (session id -> epoch ms). */
  private readonly firstSeen = new Map<string, number>();
  private readonly now: () => number;
  private overCap = false;
  private withdrawn = false;
  /** The scan's publish in flight, which a withdrawal waits for. */
  private refreshing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PlacementDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** This host's load as the others see it. */
  load(sessions: number): HostLoad {
    const { hostId, egressGroup, egressAddress, capacity } = this.deps;
    const { room, rssBytes, limitBytes } = capacity.reading(sessions);
    return { hostId, egressGroup, egressAddress, sessions, room, rssBytes, limitBytes, heartbeatAt: this.now() };
  }

  hasRoom(sessions: number): boolean {
    return this.deps.capacity.room(sessions) > 0;
  }

  /**
   * Once per scan: publish this host's load, read the others'. When the table cannot be reached the
   * host keeps the others it last read (its leases fail the same way, so the scan does little anyway).
   */
  async refresh(sessions: number): Promise<void> {
    if (this.withdrawn) return;
    const run = this.publishAndRead(sessions);
    this.refreshing = run;
    await run;
  }

  private async publishAndRead(sessions: number): Promise<void> {
    try {
      await loads.publishLoad(this.load(sessions));
      if (this.withdrawn) return;
      const now = this.now();
      this.peers = (await loads.listLiveLoads({ now, staleMs: this.deps.staleMs })).filter((peer) => peer.hostId !== this.deps.hostId);
    } catch (error) {
      this.deps.log.warn('host load not published or read', { error: String(error) });
    }
  }

  /**
   * The verdict on one orphan (`id`), while this host runs `sessions`. `ours`: its lease names this
   * host (a restart with the same HOST_ID), which takes it back at once if it has room.
   */
  verdict(id: string, sessions: number, ours = false): Verdict {
    const now = this.now();
    const seen = this.firstSeen.get(id) ?? now;
    this.firstSeen.set(id, seen);
    const me = this.load(sessions);
    if (ours && me.room > 0) return 'take';
    return placementVerdict(me, this.peers, now - seen, this.deps.rule);
  }

  /** Forgets the waits of sessions that are no longer orphans (`orphans`: this scan's ids). */
  settle(orphans: readonly string[]): void {
    const current = new Set(orphans);
    for (const id of this.firstSeen.keys()) if (!current.has(id)) this.firstSeen.delete(id);
  }

  /**
   * Logs what a scan left and why: a full host says so (with OrphanSessions, what tells the operator
   * the fleet needs room), and so does an egress address carrying more than its cap.
   */
  reportScan(left: { full: number; waiting: number }, sessions: number): void {
    const { log, egressGroup, rule } = this.deps;
    if (left.full) {
      const { room, ...memory } = this.deps.capacity.reading(sessions);
      log.warn('host full: orphan sessions left for hosts with room', { orphans: left.full, sessions, room, ...memory });
    }
    if (left.waiting) log.info('orphan sessions left to emptier hosts for now', { orphans: left.waiting, graceMs: rule.graceMs });
    const carried = this.peers.filter((peer) => peer.egressGroup === egressGroup).reduce((sum, peer) => sum + peer.sessions, sessions);
    // Once per crossing, not every scan.
    if (carried > rule.sessionsPerEgress && !this.overCap)
      log.warn('egress address over its session cap: add egress addresses', {
        egressGroup,
        sessions: carried,
        cap: rule.sessionsPerEgress,
      });
    this.overCap = carried > rule.sessionsPerEgress;
  }

  /** Shutdown: the others stop counting this host at once. */
  async withdraw(): Promise<void> {
    this.withdrawn = true;
    // A scan still publishing would write the row again after the delete: the delete goes last.
    await this.refreshing;
    await this.removeRow();
  }

  private async removeRow(): Promise<void> {
    await loads
      .withdrawLoad(this.deps.hostId)
      .catch((error: unknown) => this.deps.log.warn('host load not withdrawn', { error: String(error) }));
  }
}
