/**
 * The session-host process (Fargate, or a child of the local stack). Configured by environment:
 * TABLE_NAME, DYNAMODB_ENDPOINT, QUEUE_URL_INBOUND, QUEUE_URL_SESSION_COMMANDS, SQS_ENDPOINT,
 * MEDIA_BUCKET, S3_ENDPOINT, WS_MANAGEMENT_URL, SESSION_PROVIDER (simulator | baileys), SIMULATOR_URL,
 * HOST_ID (default hostname-pid; a stable one lets a restarted host reclaim its sessions at once),
 * CLOUDWATCH_ENDPOINT (a stand-in's; AWS's by default), METRICS_INTERVAL_MS (default 60 000).
 * Placement (placement.ts, capacity.ts): EGRESS_GROUP and EGRESS_ADDRESS (the NAT this task leaves
 * by, set by the stack), MEMORY_BUDGET_FRACTION (default 0.75 of the container's limit),
 * SESSION_MEMORY_MB (a session's cost until measured, default 10), SESSIONS_PER_EGRESS (default 200).
 * SIGTERM / SIGINT: graceful shutdown, exit 0 within the shutdown budget.
 */

import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import { SQSClient } from '@aws-sdk/client-sqs';
import { env } from '@conversa/functions/commons/env';
import { logger } from '@conversa/functions/commons/logger';
import { configFromEnv } from './config.ts';
import { startHost } from './host.ts';
import { cloudWatchPut, createMetricsPublisher } from './metrics.ts';
import { loadProvider } from './providers/index.ts';
import type { Logger } from './session-manager.ts';

const powertools = logger.createChild({ serviceName: 'session-host' });
const log: Logger = {
  info: (message, extra) => (extra ? powertools.info(message, extra as LogAttributes) : powertools.info(message)),
  warn: (message, extra) => (extra ? powertools.warn(message, extra as LogAttributes) : powertools.warn(message)),
  error: (message, extra) => (extra ? powertools.error(message, extra as LogAttributes) : powertools.error(message)),
};
const METRICS_CLOSE_MS = 2000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const config = configFromEnv();
const provider = await loadProvider(config);
const metrics = createMetricsPublisher({
  put: cloudWatchPut({ endpoint: config.cloudWatchEndpoint }),
  intervalMs: config.timings.metricsMs,
  log,
});
// Its own client: it receives and deletes as well as sends (the Lambdas' commons/sqs only sends).
const sqs = new SQSClient({ region: env.region, endpoint: env.sqsEndpoint });
const host = startHost({ config, provider, sqs, log, metrics });
log.info('session-host started', { hostId: config.hostId, provider: provider.name, ...config.placement });

let signalled = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    log.info('shutting down', { signal });
    const deadline = setTimeout(() => {
      log.error('shutdown took too long, exiting anyway', { budgetMs: config.timings.shutdownMs });
      process.exit(1);
    }, config.timings.shutdownMs);
    host
      .shutdown()
      // The last minute's counts, within a bound: CloudWatch being unreachable must not hold the exit.
      .then(() => Promise.race([metrics.close(), sleep(METRICS_CLOSE_MS)]))
      .then(
        () => {
          clearTimeout(deadline);
          log.info('session-host stopped');
          process.exit(0);
        },
        (error: unknown) => {
          log.error('shutdown failed', { error: String(error) });
          process.exit(1);
        },
      );
  });
}
