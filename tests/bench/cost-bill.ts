/**
 * A window's counts (cost-meter.ts) priced at aws-prices.ts, by service, and the write-unit
 * families that show whether one index dominates a line.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { messageQueues } from '@conversa/functions/declarations/message-queues';
import { ON_DEMAND, type TableCapacity } from '../../infra/lib/data-table.ts';
import { LAMBDA_ARCHITECTURE, LAMBDA_MEMORY_MB } from '../../infra/lib/lambda-function.ts';
import { handlersDir } from '../../infra/local/lambda-runtime.ts';
import { HOURS_A_MONTH, prices } from './aws-prices.ts';
import type { Tally } from './cost-meter.ts';

export const SERVICES = [
  'DynamoDB writes',
  'DynamoDB reads',
  'Lambda',
  'SQS',
  'API Gateway HTTP',
  'API Gateway WebSocket',
  'S3',
  'CloudWatch Logs',
  'DynamoDB storage',
  'Fargate + NAT',
] as const;
export type Service = (typeof SERVICES)[number];
export type Bill = Map<Service, number>;

/** Lambda's START, END and REPORT lines per invocation (assumed, not measured: they are the platform's). */
export const PLATFORM_LOG_BYTES = 260;
const gbSecond = LAMBDA_ARCHITECTURE.name === 'arm64' ? prices.lambdaArmGbSecond : prices.lambdaX86GbSecond;
const httpFunctions = new Set(readdirSync(join(handlersDir, 'http')).map((file) => `conversa-${file.replace(/\.ts$/, '')}`));
const consumerQueues = new Set(messageQueues.filter((queue) => queue.consumer).map((queue) => queue.name));
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

export const sumOfUnits = (map: Map<string, number>) => sum(map.values());

/** SQS requests as AWS bills them, from what the local queue served (see the printed notes). */
export function billableSqs(tally: Tally): { fifo: number; standard: number } {
  const out = { fifo: 0, standard: 0 };
  const deletes = new Map<string, number>();
  for (const [key, n] of tally.sqs) {
    const [action = '', queue = ''] = key.split(' ');
    if (/^Delete/.test(action)) deletes.set(queue, (deletes.get(queue) ?? 0) + n);
  }
  for (const [key, n] of tally.sqs) {
    const [action = '', queue = ''] = key.split(' ');
    const name = queue.replace(/\.fifo$/, '');
    // A Lambda consumer's receives: one per batch it deleted (AWS's pollers' empty receives are a fixed cost of the region).
    const billed = action === 'ReceiveMessage' && consumerQueues.has(name) ? (deletes.get(queue) ?? 0) : n;
    out[queue.endsWith('.fifo') ? 'fifo' : 'standard'] += billed;
  }
  return out;
}

/** WebSocket messages: frames the gateway received for a Lambda route, and frames posted to sockets. */
export function websocketMessages(tally: Tally): number {
  const received = sum(
    [...tally.invocations].filter(([fn]) => /^conversa-realtime (?!\$(connect|disconnect))/.test(fn)).map(([, i]) => i.count),
  );
  return received + (tally.requests.get('WebSocket PostToConnection') ?? 0);
}

/**
 * What a write unit and a read unit cost in a capacity mode: on demand, the request unit's price;
 * provisioned, a unit-hour spread over the 3,600 units a second it serves in an hour, of which
 * auto scaling keeps `targetUtilizationPercent` used (it scales out before the rest is reached, so
 * the rest is paid and idle). Traffic that swings faster than auto scaling follows pays more.
 */
export function unitPrices(capacity: TableCapacity): { write: number; read: number } {
  if (capacity.mode === 'on-demand') return { write: prices.dynamoWriteUnit.usd, read: prices.dynamoReadUnit.usd };
  const used = 3600 * (capacity.targetUtilizationPercent / 100);
  return { write: prices.dynamoWriteCapacityHour.usd / used, read: prices.dynamoReadCapacityHour.usd / used };
}

/** The table's units at rest, a month, when provisioned: the floor of each range, for the table and each index. */
export function provisionedFloorMonth(capacity: Extract<TableCapacity, { mode: 'provisioned' }>, tables: number): number {
  const hour = capacity.writes.min * prices.dynamoWriteCapacityHour.usd + capacity.reads.min * prices.dynamoReadCapacityHour.usd;
  return hour * tables * HOURS_A_MONTH;
}

export function bill(tally: Tally, capacity: TableCapacity = ON_DEMAND): Bill {
  const out: Bill = new Map(SERVICES.map((service) => [service, 0]));
  const invocations = [...tally.invocations.values()];
  const unit = unitPrices(capacity);
  out.set('DynamoDB writes', (sumOfUnits(tally.writeUnits) + tally.host.writeUnits) * unit.write);
  out.set('DynamoDB reads', (sumOfUnits(tally.readUnits) + tally.host.readUnits) * unit.read);
  const gbSeconds = (sum(invocations.map((i) => i.billedMs)) / 1000) * (LAMBDA_MEMORY_MB / 1024);
  out.set('Lambda', sum(invocations.map((i) => i.count)) * prices.lambdaRequest.usd + gbSeconds * gbSecond.usd);
  const sqs = billableSqs(tally);
  out.set('SQS', sqs.fifo * prices.sqsFifoRequest.usd + sqs.standard * prices.sqsStandardRequest.usd);
  const http = sum([...tally.invocations].filter(([fn]) => httpFunctions.has(fn)).map(([, i]) => i.count));
  out.set('API Gateway HTTP', http * prices.httpApiRequest.usd);
  out.set('API Gateway WebSocket', websocketMessages(tally) * prices.websocketMessage.usd);
  const s3 = [...tally.requests].filter(([key]) => key.startsWith('S3 '));
  out.set('S3', sum(s3.map(([key, n]) => n * (/Put|Copy|List|Post|Create/.test(key) ? prices.s3PutRequest.usd : prices.s3GetRequest.usd))));
  const logBytes = tally.logBytes + PLATFORM_LOG_BYTES * sum(invocations.map((i) => i.count));
  out.set('CloudWatch Logs', (logBytes / 1e9) * prices.logsIngestedGb.usd);
  return out;
}

export const scaled = (of: Bill, factor: number): Bill => new Map([...of].map(([service, usd]) => [service, usd * factor]));
export const totalOf = (of: Bill) => sum(of.values());

/**
 * A partition's family: its index and the first segment of its key after the tenant, so every
 * search word is `table SRCH#*` and every ticket's partition `table TK#*`.
 */
export function familyOf(partition: string): string {
  const [index = '', key = ''] = partition.split(' ');
  const rest = key.replace(/^C#\d+#?/, '');
  if (!rest) return `${index} C#<tenant>`;
  const [first, ...more] = rest.split('#');
  return `${index} ${first}${more.length ? '#*' : ''}`;
}

/** Write units by family, largest first. */
export function families(tally: Tally): Array<[string, number]> {
  const out = new Map<string, number>();
  for (const [partition, wcu] of tally.writeUnits) out.set(familyOf(partition), (out.get(familyOf(partition)) ?? 0) + wcu);
  return [...out].sort((a, b) => b[1] - a[1]);
}
