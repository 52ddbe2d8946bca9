/**
 * Ticket list bench (issue 4): two tenants on one local stack, a small one (1k tickets, 1k contacts,
 * 5k messages) and a large one (100k tickets, 100k contacts, 500k messages), written straight into
 * the table (parallel BatchWriteItem) with the storage modules' own item builders, so every list,
 * tag and search index item exists as the API would have written it. For each scenario it prints
 * the DynamoDB requests and items read of one request (a middleware on the handlers' client: the
 * Lambda handlers run in this process) and p50/p95 over 50 requests through the local HTTP gateway
 * with the tenant admin's token, with the p50 of the time a request had a DynamoDB request in flight
 * (`ddb ms`: DynamoDB Local and the SDK's own work, measured at the handlers' client; the rest of p50
 * is the gateway, the handler and the bench's HTTP client), then checks: requests and items at 100k within 10% of 1k, and
 * the page's items read (list and search index partitions, tickets, contacts, messages: not the
 * fixed reads of any request, the caller's user/company/plan and the tenant's queues/connections,
 * which the table prints within `items`) within 2x the rows returned.
 *
 *   npm run bench:ticket-list                       (1k and 100k)
 *   npm run bench:ticket-list -- --large 20000      (a quicker run)
 *   npm run bench:ticket-list -- --small 200 --large 400   (a smoke run: does it work)
 *   npm run bench:ticket-list -- --list-shards 4     (both tenants' lists write-sharded, as a busy
 *                                                      tenant's are: functions/src/storage/list-shards.ts)
 *
 * The stack's log goes to tests/artifacts/bench-ticket-list.log.
 */
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import { raiseListShards } from '@conversa/functions/storage/companies/companies';
import { contactStoredItems } from '@conversa/functions/storage/contacts/contacts';
import { primeListShards } from '@conversa/functions/storage/list-shards';
import { messageItems, messageSearchItems } from '@conversa/functions/storage/messages/messages';
import { newTicketRecord } from '@conversa/functions/storage/tickets/record';
import { ticketStoredItems } from '@conversa/functions/storage/tickets/tickets';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok, percentile } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { writeAll } from './bulk-write.ts';
import { BENCH_ADMIN, runBench } from './run-bench.ts';

const { values } = parseArgs({
  options: {
    small: { type: 'string', default: '1000' },
    large: { type: 'string', default: '100000' },
    'list-shards': { type: 'string', default: '1' },
  },
});
const LIST_SHARDS = Number(values['list-shards']);
const SIZES = [Number(values.small), Number(values.large)];
const MESSAGES_PER_TICKET = 5;
const RUNS = 50;

const bench = benchLog('ticket-list');
const { say } = bench;

const FIRST =
  'Maria Ana Jose Joao Antonio Francisca Carlos Paulo Pedro Lucas Luiz Marcos Luis Gabriel Rafael Daniel Marcelo Bruno Eduardo Felipe'.split(
    ' ',
  );
const LAST =
  'Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa'.split(
    ' ',
  );
const WORDS =
  'pedido entrega boleto atraso produto troca cancelamento pagamento cartao pix frete endereco prazo nota fiscal garantia defeito tamanho cor estoque cupom desconto compra site aplicativo senha cadastro conta retirada loja horario atendimento reembolso devolucao'.split(
    ' ',
  );
// A deterministic generator: both tenants get the same shape of data.
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)] as T;

interface Scenario {
  name: string;
  path: (ctx: Loaded) => string;
  rows: (body: unknown) => number;
}
interface Loaded {
  tenant: Tenant;
  queueIds: number[];
  messagesTicketId: number;
}

const ticketsOf = (body: unknown) => (body as { tickets: unknown[] }).tickets.length;
const scenarios: Scenario[] = [
  { name: 'open list (showAll)', path: () => '/tickets?status=open&showAll=true&pageNumber=1', rows: ticketsOf },
  {
    name: 'pending, queueIds',
    path: (c) => `/tickets?status=pending&queueIds=${encodeURIComponent(JSON.stringify(c.queueIds.slice(0, 2)))}`,
    rows: ticketsOf,
  },
  { name: 'search contact name', path: () => '/tickets?showAll=true&searchParam=marcos', rows: ticketsOf },
  // A word of the messages only (no contact's name holds it): the message words' index (issue 24).
  { name: 'search message text', path: () => '/tickets?showAll=true&searchParam=reembolso', rows: ticketsOf },
  { name: 'contacts search', path: () => '/contacts?searchParam=oliveira', rows: (b) => (b as { contacts: unknown[] }).contacts.length },
  {
    // Issue 4: "a page of 100 messages" (GET /messages takes limit up to 100; the web's pages are 20).
    name: 'messages page (100)',
    path: (c) => `/messages/${c.messagesTicketId}?limit=100`,
    rows: (b) => (b as { messages: unknown[] }).messages.length,
  },
];

async function load(call: Call, raw: DynamoDBDocumentClient, table: string, tenant: Tenant, size: number): Promise<Loaded> {
  const { companyId } = tenant;
  const queueIds: number[] = [];
  for (const [name, color] of [
    ['Vendas', '#336699'],
    ['Suporte', '#993366'],
    ['Financeiro', '#669933'],
  ]) {
    const queue = await ok<{ id: number }>(call, 'POST', '/queue', { token: tenant.admin.token, body: { name, color } });
    queueIds.push(queue.id);
  }
  const users = [tenant.admin.id, tenant.user.id];
  const base = Date.parse('2030-01-01T00:00:00Z');
  let items: Record<string, unknown>[] = [];
  let written = 0;
  const flush = async (force = false) => {
    if (items.length < 20_000 && !force) return;
    // A word of several messages of one ticket is one index item (the API overwrites it): write it once.
    const chunk = [...new Map(items.map((item) => [`${item.pk}|${item.sk}`, item])).values()];
    items = [];
    await writeAll(raw, table, chunk);
    written += chunk.length;
  };
  let messagesTicketId = 0;
  for (let i = 1; i <= size; i++) {
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    const number = `55${11 + (i % 80)}9${String(10_000_000 + i).padStart(8, '0')}`;
    const createdAt = new Date(base + i * 60_000).toISOString();
    const contact = {
      id: i,
      companyId,
      name,
      number,
      email: '',
      profilePicUrl: '',
      isGroup: false,
      extraInfo: [],
      createdAt,
      updatedAt: createdAt,
    };
    items.push(...contactStoredItems(contact as never));
    const roll = rand();
    const status = roll < 0.3 ? 'open' : roll < 0.7 ? 'pending' : 'closed';
    const updatedAt = new Date(base + i * 60_000 + Math.floor(rand() * 3_600_000)).toISOString();
    const bodies = Array.from({ length: MESSAGES_PER_TICKET }, () => Array.from({ length: 3 }, () => pick(WORDS)).join(' '));
    const ticket = newTicketRecord({
      id: i,
      companyId,
      status,
      userId: status === 'pending' ? null : pick(users),
      queueId: rand() < 0.1 ? null : pick(queueIds),
      contactId: i,
      contact: { name, number, profilePicUrl: '' },
      whatsappId: 1,
      isGroup: false,
      lastMessage: bodies.at(-1) as string,
      lastMessageAt: Date.parse(updatedAt),
      unreadMessages: status === 'pending' ? 1 : 0,
      revision: 1,
      createdAt,
      updatedAt,
    });
    items.push(...ticketStoredItems(ticket));
    // One conversation long enough for a full messages page of 100.
    const count = i === 1 ? 120 : MESSAGES_PER_TICKET;
    if (i === 1) messagesTicketId = i;
    for (let m = 0; m < count; m++) {
      const at = new Date(Date.parse(createdAt) + m * 1000).toISOString();
      const message = {
        id: `${(Date.parse(at) * 1000 + m).toString(16).padStart(16, '0')}-${i}`,
        companyId,
        ticketId: i,
        contactId: i,
        whatsappId: 1,
        body: bodies[m % bodies.length] as string,
        fromMe: m % 2 === 1,
        read: true,
        ack: 3,
        mediaType: null,
        mediaPath: null,
        mediaUrl: null,
        mediaName: null,
        quotedMsgId: null,
        quotedMsg: null,
        contact: null,
        waId: null,
        pending: false,
        isDeleted: false,
        isEdited: false,
        createdAt: at,
        updatedAt: at,
      };
      for (const put of messageItems(message as never)) if (put.Put?.Item) items.push(put.Put.Item);
      items.push(...messageSearchItems(message as never));
    }
    await flush();
  }
  await flush(true);
  say(`  ${written} items`);
  return { tenant, queueIds, messagesTicketId };
}

interface Figures {
  requests: number;
  items: number;
  /** Items of the page itself (see readsThePage). */
  pageItems: number;
  rows: number;
  p50: number;
  p95: number;
  /** p50 of the time with at least one DynamoDB request in flight (parallel requests counted once). */
  ddb: number;
}

const meter = { requests: 0, items: 0, pageItems: 0, ddbMs: 0 };
let inFlight = 0;
let inFlightSince = 0;

type ReadInput = {
  IndexName?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
  Key?: Record<string, unknown>;
  RequestItems?: Record<string, { Keys?: Record<string, unknown>[] }>;
};
const text = (value: unknown): string => (typeof value === 'string' ? value : String((value as { S?: string } | undefined)?.S ?? ''));
/**
 * Reads of the page itself: list and search index partitions, tickets, contacts and messages. The
 * rest (the caller's user, company and plan; the tenant's queues and connections for the rows'
 * names) is a fixed cost of any request, the same at any size.
 */
function readsThePage(input: ReadInput): boolean {
  const pageKey = (pk: string) => /#(TK|CT|SRCH|TG)#/.test(pk);
  if (input.IndexName) return true;
  if (input.ExpressionAttributeValues) return pageKey(text(input.ExpressionAttributeValues[':pk']));
  if (input.Key) return pageKey(text(input.Key.pk));
  const keys = Object.values(input.RequestItems ?? {}).flatMap((request) => request.Keys ?? []);
  return keys.some((key) => pageKey(text(key.pk)));
}
async function measure(call: Call, loaded: Loaded, scenario: Scenario): Promise<Figures> {
  const path = scenario.path(loaded);
  const counts: { requests: number; items: number; pageItems: number; ddbMs: number }[] = [];
  const times: number[] = [];
  let rows = 0;
  for (let run = 0; run < RUNS; run++) {
    meter.requests = 0;
    meter.items = 0;
    meter.pageItems = 0;
    meter.ddbMs = 0;
    const started = performance.now();
    const res = await call('GET', path, { token: loaded.tenant.admin.token });
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${scenario.name}: ${res.status} ${res.text}`);
    counts.push({ ...meter });
    rows = scenario.rows(res.body);
  }
  // Median counts: a background job of the stack (sweeps) may share the client during a request.
  return {
    requests: percentile(
      counts.map((c) => c.requests),
      50,
    ),
    items: percentile(
      counts.map((c) => c.items),
      50,
    ),
    pageItems: percentile(
      counts.map((c) => c.pageItems),
      50,
    ),
    rows,
    ddb: percentile(
      counts.map((c) => c.ddbMs),
      50,
    ),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
  };
}

await runBench({ ...bench, failureCode: 1 }, async (stack) => {
  let exitCode = 0;
  const call = client(stack.apiUrl);
  const superToken = await superLogin(call, BENCH_ADMIN);
  const planId = await firstPlanId(call);
  const raw = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: stack.env.DYNAMODB_ENDPOINT }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const table = stack.env.TABLE_NAME as string;
  const loaded: Loaded[] = [];
  for (const size of SIZES) {
    const tenant = await createTenant(call, superToken, planId, `bench${size}`);
    if (LIST_SHARDS > 1) {
      // The loader writes the list keys as this process knows the tenant: let it know the shards first.
      await raiseListShards(tenant.companyId, LIST_SHARDS);
      await primeListShards(tenant.companyId);
    }
    say(`loading ${size} tickets, ${size} contacts, ${size * MESSAGES_PER_TICKET} messages (ticket lists in ${LIST_SHARDS} shard(s))...`);
    const t0 = Date.now();
    loaded.push(await load(call, raw, table, tenant, size));
    say(`  loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      meter.requests++;
      if (inFlight++ === 0) inFlightSince = performance.now();
      const result = await next(args).finally(() => {
        if (--inFlight === 0) meter.ddbMs += performance.now() - inFlightSince;
      });
      const output = result.output as { ScannedCount?: number; Item?: unknown; Responses?: Record<string, unknown[]> };
      const items = output.ScannedCount ?? (output.Item ? 1 : 0) + Object.values(output.Responses ?? {}).reduce((n, r) => n + r.length, 0);
      meter.items += items;
      if (readsThePage(args.input as ReadInput)) meter.pageItems += items;
      return result;
    },
    { step: 'initialize', name: 'ticketListBenchMeter' },
  );
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  say(
    `\n${'scenario'.padEnd(22)}${pad('size', 8)}${pad('requests', 10)}${pad('items', 8)}${pad('page', 7)}${pad('rows', 6)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('ddb ms', 9)}`,
  );
  for (const scenario of scenarios) {
    const [small, large] = [await measure(call, loaded[0] as Loaded, scenario), await measure(call, loaded[1] as Loaded, scenario)] as [
      Figures,
      Figures,
    ];
    for (const [size, f] of [
      [SIZES[0], small],
      [SIZES[1], large],
    ] as const)
      say(
        `${scenario.name.padEnd(22)}${pad(size as number, 8)}${pad(f.requests, 10)}${pad(f.items, 8)}${pad(f.pageItems, 7)}${pad(f.rows, 6)}${pad(f.p50.toFixed(1), 9)}${pad(f.p95.toFixed(1), 9)}${pad(f.ddb.toFixed(1), 9)}`,
      );
    const requestRatio = large.requests / small.requests;
    const itemRatio = large.items / small.items;
    const perRow = large.pageItems / Math.max(1, large.rows);
    const verdict = Math.abs(requestRatio - 1) <= 0.1 && Math.abs(itemRatio - 1) <= 0.1 && perRow <= 2 ? 'ok' : 'FAIL';
    if (verdict !== 'ok') exitCode = 1;
    say(
      `${''.padEnd(22)}ratios large/small: requests ${requestRatio.toFixed(2)}, items ${itemRatio.toFixed(2)}; page items/row ${perRow.toFixed(2)} (all items/row ${(large.items / Math.max(1, large.rows)).toFixed(2)})  ${verdict}`,
    );
  }
  return exitCode;
});
