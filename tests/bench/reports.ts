/**
 * Reports bench (issue 22 §4): two tenants on one local stack, a small one (1k tickets) and a large
 * one (100k), written straight into the table with the storage modules' own item builders and the
 * counters those tickets' lives would have kept (dashboard-counters.ts counterDeltas for each state
 * change, firstResponseDeltas for each first response: the functions the writers call, summed per
 * item), as bench:dashboard does. Both tenants' tickets spread over the same 30 days, 3 queues and
 * 2 attendants, so every counter item exists in both. For GET /reports/summary and
 * /reports/export.csv (the last 30 days) it prints the DynamoDB requests and items read of one
 * request (a middleware on the handlers' client: the Lambda handlers run in this process), and
 * p50/p95 over 20 requests through the local HTTP gateway; requests and items must be EQUAL at
 * both sizes (the reports never read a ticket).
 *
 *   npm run bench:reports                           (1k and 100k)
 *   npm run bench:reports -- --small 200 --large 2000   (a smoke run)
 *
 * The stack's log goes to tests/artifacts/bench-reports.log.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import {
  type CountedTicket,
  counterDeltas,
  dashboardPk,
  firstResponseDeltas,
  trackingFields,
} from '@conversa/functions/storage/dashboard-counters';
import { type TicketRecord, ticketStoredItems } from '@conversa/functions/storage/tickets';
import { startLocalStack } from '../../infra/local/stack.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok, percentile } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { writeAll } from './bulk-write.ts';

const { values } = parseArgs({ options: { small: { type: 'string', default: '1000' }, large: { type: 'string', default: '100000' } } });
const SIZES = [Number(values.small), Number(values.large)];
const RUNS = 20;
const DAYS = 30;
const TZ = 'America/Sao_Paulo';
const MIN = 60_000;

const { logFile, say } = benchLog('reports');

let seed = 11;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

type Totals = Map<string, Record<string, number>>;

function sum(totals: Totals, deltas: Totals) {
  for (const [sk, attrs] of deltas) {
    const item = totals.get(sk) ?? {};
    for (const [attr, n] of Object.entries(attrs)) item[attr] = (item[attr] ?? 0) + n;
    totals.set(sk, item);
  }
}

async function load(call: Call, raw: DynamoDBDocumentClient, table: string, tenant: Tenant, size: number): Promise<void> {
  const { companyId } = tenant;
  await ok(call, 'PUT', '/settings/timezone', { token: tenant.admin.token, body: { value: TZ } });
  const queueIds: number[] = [];
  for (const [name, color] of [
    ['Vendas', '#336699'],
    ['Suporte', '#993366'],
    ['Financeiro', '#669933'],
  ]) {
    queueIds.push((await ok<{ id: number }>(call, 'POST', '/queue', { token: tenant.admin.token, body: { name, color } })).id);
  }
  const users = [tenant.admin.id, tenant.user.id];
  const start = Date.now() - (DAYS - 1) * 24 * 60 * MIN;
  const totals: Totals = new Map();
  let items: Record<string, unknown>[] = [];
  for (let i = 1; i <= size; i++) {
    // Spread so that every (day, queue, shard) holds tickets at any size: shard = id mod 4.
    const day = Math.floor(i / 4) % DAYS;
    const queueId = queueIds[Math.floor(i / (4 * DAYS)) % queueIds.length] as number;
    const createdMs = start + day * 24 * 60 * MIN + Math.floor(rand() * 20 * 60) * MIN;
    const createdAt = new Date(createdMs).toISOString();
    const userId = users[i % users.length] as number;
    const base: TicketRecord = {
      id: i,
      uuid: randomUUID(),
      companyId,
      status: 'pending',
      userId: null,
      queueId,
      contactId: i,
      contact: { name: `Cliente ${i}`, number: `5511${String(900_000_000 + i)}`, profilePicUrl: '' },
      whatsappId: 1,
      isGroup: false,
      lastMessage: 'oi',
      lastMessageAt: createdMs,
      unreadMessages: 0,
      chatbot: false,
      bot: null,
      outOfHoursAt: null,
      awaitingRating: false,
      rating: null,
      ratedAt: null,
      useIntegration: false,
      promptId: null,
      integrationId: null,
      revision: 0,
      createdAt,
      updatedAt: createdAt,
    };
    // Its life: created pending, taken, answered (a first response), and most closed with a rating.
    let ticket: TicketRecord = { ...base, ...trackingFields(undefined, base, createdAt) };
    sum(totals, counterDeltas(undefined, ticket, createdAt, TZ));
    const step = (patch: Partial<TicketRecord>, atMs: number) => {
      const at = new Date(atMs).toISOString();
      const patched = { ...ticket, ...patch, updatedAt: at, revision: ticket.revision + 1 };
      const next = { ...patched, ...trackingFields(ticket, patched, at) };
      sum(totals, counterDeltas(ticket as CountedTicket, next, at, TZ));
      ticket = next;
    };
    if (i % 10 !== 0) {
      step({ status: 'open', userId }, createdMs + (1 + Math.floor(rand() * 30)) * MIN);
      const answeredAt = new Date(Date.parse(ticket.updatedAt) + Math.floor(rand() * 20 * MIN)).toISOString();
      sum(totals, firstResponseDeltas({ ...ticket, convAt: ticket.convAt as string }, userId, answeredAt, TZ));
      ticket = { ...ticket, respondedConvAt: ticket.convAt as string };
    }
    if (i % 10 > 3) {
      const rating = 1 + (i % 3);
      const at = Date.parse(ticket.updatedAt) + (25 + Math.floor(rand() * 60)) * MIN;
      step({ status: 'closed', rating, ratedAt: new Date(at).toISOString() }, at);
    }
    items.push(...ticketStoredItems(ticket));
    if (items.length >= 20_000) {
      await writeAll(raw, table, items);
      items = [];
    }
  }
  const counters = [...totals].map(([sk, attrs]) => ({ pk: dashboardPk(companyId), sk, entity: 'dashboardCounter', ...attrs }));
  await writeAll(raw, table, [...items, ...counters]);
  say(`  ${size} tickets, ${counters.length} counter items`);
}

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

say('starting the local stack...');
const admin = { email: 'bench@conversa.test', password: 'Bench-Admin-1' };
const stack = await startLocalStack({ ports: 'auto', log: (line) => logFile.write(`${line}\n`), seedAdmin: admin });
let exitCode = 0;
try {
  const call = client(stack.apiUrl);
  const superToken = await superLogin(call, admin);
  const planId = await firstPlanId(call);
  const raw = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: stack.env.DYNAMODB_ENDPOINT }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const table = stack.env.TABLE_NAME as string;
  const tenants: Tenant[] = [];
  for (const size of SIZES) {
    const tenant = await createTenant(call, superToken, planId, `rep${size}`);
    say(`loading ${size} tickets...`);
    const t0 = Date.now();
    await load(call, raw, table, tenant, size);
    say(`  loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    tenants.push(tenant);
  }
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
    const verdict = large.requests === small.requests && large.items === small.items ? 'ok' : 'FAIL';
    if (verdict !== 'ok') exitCode = 1;
    say(`${''.padEnd(26)}requests and items equal at ${SIZES[0]} and ${SIZES[1]} tickets: ${verdict}`);
  }
} catch (error) {
  say(String(error instanceof Error ? error.stack : error));
  exitCode = 1;
} finally {
  await stack.stop();
  logFile.end();
}
process.exit(exitCode);
