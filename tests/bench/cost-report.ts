/**
 * bench:cost's printout: each line's cost and its services' shares, the counts per unit behind
 * them, the idle company's month, the inbound line's hottest partitions, and what is measured and
 * what is assumed.
 */
import { tableDeclaration } from '@conversa/functions/storage/table';
import { defaultPlacement } from '@conversa/session-host/config';
import { CpuArchitecture } from 'aws-cdk-lib/aws-ecs';
import { DEFAULT_PROVISIONED } from '../../infra/lib/context.ts';
import { LAMBDA_ARCHITECTURE, LAMBDA_MEMORY_MB } from '../../infra/lib/lambda-function.ts';
import { SESSION_HOST_TASK } from '../../infra/lib/session-host-service.ts';
import { HOURS_A_MONTH, prices, REGION, TAKEN } from './aws-prices.ts';
import {
  type Bill,
  bill,
  billableSqs,
  families,
  PLATFORM_LOG_BYTES,
  provisionedFloorMonth,
  SERVICES,
  type Service,
  scaled,
  sumOfUnits,
  totalOf,
  websocketMessages,
} from './cost-bill.ts';
import { jobsTally, type Tally } from './cost-meter.ts';

export interface Line {
  name: string;
  unit: string;
  /** Units measured, and the units the line is priced for. */
  units: number;
  per: number;
  tally: Tally;
  /** On demand, and with provisioned capacity at the stack's defaults (context.ts DEFAULT_PROVISIONED). */
  bill: Bill;
  provisioned: Bill;
  /** Stack CPU ms per unit (this process, DynamoDB Local, the session-host). */
  cpuMs: number | undefined;
}

type Say = (line: string) => void;
const usd = (value: number) => `$${value < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
/** The RSS of a session-host without sessions (bench:session-host; README "Session-host"). */
const HOST_BASE_MIB = 150;

function shares(of: Bill): string {
  const total = totalOf(of);
  return SERVICES.filter((service) => (of.get(service) ?? 0) / total >= 0.005)
    .map((service) => `${service} ${Math.round(((of.get(service) ?? 0) / total) * 100)}%`)
    .join(', ');
}

export function printLine(say: Say, line: Line): void {
  const { tally } = line;
  const priced = scaled(line.bill, line.per / line.units);
  const per = (value: number) => (value / line.units).toFixed(2);
  const invocations = [...tally.invocations];
  const count = sum(invocations.map(([, i]) => i.count));
  const sqs = billableSqs(tally);
  say('');
  say(`${line.per.toLocaleString('en')} ${line.name}: ${usd(totalOf(priced))}  (${shares(priced)})`);
  const provisioned = scaled(line.provisioned, line.per / line.units);
  say(
    `  with provisioned capacity (auto scaling at ${DEFAULT_PROVISIONED.targetUtilizationPercent} % used): ${usd(totalOf(provisioned))}  (${shares(provisioned)})`,
  );
  say(
    `  per ${line.unit}: ${per(sumOfUnits(tally.writeUnits))} WRU + ${per(tally.host.writeUnits)} WRU by the session-host ` +
      `(DynamoDB Local reported ${per(tally.localWriteUnits)} for the handlers' writes), ${per(sumOfUnits(tally.readUnits))} RRU + ${per(tally.host.readUnits)} by the session-host; ` +
      `${per(count)} invocations, ${per(sum(invocations.map(([, i]) => i.billedMs)))} billed ms; SQS ${per(sqs.fifo)} FIFO + ${per(sqs.standard)} standard requests; ` +
      `WebSocket ${per(websocketMessages(tally))} messages; S3 ${per(sum([...tally.requests].filter(([k]) => k.startsWith('S3 ')).map(([, v]) => v)))} requests; ` +
      `${per(tally.logBytes)} log bytes; stack CPU ${line.cpuMs?.toFixed(1) ?? '?'} ms`,
  );
  say(
    `  functions: ${invocations
      .sort((a, b) => b[1].billedMs - a[1].billedMs)
      .map(
        ([fn, i]) =>
          `${fn.replace(/^conversa-/, '')} ${per(i.count)} x ${(i.billedMs / i.count).toFixed(1)} ms${i.records ? ` (${(i.records / i.count).toFixed(1)} records)` : ''}`,
      )
      .join(', ')}`,
  );
  const top = families(tally).slice(0, 4);
  const meterMs = sum(invocations.map(([, i]) => i.meterMs));
  if (top.length)
    say(
      `  largest write families: ${top.map(([family, wcu]) => `${family} ${per(wcu)} (${Math.round((wcu / sumOfUnits(tally.writeUnits)) * 100)}%)`).join(', ')}; ` +
        `the write meter's own ${per(meterMs)} ms taken out of the billed ms`,
    );
}

/** The inbound line's partitions and families by write units; returns what dominates it, if one does. */
export function printPartitions(say: Say, line: Line): string {
  const total = sumOfUnits(line.tally.writeUnits);
  say('');
  say(`inbound: the write-unit families (${(total / line.units).toFixed(2)} WRU a message in all):`);
  for (const [family, wcu] of families(line.tally).slice(0, 8))
    say(`  ${(wcu / line.units).toFixed(2).padStart(6)} WRU/msg  ${String(Math.round((wcu / total) * 100)).padStart(3)}%  ${family}`);
  say('inbound: the hottest partitions (WRU a message):');
  for (const [partition, wcu] of [...line.tally.writeUnits].sort((a, b) => b[1] - a[1]).slice(0, 8))
    say(`  ${(wcu / line.units).toFixed(2).padStart(6)}  ${partition.replace(/C#\d+/, 'C#<tenant>')}`);
  const [family, wcu] = families(line.tally)[0] ?? ['', 0];
  return wcu / total > 0.5 ? `${family} takes ${Math.round((wcu / total) * 100)}% of the write units` : '';
}

export interface IdleInputs {
  idle: Line;
  socketLife: Line;
  userStatus: Line;
  attendants: number;
  hours: number;
  days: number;
  pingMs: number;
  userStatusMs: number;
  bytesPerMessage: number;
  storedMessages: number;
}

/** An idle company's month: its connection's share of the session-host, its sockets, its storage. */
export function idleCompany(say: Say, x: IdleInputs): Bill {
  const out: Bill = new Map(SERVICES.map((service: Service) => [service, 0]));
  const plus = (service: Service, value: number) => out.set(service, (out.get(service) ?? 0) + value);
  const taskMiB = SESSION_HOST_TASK.memoryLimitMiB;
  const sessionsPerTask = Math.floor(
    (taskMiB * defaultPlacement.memoryBudgetFraction - HOST_BASE_MIB) / (defaultPlacement.sessionEstimateBytes / 2 ** 20),
  );
  const taskHour = (SESSION_HOST_TASK.cpu / 1024) * prices.fargateArmVcpuHour.usd + (taskMiB / 1024) * prices.fargateArmGbHour.usd;
  const egressHour = prices.natGatewayHour.usd + prices.publicIpv4Hour.usd;
  plus('Fargate + NAT', (taskHour / sessionsPerTask + egressHour / defaultPlacement.sessionsPerEgress) * HOURS_A_MONTH);
  // The idle window: the lease heartbeats (UpdateItem) are the session's; the scans and the host's own item, the host's.
  const month = (HOURS_A_MONTH * 3600) / x.idle.units;
  const host = x.idle.tally.host;
  const heartbeats = host.unitsByCommand.get('Update') ?? 0;
  plus('DynamoDB writes', (heartbeats + (host.writeUnits - heartbeats) / sessionsPerTask) * month * prices.dynamoWriteUnit.usd);
  plus('DynamoDB reads', (host.readUnits / sessionsPerTask) * month * prices.dynamoReadUnit.usd);
  const polls = scaled(x.idle.bill, month / sessionsPerTask);
  plus('SQS', polls.get('SQS') ?? 0);
  // Sockets: each attendant online `hours` a day, a new socket each hour (the ID token's life), pinging and saying userStatus.
  const socketHours = x.attendants * x.hours * x.days;
  const perHour = (line: Line, times: number) => scaled(line.bill, times / line.units);
  for (const part of [perHour(x.socketLife, 1), perHour(x.userStatus, 3_600_000 / x.userStatusMs)])
    for (const [service, value] of part) plus(service, value * socketHours);
  // A ping and the gateway's answer are two messages.
  plus('API Gateway WebSocket', socketHours * ((2 * 3_600_000) / x.pingMs) * prices.websocketMessage.usd);
  plus('API Gateway WebSocket', socketHours * 60 * prices.websocketConnectionMinute.usd);
  plus('DynamoDB storage', ((x.bytesPerMessage * x.storedMessages) / 2 ** 30) * prices.dynamoStorageGbMonth.usd);
  say('');
  say(`an idle company for a month: ${usd(totalOf(out))}  (${shares(out)})`);
  say(
    `  session-host: ${sessionsPerTask} sessions a task (${SESSION_HOST_TASK.cpu / 1024} vCPU, ${taskMiB} MiB, ${SESSION_HOST_TASK.cpuArchitecture === CpuArchitecture.ARM64 ? 'ARM64' : 'X86_64'}), ` +
      `${defaultPlacement.sessionsPerEgress} sessions a NAT gateway + IPv4 address; idle, measured over ${x.idle.units} s: ` +
      `${((heartbeats / x.idle.units) * 60).toFixed(1)} WRU/min of lease heartbeats, host ${(((host.writeUnits - heartbeats) / x.idle.units) * 60).toFixed(1)} WRU/min + ` +
      `${((host.readUnits / x.idle.units) * 60).toFixed(1)} RRU/min (shared by ${sessionsPerTask}), ${JSON.stringify(Object.fromEntries(x.idle.tally.sqs))} SQS`,
  );
  say(
    `  sockets: ${x.attendants} attendants x ${x.hours} h x ${x.days} days (assumed), a socket an hour: connect+close ${usd(totalOf(x.socketLife.bill) / x.socketLife.units)}, ` +
      `userStatus ${usd(totalOf(x.userStatus.bill) / x.userStatus.units)} every ${x.userStatusMs / 60_000} min, a ping every ${x.pingMs / 1000} s`,
  );
  say(
    `  storage: ${Math.round(x.bytesPerMessage)} bytes a stored message (its items, search words and index copies, measured) x ${x.storedMessages.toLocaleString('en')} messages (assumed)`,
  );
  const minutes = jobsTally.invocations.size ? sum([...jobsTally.invocations.values()].map((i) => i.count)) : 0;
  const jobs = bill(jobsTally);
  say(
    `  not in it: the scheduled jobs, a region's (${minutes} runs measured, ${usd(totalOf(jobs))} in all: ${[...jobsTally.invocations]
      .map(([fn, i]) => `${fn.replace(/^conversa-/, '')} ${i.count}`)
      .join(', ')})`,
  );
  return out;
}

export function printNotes(say: Say, x: { tenantBytes: number; tenantMessages: number; idleTotal: number }): void {
  say('');
  say(`prices: ${REGION} list, taken ${TAKEN} (tests/bench/aws-prices.ts, each with its source page)`);
  const { writes, reads, targetUtilizationPercent } = DEFAULT_PROVISIONED;
  say(
    `provisioned capacity: the stack's defaults (infra/lib/context.ts), ${targetUtilizationPercent} % of the units kept ready used, ` +
      `${writes.min} write and ${reads.min} read units at rest for the table and each of its ${tableDeclaration.globalIndexes.length} indexes ` +
      `(${usd(provisionedFloorMonth(DEFAULT_PROVISIONED, 1 + tableDeclaration.globalIndexes.length))} a month a region, in no line above); ` +
      'the idle company is priced on demand.',
  );
  say(
    `measured here: Lambda invocations and their duration (${LAMBDA_MEMORY_MB} MB ${LAMBDA_ARCHITECTURE.name} from infra/lib/lambda-function.ts, each rounded up to 1 ms; ` +
      "this machine's durations, including DynamoDB Local's latency); DynamoDB read units as DynamoDB Local reports them; write units from the item images " +
      "(write-units.ts: 1 a KB, 2 in a transaction, each index copy, failed conditions included); the session-host's DynamoDB units (its own meter); " +
      "SQS requests served by queue; @connections posts; S3 requests; the handlers' log bytes; the tenant's stored bytes " +
      `(${(x.tenantBytes / 2 ** 20).toFixed(1)} MiB over ${x.tenantMessages} messages).`,
  );
  say(
    `assumed: a consumer's SQS receive per batch it deletes (AWS's pollers' empty receives are a region's fixed cost); ${PLATFORM_LOG_BYTES} bytes of Lambda platform log lines an invocation; ` +
      `HTTP API requests = HTTP function invocations; WebSocket frames under 32 KB; the session-host's base RSS ${HOST_BASE_MIB} MiB; attendants' hours and stored messages as printed; ` +
      'no free tier, no data transfer out, no NAT data processing (WhatsApp traffic), no Cognito, CloudFront or CloudWatch metrics; ' +
      'the simulator has no Baileys auth keys: with Baileys each KB of signal keys rewritten per message adds $0.63 a million messages.',
  );
}
