/**
 * One session-host: the session manager (leases, providers), the command consumer and the inbound
 * publisher, wired together. main.ts runs one from the environment; tests run several in a process.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createCapacity, type HostCapacity } from './capacity.ts';
import { type CommandConsumer, startCommandConsumer } from './command-consumer.ts';
import { createCommandRouter } from './command-router.ts';
import type { HostConfig } from './config.ts';
import { createInboundPublisher } from './inbound-publisher.ts';
import { type HostMetrics, noMetrics } from './metrics.ts';
import { checkPendingNumbers } from './number-checks.ts';
import { Placement } from './placement.ts';
import type { WhatsAppProvider } from './provider.ts';
import type { SendHooks } from './send-executor.ts';
import { type Logger, SessionManager } from './session-manager.ts';
import { type StatusReporter, statusReporter } from './status-reporter.ts';

export interface HostDeps {
  config: HostConfig;
  provider: WhatsAppProvider;
  sqs: SQSClient;
  log: Logger;
  /** Where orphaned sessions and failed sends are counted (main.ts: the CloudWatch publisher). */
  metrics?: HostMetrics;
  status?: StatusReporter;
  sendHooks?: SendHooks;
  /** Concurrent long-polls on the commands queue. */
  pollers?: number;
  /** How many sessions fit (default: this process's memory against config.placement's budget). */
  capacity?: HostCapacity;
}

export interface Host {
  readonly manager: SessionManager;
  /** Graceful: stop taking commands, finish in-flight ones, stop sessions (credentials kept), release leases. */
  shutdown(): Promise<void>;
  /** What a killed host leaves behind: nothing released, no heartbeats, no polling (tests). */
  crash(): Promise<void>;
}

export function startHost(deps: HostDeps): Host {
  const { config, log } = deps;
  const inbound = createInboundPublisher({ sqs: deps.sqs, queueUrl: config.inboundQueueUrl, log });
  const metrics = deps.metrics ?? noMetrics;
  const { placement: placing, timings } = config;
  const placement = new Placement({
    hostId: config.hostId,
    egressGroup: placing.egressGroup,
    egressAddress: placing.egressAddress,
    capacity:
      deps.capacity ?? createCapacity({ budgetFraction: placing.memoryBudgetFraction, sessionEstimateBytes: placing.sessionEstimateBytes }),
    rule: { graceMs: timings.placementGraceMs, sessionsPerEgress: placing.sessionsPerEgress },
    staleMs: timings.hostStaleMs,
    log,
  });
  const manager = new SessionManager({
    hostId: config.hostId,
    timings: config.timings,
    provider: deps.provider,
    inbound,
    status: deps.status ?? statusReporter,
    log,
    metrics,
    placement,
    // Contact list numbers added while no session of the company was connected are checked now.
    onConnected: async (key, handle) => {
      const count = await checkPendingNumbers(key, handle, inbound);
      if (count) log.info('unchecked numbers checked on connect', { key, count });
    },
  });
  const router = createCommandRouter({ manager, inbound, timings: config.timings, log, metrics, sendHooks: deps.sendHooks });
  manager.start();
  const consumer: CommandConsumer = startCommandConsumer({
    sqs: deps.sqs,
    queueUrl: config.commandsQueueUrl,
    router,
    log,
    receiveWaitSeconds: config.timings.receiveWaitSeconds,
    maxReceiveCount: config.commandsMaxReceiveCount,
    errorRetrySeconds: config.timings.errorRetrySeconds,
    pollers: deps.pollers,
  });
  let stopping: Promise<void> | undefined;
  return {
    manager,
    shutdown() {
      stopping ??= (async () => {
        manager.beginShutdown();
        await consumer.stop();
        await manager.shutdown();
      })();
      return stopping;
    },
    crash() {
      stopping ??= (async () => {
        manager.freeze();
        manager.beginShutdown();
        await consumer.stop();
      })();
      return stopping;
    },
  };
}
