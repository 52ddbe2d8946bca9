/**
 * The placement rule on its own (placement.ts, capacity.ts): which host takes an orphaned session,
 * from the loads the hosts publish, and how a host measures its room. No network.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cgroupLimitBytes, createCapacity, MEASURE_FROM_SESSIONS } from '../src/capacity.ts';
import { placementOrder, placementVerdict } from '../src/placement.ts';
import type { HostLoad } from '../src/storage/host-loads.ts';

const MIB = 1024 * 1024;
const rule = { graceMs: 15_000, sessionsPerEgress: 100 };
const host = (hostId: string, load: Partial<HostLoad> = {}): HostLoad => ({
  hostId,
  egressGroup: 'a',
  sessions: 0,
  room: 50,
  heartbeatAt: 0,
  ...load,
});

describe('placement verdict', () => {
  it('a full host refuses an orphan, however long it has waited and whoever else is there', () => {
    const full = host('full', { room: 0, sessions: 80 });
    expect(placementVerdict(full, [], 0, rule)).toBe('full');
    expect(placementVerdict(full, [host('other', { room: 0 })], rule.graceMs * 10, rule)).toBe('full');
  });

  it('the host with the most room takes it at once; the others wait for it', () => {
    // Prepare: three hosts on one egress address
    const emptiest = host('c', { room: 40, sessions: 10 });
    const busy = host('a', { room: 5, sessions: 45 });
    const middle = host('b', { room: 20, sessions: 30 });
    const all = [emptiest, busy, middle];
    // Act
    const verdicts = all.map((me) => placementVerdict(me, all, 0, rule));
    // Assess
    expect(verdicts).toEqual(['take', 'wait', 'wait']);
    expect(placementOrder(all, rule.sessionsPerEgress).map((h) => h.hostId)).toEqual(['c', 'b', 'a']);
  });

  it('after the grace any host with room takes it, so placement never strands a session', () => {
    const emptiest = host('b', { room: 40 });
    const busy = host('a', { room: 1 });
    expect(placementVerdict(busy, [emptiest], rule.graceMs - 1, rule)).toBe('wait');
    expect(placementVerdict(busy, [emptiest], rule.graceMs, rule)).toBe('take');
  });

  it('a host alone (nobody else publishes) takes what it has room for at once', () => {
    expect(placementVerdict(host('only', { room: 1 }), [], 0, rule)).toBe('take');
  });

  it('sessions go to the egress address carrying fewest, before the host with most room', () => {
    // Prepare: address a carries 60 sessions over two hosts, address b 20 on one fuller host
    const a1 = host('a1', { egressGroup: 'a', sessions: 30, room: 100 });
    const a2 = host('a2', { egressGroup: 'a', sessions: 30, room: 100 });
    const b1 = host('b1', { egressGroup: 'b', sessions: 20, room: 10 });
    const all = [a1, a2, b1];
    // Act + Assess
    expect(placementOrder(all, 1000).map((h) => h.hostId)).toEqual(['b1', 'a1', 'a2']);
    expect(placementVerdict(b1, all, 0, { ...rule, sessionsPerEgress: 1000 })).toBe('take');
    expect(placementVerdict(a1, all, 0, { ...rule, sessionsPerEgress: 1000 })).toBe('wait');
  });

  it('an address at its cap comes after every address under it; past every cap, sessions still land', () => {
    // Prepare: a is under the cap of 50 but with one host nearly full; b is at the cap
    const a = host('a', { egressGroup: 'a', sessions: 10, room: 1 });
    const b = host('b', { egressGroup: 'b', sessions: 50, room: 500 });
    const cap = { ...rule, sessionsPerEgress: 50 };
    // Assess: a first; and with a full, b takes it over its cap
    expect(placementOrder([a, b], cap.sessionsPerEgress).map((h) => h.hostId)).toEqual(['a', 'b']);
    expect(placementVerdict(b, [a], 0, cap)).toBe('wait');
    expect(placementVerdict(b, [{ ...a, room: 0 }], 0, cap)).toBe('take');
  });

  it('spreads a run of orphans over the addresses as the takers count them', () => {
    // Prepare: two addresses, one host each, equal room; each takes while first in the order
    const hosts = [host('x', { egressGroup: 'x', room: 1000 }), host('y', { egressGroup: 'y', room: 1000 })];
    // Act: 100 orphans, each to the first host of the order, which then counts it
    for (let i = 0; i < 100; i++) {
      const [first] = placementOrder(hosts, rule.sessionsPerEgress);
      first!.sessions += 1;
      first!.room -= 1;
    }
    // Assess
    expect(hosts.map((h) => h.sessions)).toEqual([50, 50]);
  });
});

describe('host capacity', () => {
  it('reads the container limit from cgroup v2, then v1, and treats "max" and v1\'s huge figure as no limit', () => {
    // Prepare
    const v2 = mkdtempSync(join(tmpdir(), 'cg2-'));
    writeFileSync(join(v2, 'memory.max'), `${1024 * MIB}\n`);
    const v1 = mkdtempSync(join(tmpdir(), 'cg1-'));
    mkdirSync(join(v1, 'memory'));
    writeFileSync(join(v1, 'memory', 'memory.limit_in_bytes'), `${2048 * MIB}\n`);
    const unlimitedV2 = mkdtempSync(join(tmpdir(), 'cg2max-'));
    writeFileSync(join(unlimitedV2, 'memory.max'), 'max\n');
    const unlimitedV1 = mkdtempSync(join(tmpdir(), 'cg1max-'));
    mkdirSync(join(unlimitedV1, 'memory'));
    writeFileSync(join(unlimitedV1, 'memory', 'memory.limit_in_bytes'), '9223372036854771712\n');
    // Assess
    expect(cgroupLimitBytes(v2)).toBe(1024 * MIB);
    expect(cgroupLimitBytes(v1)).toBe(2048 * MIB);
    expect(cgroupLimitBytes(unlimitedV2)).toBeUndefined();
    expect(cgroupLimitBytes(unlimitedV1)).toBeUndefined();
    expect(cgroupLimitBytes(mkdtempSync(join(tmpdir(), 'cg-none-')))).toBeUndefined();
  });

  it('room is the budget left over the configured cost, then over the measured cost per session', () => {
    // Prepare: 1 GiB limit, 75% budget, 150 MiB RSS with no session, 10 MiB estimate
    let rss = 150 * MIB;
    const capacity = createCapacity({
      budgetFraction: 0.75,
      sessionEstimateBytes: 10 * MIB,
      read: () => ({ limitBytes: 1024 * MIB, rssBytes: rss }),
    });
    // Act + Assess: (768 - 150) / 10 before any measurement
    expect(capacity.room(0)).toBe(61);
    // A few sessions cost 2 MiB each: too few to trust, the estimate stands
    rss = 150 * MIB + (MEASURE_FROM_SESSIONS - 1) * 2 * MIB;
    expect(capacity.reading(MEASURE_FROM_SESSIONS - 1).sessionBytes).toBe(10 * MIB);
    // Twenty sessions at 2 MiB each: (768 - 190) / 2 = 289 more
    rss = 190 * MIB;
    expect(capacity.reading(20)).toMatchObject({ sessionBytes: 2 * MIB, room: 289 });
  });

  it('a host whose RSS reaches its budget has no room, whatever a session measured', () => {
    const capacity = createCapacity({
      budgetFraction: 0.5,
      sessionEstimateBytes: 10 * MIB,
      read: () => ({ limitBytes: 1000 * MIB, rssBytes: 520 * MIB }),
    });
    capacity.room(0);
    expect(capacity.room(100)).toBe(0);
  });
});
