/**
 * The host's metrics: the publisher sends a minute's counts in one PutMetricData and keeps them
 * through CloudWatch failures; the real SDK's request is what the local CloudWatch stand-in records
 * under the names the alarms read; the takeover scan counts a dead host's sessions as orphaned until
 * it has taken them; a send the host reports failed is counted once.
 */
import type { MetricDatum } from '@aws-sdk/client-cloudwatch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCloudWatch, startCloudWatch } from '../../infra/local/cloudwatch.ts';
import { type Simulator, startSimulator } from '../../infra/local/whatsapp-simulator/server.ts';
import { type Host, startHost } from '../src/host.ts';
import { createInboundPublisher } from '../src/inbound-publisher.ts';
import { SESSION_HOST_METRICS } from '../src/metric-names.ts';
import { cloudWatchPut, createMetricsPublisher, type HostMetrics, type MetricsPublisher } from '../src/metrics.ts';
import { createSimulatorProvider } from '../src/providers/simulator.ts';
import { SessionManager } from '../src/session-manager.ts';
import { markUnwanted } from '../src/storage/leases.ts';
import {
  type Backends,
  drainInbound,
  eventually,
  fastTimings,
  memoryStatus,
  quietLog,
  sendCommand,
  startBackends,
  testConfig,
} from './support/backends.ts';
import { type FakeCall, fakeProvider } from './support/fake-provider.ts';
import { memoryMedia } from './support/memory-media.ts';

const { namespace, orphanSessions, sendFailures } = SESSION_HOST_METRICS;

interface Call {
  namespace: string;
  data: MetricDatum[];
}

/** A PutMetricData that records its calls and fails while `failing` is set. */
function fakePut() {
  const calls: Call[] = [];
  const state = { failing: false, attempts: 0 };
  return {
    calls,
    state,
    put: async (ns: string, data: MetricDatum[]) => {
      state.attempts += 1;
      if (state.failing) throw new Error('CloudWatch unreachable');
      calls.push({ namespace: ns, data });
    },
  };
}

const byName = (data: MetricDatum[], name: string) => data.filter((d) => d.MetricName === name);

describe('metrics publisher', () => {
  const publishers: MetricsPublisher[] = [];
  afterEach(async () => {
    for (const p of publishers.splice(0)) await p.close();
  });
  const publisher = (opts: Parameters<typeof createMetricsPublisher>[0]) => {
    const created = createMetricsPublisher(opts);
    publishers.push(created);
    return created;
  };

  it('sends an interval of counts in one request: failures summed, scans as a statistic set', async () => {
    // Prepare
    const cw = fakePut();
    const metrics = publisher({ put: cw.put, intervalMs: 60_000, log: quietLog, now: () => 1_700_000_000_000 });
    // Act
    for (let i = 0; i < 250; i++) metrics.sendFailed();
    for (const seen of [0, 3, 1]) metrics.orphanSessions(seen);
    await metrics.flush();
    // Assess
    expect(cw.calls).toHaveLength(1);
    const [call] = cw.calls;
    expect(call?.namespace).toBe(namespace);
    expect(byName(call?.data ?? [], sendFailures)).toEqual([
      { MetricName: sendFailures, Value: 250, Unit: 'Count', Timestamp: new Date(1_700_000_000_000) },
    ]);
    expect(byName(call?.data ?? [], orphanSessions)).toEqual([
      {
        MetricName: orphanSessions,
        StatisticValues: { SampleCount: 3, Sum: 4, Minimum: 0, Maximum: 3 },
        Unit: 'Count',
        Timestamp: new Date(1_700_000_000_000),
      },
    ]);
  });

  it('starts each interval from zero, and publishes no orphan point for an interval without a scan', async () => {
    const cw = fakePut();
    const metrics = publisher({ put: cw.put, intervalMs: 60_000, log: quietLog });
    metrics.sendFailed();
    metrics.orphanSessions(2);
    await metrics.flush();
    await metrics.flush();
    expect(cw.calls.map((c) => c.data.map((d) => [d.MetricName, d.Value ?? d.StatisticValues?.Maximum]))).toEqual([
      [
        [sendFailures, 1],
        [orphanSessions, 2],
      ],
      [[sendFailures, 0]],
    ]);
  });

  it('publishes on its own every interval', async () => {
    const cw = fakePut();
    const metrics = publisher({ put: cw.put, intervalMs: 40, log: quietLog });
    metrics.sendFailed();
    await eventually(() => cw.calls.length >= 2, 'two timed publishes', 2000);
    expect(byName(cw.calls[0]?.data ?? [], sendFailures)[0]?.Value).toBe(1);
    expect(byName(cw.calls[1]?.data ?? [], sendFailures)[0]?.Value).toBe(0);
  });

  it('survives CloudWatch failing: counting and flushing never throw, and the points go with the next request under their own time', async () => {
    // Prepare
    const cw = fakePut();
    const warnings: string[] = [];
    let clock = 1_000_000;
    const metrics = publisher({
      put: cw.put,
      intervalMs: 60_000,
      log: { ...quietLog, warn: (message) => warnings.push(message) },
      now: () => clock,
    });
    // Act: two intervals while CloudWatch fails, then one after it is back.
    cw.state.failing = true;
    metrics.sendFailed();
    metrics.orphanSessions(5);
    await expect(metrics.flush()).resolves.toBeUndefined();
    clock += 60_000;
    metrics.sendFailed();
    metrics.sendFailed();
    await expect(metrics.flush()).resolves.toBeUndefined();
    cw.state.failing = false;
    clock += 60_000;
    metrics.sendFailed();
    await metrics.flush();
    // Assess: every point arrived once, in one request, each with the time it was counted.
    expect(warnings).toContain('metrics not published, kept for the next attempt');
    expect(cw.calls).toHaveLength(1);
    const points = cw.calls[0]?.data ?? [];
    expect(byName(points, sendFailures).map((d) => [d.Timestamp?.getTime(), d.Value])).toEqual([
      [1_000_000, 1],
      [1_060_000, 2],
      [1_120_000, 1],
    ]);
    expect(byName(points, orphanSessions).map((d) => [d.Timestamp?.getTime(), d.StatisticValues?.Maximum])).toEqual([[1_000_000, 5]]);
  });

  it('keeps at most maxBacklog points through a long outage, dropping the oldest', async () => {
    const cw = fakePut();
    let clock = 0;
    const metrics = publisher({ put: cw.put, intervalMs: 60_000, log: quietLog, now: () => clock, maxBacklog: 3 });
    cw.state.failing = true;
    for (let minute = 0; minute < 5; minute++) {
      clock = minute * 60_000;
      await metrics.flush();
    }
    cw.state.failing = false;
    clock = 5 * 60_000;
    await metrics.flush();
    expect(cw.calls[0]?.data.map((d) => d.Timestamp?.getTime())).toEqual([2, 3, 4, 5].map((m) => m * 60_000));
  });

  it('a PutMetricData that throws synchronously is a failure like any other', async () => {
    const metrics = publisher({
      put: () => {
        throw new Error('bad client');
      },
      intervalMs: 60_000,
      log: quietLog,
    });
    metrics.sendFailed();
    await expect(metrics.flush()).resolves.toBeUndefined();
  });
});

describe('publishing through the SDK', () => {
  let cloudWatch: LocalCloudWatch;
  beforeAll(async () => {
    cloudWatch = await startCloudWatch({ port: 0 });
    Object.assign(process.env, { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  });
  afterAll(async () => {
    await cloudWatch?.stop();
  });

  it('is a PutMetricData request CloudWatch accepts, under the names and namespace the alarms read', async () => {
    const metrics = createMetricsPublisher({ put: cloudWatchPut({ endpoint: cloudWatch.endpoint }), intervalMs: 60_000, log: quietLog });
    metrics.sendFailed();
    metrics.sendFailed();
    metrics.orphanSessions(1);
    metrics.orphanSessions(4);
    await metrics.close();
    expect(
      cloudWatch.received.map(({ namespace, metricName, unit, value, statisticValues }) => ({
        namespace,
        metricName,
        unit,
        value,
        statisticValues,
      })),
    ).toEqual([
      { namespace, metricName: sendFailures, unit: 'Count', value: 2, statisticValues: undefined },
      {
        namespace,
        metricName: orphanSessions,
        unit: 'Count',
        value: undefined,
        statisticValues: { SampleCount: 2, Sum: 5, Minimum: 1, Maximum: 4 },
      },
    ]);
  });

  it('refuses what CloudWatch refuses, with its error codes, and keeps nothing of a refused request', async () => {
    // Prepare
    const put = cloudWatchPut({ endpoint: cloudWatch.endpoint });
    const before = cloudWatch.received.length;
    const refusal = (namespace: string, data: MetricDatum[]) =>
      put(namespace, data).then(
        () => 'accepted',
        (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => `${error.$metadata?.httpStatusCode} ${error.name}`,
      );
    // Act / Assess
    await expect(refusal('AWS/Lambda', [{ MetricName: 'x', Value: 1 }])).resolves.toBe('400 InvalidParameterValueException');
    await expect(refusal(namespace, [{ MetricName: 'x' }])).resolves.toBe('400 InvalidParameterCombinationException');
    await expect(refusal(namespace, [{ MetricName: 'x', Value: 1, Values: [1] }])).resolves.toBe(
      '400 InvalidParameterCombinationException',
    );
    await expect(refusal(namespace, [{ MetricName: 'x', Values: Array.from({ length: 151 }, (_, i) => i) }])).resolves.toBe(
      '400 InvalidParameterValueException',
    );
    expect(cloudWatch.received.length).toBe(before);
  });

  it('keeps the points when the endpoint refuses or cannot be reached, and delivers them once it answers', async () => {
    const warnings: string[] = [];
    const log = { ...quietLog, warn: (message: string) => warnings.push(message) };
    let target = 'http://127.0.0.1:9';
    const put = (ns: string, data: MetricDatum[]) => cloudWatchPut({ endpoint: target })(ns, data);
    const metrics = createMetricsPublisher({ put, intervalMs: 60_000, log });
    const before = cloudWatch.received.length;
    metrics.sendFailed();
    await metrics.flush();
    expect(warnings).toContain('metrics not published, kept for the next attempt');
    target = cloudWatch.endpoint;
    await metrics.close();
    const failures = cloudWatch.received
      .slice(before)
      .filter((d) => d.metricName === sendFailures)
      .map((d) => d.value);
    expect(failures).toEqual([1, 0]);
  }, 30_000);
});

/** What the host counted, for assertions. */
function recordingMetrics(): HostMetrics & { scans: number[]; failures: number } {
  const recorded = {
    scans: [] as number[],
    failures: 0,
    orphanSessions: (count: number) => void recorded.scans.push(count),
    sendFailed: () => {
      recorded.failures += 1;
    },
  };
  return recorded;
}

describe('what the host counts', () => {
  let backends: Backends;
  beforeAll(async () => {
    backends = await startBackends();
  }, 60_000);
  afterAll(async () => {
    await backends?.stop();
  });

  it('a dead host’s session is an orphan at the scans after its lease ran out, until a live host takes it', async () => {
    // Prepare: host A runs a session; B scans with a recording metrics port.
    const calls: FakeCall[] = [];
    const key = { companyId: 61, connectionId: 1 };
    const manager = (hostId: string, metrics?: HostMetrics) =>
      new SessionManager({
        hostId,
        timings: fastTimings,
        provider: fakeProvider(hostId, calls),
        inbound: createInboundPublisher({ sqs: backends.client, queueUrl: backends.inboundUrl, log: quietLog }),
        status: memoryStatus(),
        log: quietLog,
        metrics,
      });
    const a = manager('host-a');
    const seen = recordingMetrics();
    const b = manager('host-b', seen);
    a.start();
    expect(await a.startSession(key)).toBe(true);
    b.start();
    try {
      await new Promise((r) => setTimeout(r, 600));
      const whileAlive = [...seen.scans];
      // Act: A dies (no heartbeat, nothing released).
      a.freeze();
      await eventually(() => b.owns(key), 'host-b owning the session', 5000);
      const atTakeover = seen.scans.length;
      await eventually(() => seen.scans.length >= atTakeover + 2, 'two scans after the takeover', 5000);
      // Assess: 0 while A held it, 1 at the scan that took it, 0 again once B runs it.
      expect(whileAlive.length).toBeGreaterThan(0);
      expect(whileAlive.every((n) => n === 0)).toBe(true);
      expect(seen.scans.slice(0, atTakeover)).toContain(1);
      expect(seen.scans.slice(atTakeover)).toEqual(seen.scans.slice(atTakeover).map(() => 0));
    } finally {
      await a.shutdown();
      await b.shutdown();
      // Not wanted any more, so the next host of this file does not take it over.
      await markUnwanted(key, { hostId: 'host-b', now: Date.now() });
    }
  });

  describe('sends', () => {
    let simulator: Simulator;
    let host: Host;
    const seen = recordingMetrics();
    beforeAll(async () => {
      simulator = await startSimulator({ scanMs: 50 });
      host = startHost({
        config: testConfig(backends, 'host-metrics'),
        provider: createSimulatorProvider({ url: simulator.url, media: memoryMedia() }),
        sqs: backends.client,
        log: quietLog,
        status: memoryStatus(),
        metrics: seen,
      });
      await sendCommand(backends, { kind: 'start', companyId: 62, connectionId: 1, commandId: 'start-62' });
      await eventually(() => host.manager.statusOf({ companyId: 62, connectionId: 1 }) === 'CONNECTED', 'CONNECTED');
    }, 60_000);
    afterAll(async () => {
      await host?.shutdown();
      await simulator?.close();
    });

    it('counts a send reported failed once, and a delivered send not at all', async () => {
      const send = (messageId: string, number: string) =>
        sendCommand(backends, {
          kind: 'send',
          companyId: 62,
          connectionId: 1,
          commandId: messageId,
          messageId,
          ticketId: 1,
          number,
          isGroup: false,
          body: 'hello',
        });
      await send('metrics-ok', '5511955554444');
      await send('metrics-bad', 'not-a-number');
      const events = await drainInbound(
        backends,
        (all) => all.some((e) => e.event.kind === 'sendFailed') && all.some((e) => e.event.kind === 'sent'),
      );
      expect(events.map((e) => e.event.kind).sort()).toEqual(['sendFailed', 'sent']);
      expect(seen.failures).toBe(1);
    });
  });
});
