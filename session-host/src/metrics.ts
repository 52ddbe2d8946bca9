/**
 * The host's custom metrics (names in metric-names.ts; infra/lib/monitoring.ts alarms on them).
 *
 * The session loop only counts, in memory (`HostMetrics`, the port it is given): counting never
 * waits and never throws. A publisher sends what was counted every `intervalMs` (a minute, the
 * alarms' period) in one PutMetricData, so a busy host costs one request a minute, not one per event.
 * A request that fails (CloudWatch unreachable, throttled) is logged and its points are sent again
 * with the next one, each under its own timestamp, up to `maxBacklog` points (the oldest are dropped
 * first): a CloudWatch outage costs figures, never the sessions.
 *
 * PutMetricData with the SDK rather than CloudWatch's embedded metric format in the logs: the task
 * role already holds PutMetricData for this namespace only, and the local stack's stand-in
 * (infra/local/cloudwatch.ts) receives the very request AWS would, so tests can assert what is
 * published; EMF is extracted by CloudWatch Logs, which nothing on this machine can play.
 */
import { CloudWatchClient, type MetricDatum, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { SESSION_HOST_METRICS } from './metric-names.ts';
import type { Logger } from './session-manager.ts';

/** What the session loop reports. Implementations must not throw nor block. */
export interface HostMetrics {
  /** One takeover scan found `count` wanted sessions that no live host runs. */
  orphanSessions(count: number): void;
  /** A send was reported to the inbound queue as failed. */
  sendFailed(): void;
}

/** For hosts whose figures nobody reads (tests about something else). */
export const noMetrics: HostMetrics = {
  orphanSessions: () => undefined,
  sendFailed: () => undefined,
};

export interface MetricsPublisher extends HostMetrics {
  /** Sends what was counted since the last flush, and any backlog; resolves whatever happened. */
  flush(): Promise<void>;
  /** Stops the timer and flushes once (shutdown). */
  close(): Promise<void>;
}

/** One PutMetricData call; rejects when the request failed. */
export type PutMetricData = (namespace: string, data: MetricDatum[]) => Promise<void>;

export interface MetricsPublisherOptions {
  put: PutMetricData;
  intervalMs: number;
  log: Logger;
  now?: () => number;
  /** Points kept for the next request while CloudWatch refuses them (two per minute: an hour's worth). */
  maxBacklog?: number;
}

/** CloudWatch's limit of points per PutMetricData request. */
export const MAX_DATA_PER_REQUEST = 1000;
const DEFAULT_MAX_BACKLOG = 120;

export function createMetricsPublisher(opts: MetricsPublisherOptions): MetricsPublisher {
  const now = opts.now ?? Date.now;
  const maxBacklog = opts.maxBacklog ?? DEFAULT_MAX_BACKLOG;
  let sendFailures = 0;
  let scans: { count: number; sum: number; min: number; max: number } | undefined;
  let backlog: MetricDatum[] = [];
  let flushing: Promise<void> = Promise.resolve();

  /** The points of the interval that just ended; resets the counts. */
  function take(): MetricDatum[] {
    const Timestamp = new Date(now());
    // Zero failures is a point too: the graph then shows a host that publishes and failed nothing.
    const data: MetricDatum[] = [{ MetricName: SESSION_HOST_METRICS.sendFailures, Value: sendFailures, Unit: 'Count', Timestamp }];
    if (scans) {
      data.push({
        MetricName: SESSION_HOST_METRICS.orphanSessions,
        StatisticValues: { SampleCount: scans.count, Sum: scans.sum, Minimum: scans.min, Maximum: scans.max },
        Unit: 'Count',
        Timestamp,
      });
    }
    sendFailures = 0;
    scans = undefined;
    return data;
  }

  async function send(data: MetricDatum[]): Promise<void> {
    const unsent: MetricDatum[] = [];
    for (let i = 0; i < data.length; i += MAX_DATA_PER_REQUEST) {
      const chunk = data.slice(i, i + MAX_DATA_PER_REQUEST);
      try {
        await opts.put(SESSION_HOST_METRICS.namespace, chunk);
      } catch (error) {
        unsent.push(...chunk);
        opts.log.warn('metrics not published, kept for the next attempt', { points: chunk.length, error: String(error) });
      }
    }
    if (unsent.length > maxBacklog) {
      opts.log.warn('metrics backlog full, oldest points dropped', { dropped: unsent.length - maxBacklog });
    }
    backlog = unsent.slice(-maxBacklog);
  }

  function flush(): Promise<void> {
    // One request at a time, in order: a slow request must not be overtaken by the next interval's.
    flushing = flushing.then(() => {
      const data = [...backlog, ...take()];
      backlog = [];
      return send(data).catch((error: unknown) => opts.log.warn('metrics flush failed', { error: String(error) }));
    });
    return flushing;
  }

  const timer = setInterval(() => void flush(), opts.intervalMs);
  // The figures must not keep a process alive that has nothing else to do.
  timer.unref();

  return {
    orphanSessions(count) {
      if (!Number.isFinite(count) || count < 0) return;
      scans = scans
        ? { count: scans.count + 1, sum: scans.sum + count, min: Math.min(scans.min, count), max: Math.max(scans.max, count) }
        : { count: 1, sum: count, min: count, max: count };
    },
    sendFailed() {
      sendFailures += 1;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** The publisher's transport: CloudWatch's PutMetricData (`endpoint` for a stand-in, else the region's). */
export function cloudWatchPut(opts: { endpoint?: string } = {}): PutMetricData {
  const client = new CloudWatchClient({ endpoint: opts.endpoint });
  return async (Namespace, MetricData) => {
    await client.send(new PutMetricDataCommand({ Namespace, MetricData }));
  };
}
