/**
 * Dashboard bench (issue 12): two tenants on one local stack, a small one (1k tickets) and a large
 * one (100k tickets), written straight into the table (ticket-lives.ts) with the storage modules' own item builders
 * (tickets.ts ticketStoredItems) and the dashboard counters those tickets' lives would have kept
 * (dashboard-counters.ts counterDeltas, the function the ticket writers call, stored as the writers
 * store it, storedDeltas, summed per item). Both tenants' tickets spread over the same 30 days, 3
 * queues and 2 attendants, so every counter item exists in both. For GET /dashboard (the last 30
 * days), /dashboard/ticketsUsers and /dashboard/ticketsDay it prints, for one request, the DynamoDB
 * requests, items, their bytes (DynamoDB's item size) and the read units DynamoDB Local charged (a
 * middleware on the handlers' client: the Lambda handlers run in this process), then p50/p95 over
 * 30 requests through the local HTTP gateway and the CPU per request of this process (handlers,
 * gateway) and of DynamoDB Local, which carry on a busy machine where latencies do not. It checks
 * requests and items at 100k within 10% of 1k, and prints the other ratios large/small: bytes, read
 * units, CPU and the p50 (the issue 24 goal: within 10%; on a shared machine compare p50s only over
 * runs taken in turns).
 * The stored counter items' sizes are printed after each load (the largest bounds the write units
 * of a change: DynamoDB charges an update the larger of the item's sizes before and after).
 *
 *   npm run bench:dashboard                        (1k and 100k)
 *   npm run bench:dashboard -- --small 200 --large 2000   (a smoke run)
 *
 * The stack's log goes to tests/artifacts/bench-dashboard.log.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import type { Call, Tenant } from '../integration/tenants.ts';
import { percentile } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { BENCH_ADMIN, runBench } from './run-bench.ts';
import { DAYS, loadTenants, TZ } from './ticket-lives.ts';

const { values } = parseArgs({ options: { small: { type: 'string', default: '1000' }, large: { type: 'string', default: '100000' } } });
const SIZES = [Number(values.small), Number(values.large)];
const RUNS = 30;
const MIN = 60_000;

const bench = benchLog('dashboard');
const { say } = bench;

/** The stored counter items' sizes, D and R apart (the largest bounds a change's write units). */
function sayItemSizes(counters: Record<string, unknown>[]): void {
  for (const prefix of ['D', 'R']) {
    const sizes = counters.filter((c) => String(c.sk).startsWith(`${prefix}#`)).map(itemBytes);
    if (sizes.length)
      say(
        `    ${prefix} items: ${sizes.length}, bytes avg ${Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length)}, max ${Math.max(...sizes)}`,
      );
  }
}

/** DynamoDB's size of an item: names plus values (a number ~1 byte per 2 significant digits, plus 1). */
function itemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += Buffer.byteLength(name);
    if (typeof value === 'number') bytes += Math.ceil(String(Math.abs(value)).replace(/^0+|\.|0+$/g, '').length / 2) + 1;
    else bytes += Buffer.byteLength(String(value));
  }
  return bytes;
}

/** One request's DynamoDB requests, items read, their bytes (DynamoDB's item size) and the read units charged. */
const meter = { requests: 0, items: 0, bytes: 0, rcu: 0 };

interface Figures {
  requests: number;
  items: number;
  bytes: number;
  rcu: number;
  p50: number;
  p95: number;
  /** CPU ms per request: this process (handlers, gateway) and DynamoDB Local. */
  cpu: { node: number; dynamodb: number };
  summary: string;
}

interface Runs {
  counts: { requests: number; items: number; bytes: number; rcu: number }[];
  times: number[];
  cpu: { node: number; dynamodb: number };
  last: string;
}

/** The stack's DynamoDB Local process (found once the stack runs): its CPU ms from /proc (Linux; 0 elsewhere). */
let dynamoDbPid: string | undefined;
function findDynamoDb(port: string) {
  dynamoDbPid = readdirSync('/proc').find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && argv.includes(port);
    } catch {
      return false;
    }
  });
}
function dynamoDbCpuMs(): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in 1/100 s.
    const fields = (readFileSync(`/proc/${dynamoDbPid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const newRuns = (): Runs => ({ counts: [], times: [], cpu: { node: 0, dynamodb: 0 }, last: '' });

async function run(call: Call, tenant: Tenant, path: string, summary: (body: unknown) => string, into: Runs): Promise<void> {
  meter.requests = 0;
  meter.items = 0;
  meter.bytes = 0;
  meter.rcu = 0;
  const node = process.cpuUsage();
  const dynamodb = dynamoDbCpuMs();
  const started = performance.now();
  const res = await call('GET', path, { token: tenant.admin.token });
  into.times.push(performance.now() - started);
  const spent = process.cpuUsage(node);
  into.cpu.node += (spent.user + spent.system) / 1000;
  into.cpu.dynamodb += dynamoDbCpuMs() - dynamodb;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  into.counts.push({ ...meter });
  into.last = summary(res.body);
}

/**
 * The two tenants' requests taken in turns (small, large, small...) after a few unmeasured ones, so
 * whatever else the machine does, and the handlers' warming up, weigh on both sizes alike.
 */
async function measurePair(
  call: Call,
  tenants: [Tenant, Tenant],
  path: string,
  summary: (body: unknown) => string,
): Promise<[Figures, Figures]> {
  const warmup = newRuns();
  for (let i = 0; i < 3; i++) for (const tenant of tenants) await run(call, tenant, path, summary, warmup);
  const runs: [Runs, Runs] = [newRuns(), newRuns()];
  for (let i = 0; i < RUNS; i++) {
    await run(call, tenants[0], path, summary, runs[0]);
    await run(call, tenants[1], path, summary, runs[1]);
  }
  return [figuresOf(runs[0]), figuresOf(runs[1])];
}

function figuresOf({ counts, times, cpu, last }: Runs): Figures {
  return {
    requests: percentile(
      counts.map((c) => c.requests),
      50,
    ),
    items: percentile(
      counts.map((c) => c.items),
      50,
    ),
    bytes: percentile(
      counts.map((c) => c.bytes),
      50,
    ),
    rcu: percentile(
      counts.map((c) => c.rcu),
      50,
    ),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    cpu: { node: cpu.node / times.length, dynamodb: cpu.dynamodb / times.length },
    summary: last,
  };
}

await runBench({ ...bench, failureCode: 1 }, async (stack) => {
  let exitCode = 0;
  findDynamoDb(new URL(stack.env.DYNAMODB_ENDPOINT as string).port);
  const { call, tenants } = await loadTenants(stack, BENCH_ADMIN, {
    prefix: 'dash',
    sizes: SIZES,
    lives: { seed: 7, firstResponses: false },
    say,
    onLoaded: sayItemSizes,
  });
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      meter.requests++;
      // The handlers' reads ask for no capacity report: the meter asks (DynamoDB Local computes it as DynamoDB does).
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const output = result.output as {
        ScannedCount?: number;
        Item?: Record<string, unknown>;
        Items?: Record<string, unknown>[];
        Responses?: Record<string, Record<string, unknown>[]>;
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
      };
      const read = [...(output.Item ? [output.Item] : []), ...(output.Items ?? []), ...Object.values(output.Responses ?? {}).flat()];
      meter.items += output.ScannedCount ?? read.length;
      meter.bytes += read.reduce((n, item) => n + itemBytes(item), 0);
      meter.rcu += [output.ConsumedCapacity ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      return result;
    },
    { step: 'initialize', name: 'dashboardBenchMeter' },
  );
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
  const from = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date(Date.now() - (DAYS - 1) * 24 * 60 * MIN));
  const scenarios: [string, string, (body: unknown) => string][] = [
    [
      'GET /dashboard (30 days)',
      `/dashboard?days=${DAYS}`,
      (b) => {
        const c = (b as { counters: Record<string, number> }).counters;
        return `finished ${c.supportFinished}, open ${c.supportHappening}, waiting ${c.supportPending}, support ${c.avgSupportTime} min, wait ${c.avgWaitTime} min`;
      },
    ],
    [
      'ticketsUsers',
      `/dashboard/ticketsUsers?initialDate=${from}&finalDate=${today}`,
      (b) => JSON.stringify((b as { data: unknown }).data),
    ],
    ['ticketsDay', `/dashboard/ticketsDay?initialDate=${from}&finalDate=${today}`, (b) => `count ${(b as { count: number }).count}`],
  ];
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  say(
    `\n${'scenario'.padEnd(26)}${pad('tickets', 9)}${pad('requests', 10)}${pad('items', 8)}${pad('KB', 7)}${pad('RCU', 6)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('CPU node', 10)}${pad('ddb', 6)}`,
  );
  for (const [name, path, summary] of scenarios) {
    const [small, large] = await measurePair(call, [tenants[0] as Tenant, tenants[1] as Tenant], path, summary);
    for (const [size, f] of [
      [SIZES[0], small],
      [SIZES[1], large],
    ] as const)
      say(
        `${name.padEnd(26)}${pad(size as number, 9)}${pad(f.requests, 10)}${pad(f.items, 8)}${pad((f.bytes / 1024).toFixed(0), 7)}${pad(f.rcu, 6)}${pad(f.p50.toFixed(1), 9)}${pad(f.p95.toFixed(1), 9)}${pad(f.cpu.node.toFixed(1), 10)}${pad(f.cpu.dynamodb.toFixed(1), 6)}   ${f.summary}`,
      );
    const requestRatio = large.requests / small.requests;
    const itemRatio = large.items / small.items;
    const verdict = Math.abs(requestRatio - 1) <= 0.1 && Math.abs(itemRatio - 1) <= 0.1 ? 'ok' : 'FAIL';
    if (verdict !== 'ok') exitCode = 1;
    say(`${''.padEnd(26)}ratios large/small: requests ${requestRatio.toFixed(2)}, items ${itemRatio.toFixed(2)}  ${verdict}`);
    // The issue 24 goal is the p50 within 10%: printed with what carries on a busy machine, not a verdict.
    const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : '-');
    say(
      `${''.padEnd(26)}  bytes ${ratio(large.bytes, small.bytes)}, RCU ${ratio(large.rcu, small.rcu)}, CPU node ${ratio(large.cpu.node, small.cpu.node)}, DynamoDB Local ${ratio(large.cpu.dynamodb, small.cpu.dynamodb)}, p50 ${ratio(large.p50, small.p50)} (goal <= 1.10)`,
    );
  }
  return exitCode;
});
