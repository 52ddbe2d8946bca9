/**
 * The host's configuration, read once from the environment at start. The timings are fields (not
 * constants) so tests can run the lease and routing rules on a compressed clock.
 */
import { hostname } from 'node:os';
import { messageQueues } from '@conversa/functions/declarations/message-queues';

export type ProviderName = 'simulator' | 'baileys';

export interface HostTimings {
  /** How often an owner extends its leases. */
  heartbeatMs: number;
  /** How far a heartbeat pushes leaseUntil. A host silent this long loses its sessions. */
  leaseMs: number;
  /** How often a host looks for wanted sessions nobody holds (a dead host's). */
  scanMs: number;
  /** Long-poll wait of one ReceiveMessage on the commands queue (seconds, SQS caps it at 20); also bounds how long a shutdown waits for the poll. */
  receiveWaitSeconds: number;
  /** Visibility given back when another live host owns the session. */
  forwardDelaySeconds: number;
  /** Visibility while no host owns the session. */
  ownerlessDelaySeconds: number;
  /** Visibility of a command whose handling threw (retried, dead-lettered after maxReceiveCount). */
  errorRetrySeconds: number;
  /** How long an owner holds a command while its session is still connecting. */
  readyWaitMs: number;
  /** A send that found no connected session for this long is reported as sendFailed. */
  sendDeadlineMs: number;
  /** Upper bound on the graceful shutdown before the process exits anyway. */
  shutdownMs: number;
  /** How often the counted metrics are published (one PutMetricData); the alarms read 1-minute periods. */
  metricsMs: number;
  /** How long a host that is not the preferred one leaves an orphan for the host that is (placement.ts). */
  placementGraceMs: number;
  /** A host whose load row is older than this is dead to placement (it publishes every scan). */
  hostStaleMs: number;
}

/** What placement.ts and capacity.ts need to know of this host. */
export interface PlacementConfig {
  /** The egress address group this host's traffic leaves by (the stack's EGRESS_GROUP). */
  egressGroup: string;
  /** That address, when the stack passes it (EGRESS_ADDRESS): logged and published, never relied on. */
  egressAddress?: string;
  /** Share of the container's memory limit the host fills with sessions. */
  memoryBudgetFraction: number;
  /** Cost of one session until the host has measured its own (bytes). */
  sessionEstimateBytes: number;
  /** Sessions per egress address beyond which other addresses' hosts are preferred. */
  sessionsPerEgress: number;
}

export interface HostConfig {
  hostId: string;
  provider: ProviderName;
  simulatorUrl?: string;
  inboundQueueUrl: string;
  commandsQueueUrl: string;
  /** The commands queue's maxReceiveCount: a command deferred that often is re-enqueued, not dead-lettered. */
  commandsMaxReceiveCount: number;
  /** CloudWatch's endpoint when it is not the region's (a stand-in). */
  cloudWatchEndpoint?: string;
  timings: HostTimings;
  placement: PlacementConfig;
}

export const defaultTimings: HostTimings = {
  heartbeatMs: 15_000,
  leaseMs: 40_000,
  scanMs: 10_000,
  receiveWaitSeconds: 5,
  forwardDelaySeconds: 1,
  ownerlessDelaySeconds: 15,
  errorRetrySeconds: 5,
  readyWaitMs: 20_000,
  sendDeadlineMs: 5 * 60_000,
  shutdownMs: 10_000,
  metricsMs: 60_000,
  // A bit more than a scan: the preferred host has scanned at least once before the others step in.
  placementGraceMs: 15_000,
  hostStaleMs: 35_000,
};

export const defaultPlacement: PlacementConfig = {
  egressGroup: 'default',
  memoryBudgetFraction: 0.75,
  // bench:session-host's goal per idle session; a host measures its own once it runs a few.
  sessionEstimateBytes: 10 * 1024 * 1024,
  sessionsPerEgress: 200,
};

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`session-host: missing environment variable ${name}`);
  return value;
}

function positiveMs(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`session-host: ${name} must be a positive number of milliseconds, not ${raw}`);
  return value;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, max = Number.POSITIVE_INFINITY): number | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max)
    throw new Error(`session-host: ${name} must be a number in (0, ${max}], not ${raw}`);
  return value;
}

function placementFromEnv(env: NodeJS.ProcessEnv): PlacementConfig {
  const sessionMb = positiveNumber(env, 'SESSION_MEMORY_MB');
  return {
    egressGroup: env.EGRESS_GROUP || defaultPlacement.egressGroup,
    egressAddress: env.EGRESS_ADDRESS || undefined,
    memoryBudgetFraction: positiveNumber(env, 'MEMORY_BUDGET_FRACTION', 1) ?? defaultPlacement.memoryBudgetFraction,
    sessionEstimateBytes: sessionMb ? sessionMb * 1024 * 1024 : defaultPlacement.sessionEstimateBytes,
    sessionsPerEgress: Math.floor(positiveNumber(env, 'SESSIONS_PER_EGRESS') ?? defaultPlacement.sessionsPerEgress),
  };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const provider = (env.SESSION_PROVIDER || 'simulator') as ProviderName;
  if (provider !== 'simulator' && provider !== 'baileys') {
    throw new Error(`session-host: SESSION_PROVIDER must be simulator or baileys, not ${provider}`);
  }
  // Fail at start, not on the first event: these are read lazily by the shared clients.
  for (const name of ['TABLE_NAME', 'MEDIA_BUCKET', 'WS_MANAGEMENT_URL']) required(env, name);
  const simulatorUrl = env.SIMULATOR_URL || undefined;
  if (provider === 'simulator' && !simulatorUrl) throw new Error('session-host: SESSION_PROVIDER=simulator needs SIMULATOR_URL');
  return {
    hostId: env.HOST_ID || `${hostname()}-${process.pid}`,
    provider,
    simulatorUrl,
    inboundQueueUrl: required(env, 'QUEUE_URL_INBOUND'),
    commandsQueueUrl: required(env, 'QUEUE_URL_SESSION_COMMANDS'),
    commandsMaxReceiveCount: messageQueues.find((q) => q.name === 'session-commands')?.maxReceiveCount ?? 5,
    cloudWatchEndpoint: env.CLOUDWATCH_ENDPOINT || undefined,
    timings: { ...defaultTimings, metricsMs: positiveMs(env, 'METRICS_INTERVAL_MS') ?? defaultTimings.metricsMs },
    placement: placementFromEnv(env),
  };
}
