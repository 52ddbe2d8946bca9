/**
 * What bench:cost counts in a window of a scenario, as AWS bills it (prices in aws-prices.ts):
 *
 * - Lambda: every handler invocation (infra/local/lambda-runtime.ts `invocationHook`), its
 *   function and its duration in this process, less the time write-units.ts spent reading item
 *   images for it. Scheduled jobs are tallied apart (a region's fixed cost, not a scenario's).
 * - DynamoDB, the handlers: only requests made inside an invocation (the bench's own reads and the
 *   stand-ins' are not the product's). Read units as DynamoDB Local reports them
 *   (ReturnConsumedCapacity INDEXES, set on every request), write units per partition from
 *   write-units.ts (DynamoDB Local reports a transactional write at 4 units a KB where AWS charges 2;
 *   its total is kept beside as a check).
 * - DynamoDB, the session-host: its requests and the units DynamoDB Local reports, from the lines
 *   session-host-meter.mjs writes in the child.
 * - SQS: every request the local queue served, by action and queue (inbound-meter.ts `sqsByQueue`).
 * - API Gateway WebSocket and S3: the handlers' requests to them (`@connections` posts, objects).
 * - CloudWatch Logs: the bytes the handlers write to stdout and stderr during an invocation.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import { jobs } from '@conversa/functions/declarations/jobs';
import { managementClient } from '@conversa/functions/realtime/management';
import { invocationHook, repoRoot } from '../../infra/local/lambda-runtime.ts';
import { counts, meterClientsOf, sqsByQueue } from './inbound-meter.ts';
import { meterWriteUnits } from './write-units.ts';

export interface Invocations {
  count: number;
  /** Billed milliseconds: each invocation's duration rounded up to 1 ms. */
  billedMs: number;
  /** SQS records handed to the function (consumers). */
  records: number;
  /** What write-units.ts spent reading item images, taken out of billedMs. */
  meterMs: number;
}

/** One window's counts. */
export interface Tally {
  invocations: Map<string, Invocations>;
  /** Read units by table or index ("table", "gsi1", ...). */
  readUnits: Map<string, number>;
  /** Write units by partition ("table C#12#...", "gsi1 ..."). */
  writeUnits: Map<string, number>;
  /** What DynamoDB Local reported for the same writes (a check, never billed). */
  localWriteUnits: number;
  /** Requests by "<service> <command>" (DynamoDB, WebSocket, S3). */
  requests: Map<string, number>;
  /** The session-host's DynamoDB requests by command, and its units (in all, and by command). */
  host: { requests: Map<string, number>; readUnits: number; writeUnits: number; unitsByCommand: Map<string, number> };
  /** SQS requests served, by "<action> <queue>". */
  sqs: Map<string, number>;
  logBytes: number;
}

const emptyTally = (): Tally => ({
  invocations: new Map(),
  readUnits: new Map(),
  writeUnits: new Map(),
  localWriteUnits: 0,
  requests: new Map(),
  host: { requests: new Map(), readUnits: 0, writeUnits: 0, unitsByCommand: new Map() },
  sqs: new Map(),
  logBytes: 0,
});

const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

interface Invocation {
  tally: Tally;
  /** Time write-units.ts spent on this invocation's writes (not the function's). */
  meterMs: number;
}
const invocation = new AsyncLocalStorage<Invocation>();
const jobNames = new Set(jobs.map((job) => `conversa-${job.name}`));
/** The scheduled jobs' invocations over the whole run (a region's fixed cost). */
export const jobsTally = emptyTally();
let current: Tally | undefined;

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
type Capacity = {
  TableName?: string;
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
};
const capacities = (output: unknown): Capacity[] => {
  const consumed = (output as { ConsumedCapacity?: Capacity | Capacity[] } | undefined)?.ConsumedCapacity;
  return consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
};

/** Counts the requests of an SDK client's stack into the running invocation's tally. */
function countRequests(service: string, stack: { add: (mw: never, options: { step: 'initialize'; name: string }) => void }): void {
  stack.add(
    ((next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: Record<string, unknown> }) => {
      const tally = invocation.getStore()?.tally;
      if (!tally) return next(args);
      const command = context.commandName?.replace(/Command$/, '') ?? '?';
      add(tally.requests, `${service} ${command}`, 1);
      if (service !== 'DynamoDB') return next(args);
      args.input.ReturnConsumedCapacity ??= 'INDEXES';
      const out = (await next(args)) as { output?: unknown };
      for (const capacity of capacities(out.output)) {
        if (!READS.has(command)) {
          tally.localWriteUnits += capacity.CapacityUnits ?? 0;
          continue;
        }
        add(
          tally.readUnits,
          'table',
          capacity.Table?.CapacityUnits ?? (capacity.GlobalSecondaryIndexes ? 0 : (capacity.CapacityUnits ?? 0)),
        );
        for (const [index, units] of Object.entries(capacity.GlobalSecondaryIndexes ?? {}))
          add(tally.readUnits, index, units.CapacityUnits ?? 0);
      }
      return out;
    }) as never,
    { step: 'initialize', name: 'costBenchMeter' },
  );
}

/** The session-host's lines (session-host-meter.mjs) and where this process has read to. */
const hostFile = join(repoRoot, 'tests', 'artifacts', `cost-session-host-${process.pid}.jsonl`);
let hostRead = 0;
function readHostLines(into: Tally | undefined): void {
  let text = '';
  try {
    text = readFileSync(hostFile, 'utf8');
  } catch {
    return;
  }
  const lines = text.slice(hostRead).split('\n');
  const rest = lines.pop() ?? '';
  hostRead = text.length - rest.length;
  if (!into) return;
  for (const line of lines) {
    const entry = JSON.parse(line) as { command: string; capacity?: Capacity | Capacity[]; failed?: string };
    const command = entry.command.replace(/Command$/, '');
    add(into.host.requests, command, 1);
    // A failed conditional write is charged by AWS and reported by nobody: one unit (the host's items are small).
    const failed = entry.failed === 'ConditionalCheckFailedException' ? 1 : 0;
    const units = capacities({ ConsumedCapacity: entry.capacity }).reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), failed);
    if (/^(Get|Query|Scan|BatchGet)/.test(command)) into.host.readUnits += units;
    else into.host.writeUnits += units;
    add(into.host.unitsByCommand, command, units);
  }
}

/**
 * Before the stack starts: the session-host child inherits NODE_OPTIONS and loads its meter.
 * Returns the installer of this process's meters, to call once the stack runs.
 */
export function prepareCostMeter(): (env: Record<string, string>) => Promise<void> {
  writeFileSync(hostFile, '');
  process.env.COST_SESSION_HOST_METER = hostFile;
  const preload = pathToFileURL(join(repoRoot, 'tests', 'bench', 'session-host-meter.mjs')).href;
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim();
  return async (env) => {
    invocationHook.around = async (functionName, event, invoke) => {
      const tally = jobNames.has(functionName) ? jobsTally : current;
      if (!tally) return invoke();
      const state: Invocation = { tally, meterMs: 0 };
      const started = performance.now();
      try {
        return await invocation.run(state, invoke);
      } finally {
        // The socket's function by route ($connect, userStatus...): a route other than $connect/$disconnect is a message billed.
        const route = (event as { requestContext?: { routeKey?: string } } | undefined)?.requestContext?.routeKey;
        const key = functionName === 'conversa-realtime' && route ? `${functionName} ${route}` : functionName;
        const entry = tally.invocations.get(key) ?? { count: 0, billedMs: 0, records: 0, meterMs: 0 };
        entry.count++;
        entry.billedMs += Math.max(1, Math.ceil(performance.now() - started - state.meterMs));
        entry.records += (event as { Records?: unknown[] } | undefined)?.Records?.length ?? 0;
        entry.meterMs += state.meterMs;
        tally.invocations.set(key, entry);
      }
    };
    const reader = DynamoDBDocumentClient.from(new DynamoDBClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT }));
    meterWriteUnits(documentClient(), reader, env.TABLE_NAME as string, {
      enabled: () => invocation.getStore() !== undefined,
      charge: (partition, wcu) => {
        const tally = invocation.getStore()?.tally;
        if (tally) add(tally.writeUnits, partition, wcu);
      },
      spent: (ms) => {
        const state = invocation.getStore();
        if (state) state.meterMs += ms;
      },
    });
    countRequests('DynamoDB', documentClient().middlewareStack as never);
    countRequests('WebSocket', (await managementClient()).middlewareStack as never);
    meterClientsOf('S3', S3Client, countRequests);
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        const tally = invocation.getStore()?.tally;
        if (tally) tally.logBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : ((chunk as Uint8Array).byteLength ?? 0);
        return write(chunk, ...rest);
      }) as typeof stream.write;
    }
  };
}

/** Counts from now into a new tally, until `stop` (which waits for the session-host's last lines). */
export function startWindow(): { tally: Tally; stop: () => Promise<Tally> } {
  readHostLines(undefined);
  const tally = emptyTally();
  const sqsBefore = new Map(sqsByQueue);
  current = tally;
  counts.on = true;
  return {
    tally,
    stop: async () => {
      current = undefined;
      counts.on = false;
      // The child flushes its lines every 250 ms; SQS bodies are counted when they end.
      await new Promise((resolve) => setTimeout(resolve, 600));
      readHostLines(tally);
      for (const [key, n] of sqsByQueue) if (n - (sqsBefore.get(key) ?? 0) > 0) tally.sqs.set(key, n - (sqsBefore.get(key) ?? 0));
      return tally;
    },
  };
}
