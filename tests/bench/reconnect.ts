/**
 * Reconnect bench (issue 15): a deploy drops every socket at once and API Gateway opens 500 new
 * connections per second per account and Region (the local gateway enforces the same quota and
 * answers 429 over it, before $connect). --sockets web clients (the app's own RealtimeClient,
 * running in node over `ws`, with real tokens of several users of several tenants, so $connect does
 * its real work) are connected, dropped at once (the gateway's dropAll, 1001 Going Away) and left to
 * come back. Printed per second after the drop: connections accepted and upgrades refused (429);
 * then the time until all were back, the attempts, and what a reconnect costs ($connect latency as
 * the client sees it, DynamoDB requests per socket for its $disconnect and $connect).
 *
 * Two reconnect policies on the same clients, one drop each: "old", the client's before issue 15
 * (1 s x 0.75..1.25, doubling per failure: a crowd comes back within the same half second), and
 * "new", web/src/lib/realtime/reconnect-policy.ts (the first retry uniform over 0..5 s, the window
 * doubling per failure).
 *
 *   npm run bench:reconnect                                  (2,000 sockets at 500/s, old and new)
 *   npm run bench:reconnect -- --policy new --sockets 5000 --rate 500
 *
 * The stack's log goes to tests/artifacts/bench-reconnect.log.
 */
import { parseArgs } from 'node:util';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import { WebSocket } from 'ws';
import type { LocalStack } from '../../infra/local/stack.ts';
import { RealtimeClient } from '../../web/src/lib/realtime/realtime-client.ts';
import { reconnectDelayMs } from '../../web/src/lib/realtime/reconnect-policy.ts';
import { client, createTenant, firstPlanId, superLogin } from '../integration/tenants.ts';
import { percentile, sleep } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { BENCH_ADMIN, runBench } from './run-bench.ts';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '2000' },
    rate: { type: 'string', default: '500' },
    policy: { type: 'string', default: 'both' },
    tenants: { type: 'string', default: '10' },
    timeout: { type: 'string', default: '600' },
  },
});
const socketCount = Number(values.sockets);
const rate = Number(values.rate);
const tenantCount = Number(values.tenants);
const timeoutMs = Number(values.timeout) * 1000;
const QUIET_MS = 3000;

/** The client's policy before issue 15 (commit 2ea2626), replayed for comparison. */
const oldPolicy = (failures: number) => Math.min(30_000, 1000 * 2 ** failures) * (0.75 + Math.random() * 0.5);
const policies: Record<string, (failures: number) => number> = { old: oldPolicy, new: (failures) => reconnectDelayMs(failures) };
const runs = values.policy === 'both' ? ['old', 'new'] : [values.policy as string];
if (!runs.every((name) => name in policies)) throw new Error(`--policy old|new|both, not ${values.policy}`);

const bench = benchLog('reconnect');
const { say } = bench;

/** One drop: every attempt after it, by second, and what the accepted ones cost. */
interface Round {
  policy: string;
  droppedAt: number;
  accepted: number[];
  throttled: number[];
  /** Refused otherwise ($connect said no, the connection failed): should stay 0. */
  failed: number;
  /** From the upgrade request to open: the handshake and $connect. */
  connectMs: number[];
  lastOpenAt: number;
  /** When the clients saw the drop: their first and last close. */
  closedAt: { first: number; last: number };
  dynamoRequests: number;
  dynamoItems: number;
  dynamoMs: number[];
  cpuMs: number;
}
let round: Round | undefined;
let openSockets = 0;
/** Attempts that closed without opening, by the error `ws` gave (a 429 names the status). */
const failures = new Map<string, number>();
let resyncs = 0;
let dynamoRequests = 0;
let dynamoItems = 0;
let dynamoMs: number[] = [];

const bump = (list: number[], at: number) => {
  const second = Math.floor(at / 1000);
  while (list.length <= second) list.push(0);
  list[second] = (list[second] ?? 0) + 1;
};

/**
 * The WebSocket the clients create: `ws`'s, which tells a 429 from other refusals (its error names
 * the status). The clients' pings go out as in the app: the gateway answers them itself (routes.ts
 * gatewayAnsweredWsRoutes), so they cost the stack nothing. (When a Lambda answered them, 2,000
 * sockets' 111 pings a second each took a DynamoDB read and a PostToConnection, and a run stalled at
 * 1,370 of 2,000 sockets open; the bench held them back.)
 */
class BenchSocket extends WebSocket {
  constructor(url: string) {
    super(url);
    const started = performance.now();
    let opened = false;
    this.on('open', () => {
      opened = true;
      openSockets++;
      if (!round) return;
      const at = performance.now() - round.droppedAt;
      bump(round.accepted, at);
      round.connectMs.push(performance.now() - started);
      round.lastOpenAt = Math.max(round.lastOpenAt, at);
    });
    this.on('close', () => {
      if (!opened) return;
      openSockets--;
      if (!round) return;
      const at = performance.now() - round.droppedAt;
      round.closedAt = { first: Math.min(round.closedAt.first, at), last: Math.max(round.closedAt.last, at) };
    });
    this.on('error', (error: Error) => {
      if (opened) return;
      failures.set(error.message, (failures.get(error.message) ?? 0) + 1);
      if (!round) return;
      if (/\b429\b/.test(error.message)) bump(round.throttled, performance.now() - round.droppedAt);
      else round.failed++;
    });
  }
}
(globalThis as { WebSocket: unknown }).WebSocket = BenchSocket;

/** Waits for `check`, saying every 10 s how many sockets are open and why attempts failed. */
async function until(check: () => boolean, limitMs: number, what: string): Promise<void> {
  const started = Date.now();
  let said = started;
  while (!check()) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    if (Date.now() - said >= 10_000) {
      said = Date.now();
      const why = [...failures].map(([reason, count]) => `${count} ${reason}`).join(', ');
      say(`  ${Math.round((said - started) / 1000)} s: ${openSockets} open${why ? `; failed attempts so far: ${why}` : ''}`);
    }
    await sleep(50);
  }
}

const starting = { failureCode: 1, stackOptions: { wsNewConnectionsPerSecond: rate }, startingNote: `new connections: ${rate}/s` };
await runBench({ ...bench, ...starting }, async (stack) => {
  const clients: RealtimeClient[] = [];
  try {
    await reconnectRounds(stack, clients);
    return 0;
  } finally {
    for (const realtime of clients) realtime.close();
  }
});

/** Opens --sockets clients, then drops them all once per policy and waits for them to come back. */
async function reconnectRounds(stack: LocalStack, clients: RealtimeClient[]): Promise<void> {
  const call = client(stack.apiUrl);
  const superToken = await superLogin(call, BENCH_ADMIN);
  const planId = await firstPlanId(call);
  const tokens: string[] = [];
  for (let i = 0; i < tenantCount; i++) {
    const tenant = await createTenant(call, superToken, planId, `reconnect${i}`);
    tokens.push(tenant.admin.token, tenant.user.token);
  }
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      dynamoRequests++;
      const started = performance.now();
      const result = await next(args);
      dynamoMs.push(performance.now() - started);
      const output = result.output as { ScannedCount?: number; Item?: unknown };
      dynamoItems += output.ScannedCount ?? (output.Item ? 1 : 0);
      return result;
    },
    { step: 'initialize', name: 'reconnectBenchMeter' },
  );

  let policy = policies.new as (failures: number) => number;
  say(`opening ${socketCount} sockets for ${tokens.length} users of ${tenantCount} tenants...`);
  for (let i = 0; i < socketCount; i++) {
    const token = tokens[i % tokens.length] as string;
    const realtime = new RealtimeClient({
      wsUrl: stack.wsUrl,
      getToken: async () => token,
      onEvent: () => {},
      onReconnect: () => resyncs++,
      reconnectDelayMs: (failures) => policy(failures),
    });
    clients.push(realtime);
    realtime.start();
    // Under the quota, so the first connections need no retry.
    if (i % Math.max(1, Math.floor(rate / 10)) === 0) await sleep(125);
  }
  await until(() => openSockets === socketCount, timeoutMs, 'all sockets open');

  const results: Round[] = [];
  for (const name of runs) {
    // A full bucket and a quiet stack (the previous round's $disconnects done) before the drop; the
    // requests meanwhile (userStatus) are the background subtracted from the round's.
    await sleep(1000);
    const quietFrom = dynamoRequests;
    await sleep(QUIET_MS);
    const backgroundPerMs = (dynamoRequests - quietFrom) / QUIET_MS;
    policy = policies[name] as (failures: number) => number;
    const resyncsBefore = resyncs;
    const requestsBefore = dynamoRequests;
    const itemsBefore = dynamoItems;
    dynamoMs = [];
    const cpuBefore = process.cpuUsage();
    round = {
      policy: name,
      droppedAt: performance.now(),
      accepted: [],
      throttled: [],
      failed: 0,
      connectMs: [],
      lastOpenAt: 0,
      closedAt: { first: Number.POSITIVE_INFINITY, last: 0 },
      dynamoRequests: 0,
      dynamoItems: 0,
      dynamoMs: [],
      cpuMs: 0,
    };
    const dropped = stack.dropAllSockets(1001);
    say(`${name}: dropped ${dropped} sockets`);
    await until(() => resyncs - resyncsBefore >= socketCount, timeoutMs, `${name}: all sockets back`);
    // Let the last $disconnects and $connects finish before reading their requests.
    await sleep(2000);
    const cpu = process.cpuUsage(cpuBefore);
    round.dynamoRequests = dynamoRequests - requestsBefore - backgroundPerMs * (performance.now() - round.droppedAt);
    round.cpuMs = (cpu.user + cpu.system) / 1000;
    round.dynamoItems = dynamoItems - itemsBefore;
    round.dynamoMs = dynamoMs;
    results.push(round);
    round = undefined;
  }
  report(results);
}

function report(results: Round[]): void {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
  const seconds = Math.max(...results.map((r) => Math.max(r.accepted.length, r.throttled.length)));
  say(`\nreconnect curve after dropping ${socketCount} sockets at once (gateway quota ${rate} new connections/s):`);
  say(`${'second'.padEnd(8)}${results.map((r) => `${pad(`${r.policy} accepted`, 16)}${pad('429', 7)}`).join('  ')}`);
  for (let second = 0; second < seconds; second++) {
    const cells = results.map((r) => `${pad(r.accepted[second] ?? 0, 16)}${pad(r.throttled[second] ?? 0, 7)}`);
    say(`${`${second}-${second + 1}`.padEnd(8)}${cells.join('  ')}`);
  }
  say('');
  for (const r of results) {
    const accepted = sum(r.accepted);
    const throttled = sum(r.throttled);
    say(
      `${r.policy.padEnd(4)} all ${socketCount} back after ${(r.lastOpenAt / 1000).toFixed(1)} s; ` +
        `attempts ${accepted + throttled + r.failed} (${throttled} refused 429, ${r.failed} other failures); ` +
        `open latency (upgrade + $connect) p50 ${percentile(r.connectMs, 50).toFixed(0)} ms, p99 ${percentile(r.connectMs, 99).toFixed(0)} ms; ` +
        `DynamoDB requests per socket ($disconnect + $connect, net of the background) ${(r.dynamoRequests / socketCount).toFixed(1)}; ` +
        `this process's CPU ${(r.cpuMs / socketCount).toFixed(2)} ms per socket (gateway, handlers and clients)`,
    );
  }
  for (const r of results) {
    say(
      `${r.policy.padEnd(4)} the clients saw the drop from ${(r.closedAt.first / 1000).toFixed(1)} to ${(r.closedAt.last / 1000).toFixed(1)} s; ` +
        `DynamoDB items read per socket ${(r.dynamoItems / socketCount).toFixed(0)}, request p50 ${percentile(r.dynamoMs, 50).toFixed(0)} ms, p99 ${percentile(r.dynamoMs, 99).toFixed(0)} ms`,
    );
  }
  say(`resyncs asked: ${resyncs} for ${results.length * socketCount} reconnects (one per socket that opened again)`);
}
