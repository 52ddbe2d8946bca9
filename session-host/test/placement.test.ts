/**
 * Placement between live hosts on one DynamoDB Local, on a compressed clock (scan 250 ms, grace
 * 500 ms, a host row stale after 1 s): the hosts publish their load and read each other's, the
 * emptiest takes orphaned sessions first, a full host refuses them, and after the grace anyone with
 * room takes what the preferred host leaves. Each host's room is given (slots), not measured.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostCapacity } from '../src/capacity.ts';
import { createInboundPublisher } from '../src/inbound-publisher.ts';
import { Placement } from '../src/placement.ts';
import { SessionManager } from '../src/session-manager.ts';
import { listLiveLoads, publishLoad } from '../src/storage/host-loads.ts';
import { markUnwanted, markWanted, type SessionKey } from '../src/storage/leases.ts';
import { type Backends, eventually, fastTimings, memoryStatus, startBackends } from './support/backends.ts';
import { type FakeCall, fakeProvider } from './support/fake-provider.ts';

/** A host that fits `slots` sessions. */
const slots = (count: number): HostCapacity => ({
  room: (sessions) => Math.max(0, count - sessions),
  reading: (sessions) => ({ limitBytes: 0, rssBytes: 0, budgetBytes: 0, sessionBytes: 0, room: Math.max(0, count - sessions) }),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('session placement', () => {
  let backends: Backends;
  const managers: SessionManager[] = [];
  const keys: SessionKey[] = [];
  const calls: FakeCall[] = [];
  const warnings: { message: string; extra?: Record<string, unknown> }[] = [];
  const log = {
    info: () => undefined,
    warn: (message: string, extra?: Record<string, unknown>) => void warnings.push({ message, extra }),
    error: () => undefined,
  };
  const orphanCounts = new Map<string, number[]>();

  function host(hostId: string, capacity: HostCapacity, egressGroup = 'a'): SessionManager {
    const placement = new Placement({
      hostId,
      egressGroup,
      capacity,
      rule: { graceMs: fastTimings.placementGraceMs, sessionsPerEgress: 100 },
      staleMs: fastTimings.hostStaleMs,
      log,
    });
    orphanCounts.set(hostId, []);
    const created = new SessionManager({
      hostId,
      timings: fastTimings,
      provider: fakeProvider(hostId, calls),
      inbound: createInboundPublisher({ sqs: backends.client, queueUrl: backends.inboundUrl, log }),
      status: memoryStatus(),
      log,
      metrics: { orphanSessions: (count) => orphanCounts.get(hostId)!.push(count), sendFailed: () => undefined },
      placement,
    });
    managers.push(created);
    return created;
  }

  async function orphans(companyId: number, count: number): Promise<SessionKey[]> {
    const created = Array.from({ length: count }, (_, i) => ({ companyId, connectionId: i + 1 }));
    keys.push(...created);
    for (const key of created) await markWanted(key);
    return created;
  }

  /** Both hosts have published and read each other (two scans each). */
  const settled = () => sleep(fastTimings.scanMs * 3);

  beforeAll(async () => {
    backends = await startBackends();
  }, 60_000);

  // A test's sessions must not outlive it: a later test's hosts would take them.
  afterEach(async () => {
    for (const m of managers.splice(0)) await m.shutdown().catch(() => undefined);
    for (const key of keys.splice(0)) await markUnwanted(key, { hostId: 'test', now: Date.now() });
    warnings.splice(0);
  });

  afterAll(async () => {
    await backends?.stop();
  });

  it("publishes each live host's load, and a host that shuts down leaves at once", async () => {
    // Prepare
    const a = host('load-a', slots(7), 'egress-1');
    a.start();
    await settled();
    // Act
    const live = await listLiveLoads({ now: Date.now(), staleMs: fastTimings.hostStaleMs });
    await a.shutdown();
    const after = await listLiveLoads({ now: Date.now(), staleMs: fastTimings.hostStaleMs });
    // Assess
    expect(live.find((l) => l.hostId === 'load-a')).toMatchObject({ egressGroup: 'egress-1', sessions: 0, room: 7 });
    expect(after.find((l) => l.hostId === 'load-a')).toBeUndefined();
  });

  it('the host with most room takes the orphans first; the other leaves them', async () => {
    // Prepare
    const big = host('big', slots(100));
    const small = host('small', slots(3));
    big.start();
    small.start();
    await settled();
    // Act
    const wanted = await orphans(31, 3);
    await eventually(() => wanted.every((key) => big.owns(key)), 'the big host running all three', 5000);
    await sleep(fastTimings.placementGraceMs * 2);
    // Assess
    expect(small.running()).toEqual([]);
    expect(calls.filter((c) => c.companyId === 31 && c.op === 'start').map((c) => c.host)).toEqual(['big', 'big', 'big']);
  });

  it('a full host refuses orphans, says so, and counts them; a host with room takes them', async () => {
    // Prepare
    const full = host('full', slots(0));
    full.start();
    const wanted = await orphans(32, 2);
    // Act
    await sleep(fastTimings.scanMs * 4);
    const refused = full.running().length;
    const roomy = host('roomy', slots(10));
    roomy.start();
    await eventually(() => wanted.every((key) => roomy.owns(key)), 'the roomy host running both', 5000);
    // Assess
    expect(refused).toBe(0);
    expect(orphanCounts.get('full')).toContain(2);
    expect(warnings.some((w) => w.message.startsWith('host full') && w.extra?.orphans === 2)).toBe(true);
    expect(full.isFull()).toBe(true);
    expect(await full.takeOver(wanted[0]!)).toBe(false);
  });

  it('an orphan the preferred host does not take is taken after the grace by a host with room', async () => {
    // Prepare: a live host that publishes more room but never takes anything (a busy or stuck peer)
    let ghost = true;
    void (async () => {
      while (ghost) {
        await publishLoad({ hostId: 'ghost', egressGroup: 'a', sessions: 0, room: 1000, heartbeatAt: Date.now() });
        await sleep(fastTimings.scanMs);
      }
    })();
    const b = host('patient', slots(5));
    b.start();
    await settled();
    // Act
    const [key] = await orphans(33, 1);
    const orphanedAt = Date.now();
    await eventually(() => b.owns(key!), 'the patient host taking it', 5000);
    const waited = Date.now() - orphanedAt;
    ghost = false;
    // Assess: not before the grace, and soon after it (two scans, plus what a loaded machine adds)
    expect(waited).toBeGreaterThanOrEqual(fastTimings.placementGraceMs);
    expect(waited).toBeLessThan(fastTimings.placementGraceMs + fastTimings.scanMs * 2 + 1500);
  });
});
