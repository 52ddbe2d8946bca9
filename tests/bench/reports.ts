/**
 * Reports bench (issue 22 §4): two tenants on one local stack, a small one (1k tickets) and a large
 * one (100k), written straight into the table (ticket-lives.ts) with the storage modules' own item builders and the
 * counters those tickets' lives would have kept (dashboard-counters.ts counterDeltas for each state
 * change, firstResponseDeltas for each first response: the functions the writers call, summed per
 * item), as bench:dashboard does. Both tenants' tickets spread over the same 30 days, 3 queues and
 * 2 attendants, so every counter item exists in both. For GET /reports/summary and
 * /reports/export.csv (the last 30 days) it prints the DynamoDB requests and items read of one
 * request (a middleware on the handlers' client: the Lambda handlers run in this process), and
 * p50/p95 over 20 requests through the local HTTP gateway; requests must be equal at both sizes and
 * items within 10% (the reports never read a ticket; a counter's R items exist per attendant a day,
 * queue and shard credited, so a small tenant has a few fewer of them: 1,052 at 1k, 1,081 at 3k).
 *
 *   npm run bench:reports                           (1k and 100k)
 *   npm run bench:reports -- --small 200 --large 2000   (a smoke run)
 *
 * The stack's log goes to tests/artifacts/bench-reports.log.
 */
import { parseArgs } from 'node:util';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import type { Call, Tenant } from '../integration/tenants.ts';
import { percentile } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { BENCH_ADMIN, runBench } from './run-bench.ts';
import { DAYS, loadTenants, TZ } from './ticket-lives.ts';

const { values } = parseArgs({ options: { small: { type: 'string', default: '1000' }, large: { type: 'string', default: '100000' } } });
const SIZES = [Number(values.small), Number(values.large)];
const RUNS = 20;
const MIN = 60_000;

const bench = benchLog('reports');
const { say } = bench;

/** One request's DynamoDB requests and items read. */
const meter = { requests: 0, items: 0 };

interface Figures {
  requests: number;
  items: number;
  p50: number;
  p95: number;
  summary: string;
}

async function measure(
  call: Call,
  tenant: Tenant,
  path: string,
  summary: (res: { body: unknown; text: string }) => string,
): Promise<Figures> {
  const counts: { requests: number; items: number }[] = [];
  const times: number[] = [];
  let last = '';
  for (let i = 0; i < RUNS + 3; i++) {
    meter.requests = 0;
    meter.items = 0;
    const started = performance.now();
    const res = await call('GET', path, { token: tenant.admin.token });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    // The first three warm the handler and its read caches up.
    if (i < 3) continue;
    times.push(performance.now() - started);
    counts.push({ ...meter });
    last = summary(res);
  }
  return {
    requests: percentile(
      counts.map((c) => c.requests),
      50,
    ),
    items: percentile(
      counts.map((c) => c.items),
      50,
    ),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    summary: last,
  };
}

await runBench({ ...bench, failureCode: 1 }, async (stack) => {
  let exitCode = 0;
  const { call, tenants } = await loadTenants(stack, BENCH_ADMIN, {
    prefix: 'rep',
    sizes: SIZES,
    lives: { seed: 11, firstResponses: true },
    say,
  });
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      meter.requests++;
      const result = await next(args);
      const output = result.output as { ScannedCount?: number; Item?: unknown; Responses?: Record<string, unknown[]> };
      meter.items += output.ScannedCount ?? (output.Item ? 1 : 0) + Object.values(output.Responses ?? {}).reduce((n, r) => n + r.length, 0);
      return result;
    },
    { step: 'initialize', name: 'reportsBenchMeter' },
  );
  const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date(ms));
  const query = `from=${day(Date.now() - (DAYS - 1) * 24 * 60 * MIN)}&to=${day(Date.now())}`;
  const scenarios: [string, string, (res: { body: unknown; text: string }) => string][] = [
    [
      'GET /reports/summary',
      `/reports/summary?${query}`,
      ({ body }) => {
        const b = body as { firstResponse: { median: number; p90: number; count: number }; resolution: { median: number; count: number } };
        return `first response median ${b.firstResponse.median} s p90 ${b.firstResponse.p90} s (${b.firstResponse.count}), resolution median ${b.resolution.median} s (${b.resolution.count})`;
      },
    ],
    ['GET /reports/export.csv', `/reports/export.csv?${query}`, ({ text }) => `${text.trim().split('\n').length} rows`],
  ];
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  say(`\n${'scenario'.padEnd(26)}${pad('tickets', 9)}${pad('requests', 10)}${pad('items', 8)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}`);
  for (const [name, path, summary] of scenarios) {
    const small = await measure(call, tenants[0] as Tenant, path, summary);
    const large = await measure(call, tenants[1] as Tenant, path, summary);
    for (const [size, f] of [
      [SIZES[0], small],
      [SIZES[1], large],
    ] as const)
      say(
        `${name.padEnd(26)}${pad(size as number, 9)}${pad(f.requests, 10)}${pad(f.items, 8)}${pad(f.p50.toFixed(1), 9)}${pad(f.p95.toFixed(1), 9)}   ${f.summary}`,
      );
    const verdict = large.requests === small.requests && large.items <= small.items * 1.1 ? 'ok' : 'FAIL';
    if (verdict !== 'ok') exitCode = 1;
    say(`${''.padEnd(26)}requests equal and items within 10% at ${SIZES[0]} and ${SIZES[1]} tickets: ${verdict}`);
  }
  return exitCode;
});
