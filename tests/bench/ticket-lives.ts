/**
 * The tickets of bench:dashboard and bench:reports, written straight into the table with the storage
 * modules' own item builders (tickets.ts ticketStoredItems) beside the dashboard counters their
 * lives would have kept: dashboard-counters.ts counterDeltas for each state change (and
 * firstResponseDeltas for each first response when asked), the functions the writers call, stored
 * as the writers store them (storedDeltas: D and R items) and summed per item. A tenant's tickets
 * spread over DAYS days, three queues and its two attendants, so every counter item exists at any size.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  type CountedTicket,
  counterDeltas,
  type Deltas,
  dashboardPk,
  firstResponseDeltas,
  storedDeltas,
  trackingFields,
} from '@conversa/functions/storage/dashboard-counters';
import { newTicketRecord, type TicketRecord } from '@conversa/functions/storage/tickets/record';
import { ticketStoredItems } from '@conversa/functions/storage/tickets/tickets';
import type { LocalStack } from '../../infra/local/stack.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { writeAll } from './bulk-write.ts';

export const DAYS = 30;
export const TZ = 'America/Sao_Paulo';
const MIN = 60_000;

export interface TicketLives {
  /** Seed of the bench's own random numbers, so a run's data is the same every time. */
  seed: number;
  /** Most tickets also get a first response (its counters), and close later (25+ minutes after, not 5+). */
  firstResponses: boolean;
}

/** Adds deltas into the running totals (what the writers' ADDs would have summed to). */
function sum(totals: Deltas, deltas: Deltas) {
  for (const [sk, attrs] of deltas) {
    const item = totals.get(sk) ?? {};
    for (const [attr, n] of Object.entries(attrs)) item[attr] = (item[attr] ?? 0) + n;
    totals.set(sk, item);
  }
}

/**
 * Sets the tenant's time zone and three queues, then writes `size` tickets (created pending, most
 * taken, most of those closed with a rating) and their counter items. Returns the counter items.
 */
export async function loadTicketLives(
  call: Call,
  raw: DynamoDBDocumentClient,
  table: string,
  tenant: Tenant,
  size: number,
  { seed, firstResponses }: TicketLives,
): Promise<Record<string, unknown>[]> {
  let state = seed;
  const rand = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
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
  const totals: Deltas = new Map();
  let items: Record<string, unknown>[] = [];
  for (let i = 1; i <= size; i++) {
    // Spread so that every (day, queue, shard) holds tickets at any size: shard = id mod 4.
    const day = Math.floor(i / 4) % DAYS;
    const queueId = queueIds[Math.floor(i / (4 * DAYS)) % queueIds.length] as number;
    const createdMs = start + day * 24 * 60 * MIN + Math.floor(rand() * 20 * 60) * MIN;
    const createdAt = new Date(createdMs).toISOString();
    const userId = users[i % users.length] as number;
    const base = newTicketRecord({
      id: i,
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
      createdAt,
    });
    let ticket: TicketRecord = { ...base, ...trackingFields(undefined, base, createdAt) };
    sum(totals, storedDeltas(counterDeltas(undefined, ticket, createdAt, TZ)));
    const step = (patch: Partial<TicketRecord>, atMs: number) => {
      const at = new Date(atMs).toISOString();
      const patched = { ...ticket, ...patch, updatedAt: at, revision: ticket.revision + 1 };
      const next = { ...patched, ...trackingFields(ticket, patched, at) };
      sum(totals, storedDeltas(counterDeltas(ticket as CountedTicket, next, at, TZ)));
      ticket = next;
    };
    if (i % 10 !== 0) {
      step({ status: 'open', userId }, createdMs + (1 + Math.floor(rand() * 30)) * MIN);
      if (firstResponses) {
        const answeredAt = new Date(Date.parse(ticket.updatedAt) + Math.floor(rand() * 20 * MIN)).toISOString();
        sum(totals, storedDeltas(firstResponseDeltas({ ...ticket, convAt: ticket.convAt as string }, userId, answeredAt, TZ)));
        ticket = { ...ticket, respondedConvAt: ticket.convAt as string };
      }
    }
    if (i % 10 > 3) {
      const rating = 1 + (i % 3);
      const at = Date.parse(ticket.updatedAt) + ((firstResponses ? 25 : 5) + Math.floor(rand() * 60)) * MIN;
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
  return counters;
}

export interface LoadTenants {
  /** Tenant names are `<prefix><size>`. */
  prefix: string;
  sizes: number[];
  lives: TicketLives;
  say: (line: string) => void;
  /** What a bench prints of a tenant's counter items once they are written. */
  onLoaded?: (counters: Record<string, unknown>[]) => void;
}

/**
 * One tenant a size on the bench's stack, each loaded with its tickets' lives (written straight into
 * the table, outside the handlers' metered client), saying how long each took.
 */
export async function loadTenants(
  stack: LocalStack,
  admin: { email: string; password: string },
  { prefix, sizes, lives, say, onLoaded }: LoadTenants,
): Promise<{ call: Call; tenants: Tenant[] }> {
  const call = client(stack.apiUrl);
  const superToken = await superLogin(call, admin);
  const planId = await firstPlanId(call);
  const raw = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: stack.env.DYNAMODB_ENDPOINT }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const table = stack.env.TABLE_NAME as string;
  const tenants: Tenant[] = [];
  for (const size of sizes) {
    const tenant = await createTenant(call, superToken, planId, `${prefix}${size}`);
    say(`loading ${size} tickets...`);
    const started = Date.now();
    const counters = await loadTicketLives(call, raw, table, tenant, size, lives);
    say(`  ${size} tickets, ${counters.length} counter items`);
    onLoaded?.(counters);
    say(`  loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    tenants.push(tenant);
  }
  return { call, tenants };
}
