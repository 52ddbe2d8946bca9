/**
 * Campaign bench (issue 10): a local stack this script starts, one tenant, one simulated connection.
 *
 *   1. Throughput: a list of --contacts (10,000) numbers on the simulator, messageInterval 0: sends
 *      per second (the phones' first to last message, and start to FINALIZADA), duplicates and
 *      losses counted on every contact's phone, Lambda invocations (consumer batches of the
 *      campaign-ticks and inbound queues, plus the HTTP calls) and the handlers' AWS requests per
 *      contact delivered.
 *   2. Pace: --paced (20) contacts at messageInterval 5 s with a pause of greaterInterval 10 s after
 *      every longerIntervalAfter 5 sends (the smallest non-zero values SPEC 9 allows): the gaps
 *      between consecutive messages on the phones against the configured ones (p50/p99/max error;
 *      goal within 1 s).
 *
 *   npm run bench:campaign
 *   npm run bench:campaign -- --contacts 2000 --paced 12
 *
 * The stack's log goes to tests/artifacts/bench-campaign.log.
 */
import { randomInt } from 'node:crypto';
import { type IncomingMessage, Server } from 'node:http';
import { parseArgs } from 'node:util';
import { SQSClient } from '@aws-sdk/client-sqs';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import type { Campaign } from '@conversa/functions/contracts/campaigns';
import { managementClient } from '@conversa/functions/realtime/management';
import { ok, percentile, type Simulator, sleep } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { meterClientsOf } from './inbound-meter.ts';
import { benchTenant, runBench } from './run-bench.ts';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '10000' },
    paced: { type: 'string', default: '20' },
  },
});
const contactCount = Number(values.contacts);
const pacedCount = Number(values.paced);

const bench = benchLog('campaign');
const { say } = bench;

/** The handlers' AWS requests by service (a middleware on their SDK clients). */
const requests = new Map<string, number>();
let metering = false;
function meter(service: string, stack: { add: (mw: never, options: { step: 'initialize'; name: string }) => void }): void {
  const counting = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    if (metering) {
      const key = `${service} ${context.commandName?.replace(/Command$/, '') ?? '?'}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
    }
    return next(args);
  };
  stack.add(counting as never, { step: 'initialize', name: 'campaignBenchMeter' });
}

/** Consumer invocations that succeeded, by queue: the local event source mapping deletes each one's records in one request. */
const invocations = new Map<string, number>();
const serverEmit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
  if (metering && event === 'request') {
    const request = args[0] as IncomingMessage;
    if (String(request.headers['x-amz-target'] ?? '') === 'AmazonSQS.DeleteMessageBatch') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const queue =
          String((JSON.parse(body || '{}') as { QueueUrl?: string }).QueueUrl ?? '')
            .split('/')
            .pop() ?? '?';
        invocations.set(queue, (invocations.get(queue) ?? 0) + 1);
      });
    }
  }
  return serverEmit.call(this, event, ...args);
} as typeof Server.prototype.emit;

/** Distinct per list (`area`): a number in both lists would count the first run's message as the second's. */
const phone = (area: number, i: number) => `55${area}9${String(10_000_000 + i * 7 + randomInt(7)).padStart(8, '0')}`;

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await fn(items[index] as T);
      }
    }),
  );
  return out;
}

/** Each number's messages from us on its phone: [timestamps]. */
async function phones(sim: Simulator, simId: string, numbers: string[]): Promise<number[][]> {
  return mapLimit(numbers, 16, async (number) => (await sim.chat(simId, number)).filter((m) => m.from === 'us').map((m) => m.timestamp));
}

await runBench({ ...bench, failureCode: 1 }, async (stack) => {
  const { call, sim, tenant, setup } = await benchTenant(stack, 'bench-campaign', ['Campanhas']);
  const token = tenant.admin.token;
  let exitCode = 0;
  const settings = (messageInterval: number, longerIntervalAfter: number, greaterInterval: number) =>
    ok(call, 'POST', '/campaign-settings', { token, body: { settings: { messageInterval, longerIntervalAfter, greaterInterval } } });
  async function listOf(count: number, name: string, area: number): Promise<{ id: number; numbers: string[] }> {
    const list = await ok<{ id: number }>(call, 'POST', '/contact-lists', { token, body: { name } });
    const numbers = Array.from({ length: count }, (_, i) => phone(area, i));
    for (let i = 0; i < count; i += 250) {
      const contacts = numbers.slice(i, i + 250).map((number, j) => ({ name: `Contato ${i + j}`, number, email: '' }));
      await ok(call, 'POST', `/contact-lists/${list.id}/upload`, { token, body: { contacts } });
    }
    return { id: list.id, numbers };
  }
  async function run(listId: number, name: string): Promise<{ campaign: Campaign; startedAt: number; finishedAt: number }> {
    const startedAt = Date.now();
    const made = await ok<Campaign>(call, 'POST', '/campaigns', {
      token,
      body: {
        name,
        contactListId: listId,
        whatsappId: setup.connectionId,
        message1: 'Oferta para {nome} ({numero})',
        status: 'EM_ANDAMENTO',
      },
    });
    let campaign = made;
    let lastLog = 0;
    while (campaign.status !== 'FINALIZADA') {
      await sleep(500);
      campaign = await ok<Campaign>(call, 'GET', `/campaigns/${made.id}`, { token });
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        say(`  ${name}: ${campaign.status} delivered ${campaign.progress.delivered}/${campaign.progress.valid}`);
      }
      if (Date.now() - startedAt > 30 * 60_000) throw new Error(`${name} did not finish in 30 minutes`);
    }
    return { campaign, startedAt, finishedAt: Date.now() };
  }

  // 1. Throughput.
  say(`loading ${contactCount} contacts...`);
  const big = await listOf(contactCount, 'Bench 10k', 11);
  await settings(0, 0, 0);
  meter('DynamoDB', documentClient().middlewareStack as never);
  // The product's SQS client is made on its first send (commons/sqs.ts): metered when it sends.
  meterClientsOf('SQS', SQSClient, meter);
  meter('WebSocket', (await managementClient()).middlewareStack as never);
  metering = true;
  const throughput = await run(big.id, 'Throughput');
  await sleep(2000);
  metering = false;
  const seen = await phones(sim, setup.simId, big.numbers);
  const lost = seen.filter((list) => list.length === 0).length;
  const duplicates = seen.reduce((n, list) => n + Math.max(0, list.length - 1), 0);
  const stamps = seen.flat().sort((x, y) => x - y);
  const delivered = throughput.campaign.progress.delivered;
  const phoneSeconds = ((stamps.at(-1) ?? 0) - (stamps[0] ?? 0)) / 1000;
  const totalRequests = [...requests.values()].reduce((x, y) => x + y, 0);
  const totalInvocations = [...invocations.values()].reduce((x, y) => x + y, 0);
  say('');
  say(`throughput (${contactCount} contacts, messageInterval 0)`);
  say(`  delivered ${delivered}/${throughput.campaign.progress.valid}, lost ${lost}, duplicates ${duplicates}`);
  say(
    `  sends/s on the phones: ${(stamps.length / Math.max(phoneSeconds, 0.001)).toFixed(1)} (${stamps.length} in ${phoneSeconds.toFixed(1)} s)`,
  );
  say(`  start to FINALIZADA: ${((throughput.finishedAt - throughput.startedAt) / 1000).toFixed(1)} s`);
  say(
    `  Lambda invocations: ${totalInvocations} (${JSON.stringify(Object.fromEntries(invocations))}), ${(totalInvocations / delivered).toFixed(3)} per contact`,
  );
  say(`  handlers' AWS requests: ${totalRequests}, ${(totalRequests / delivered).toFixed(2)} per contact delivered`);
  for (const [key, count] of [...requests].sort((x, y) => y[1] - x[1]))
    say(`    ${key}: ${count} (${(count / delivered).toFixed(2)}/contact)`);
  if (lost || duplicates || delivered !== contactCount) exitCode = 1;

  // 2. Pace.
  const pace = { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 10 };
  const small = await listOf(pacedCount, 'Bench paced', 21);
  await settings(pace.messageInterval, pace.longerIntervalAfter, pace.greaterInterval);
  say('');
  say(`pace (${pacedCount} contacts, ${pace.messageInterval} s, ${pace.greaterInterval} s after every ${pace.longerIntervalAfter})...`);
  await run(small.id, 'Paced');
  const pacedSeen = await phones(sim, setup.simId, small.numbers);
  const times = pacedSeen.flat().sort((x, y) => x - y);
  const errors = times.slice(1).map((t, i) => {
    const expected = (i + 1) % pace.longerIntervalAfter === 0 ? pace.greaterInterval : pace.messageInterval;
    return Math.abs((t - (times[i] as number)) / 1000 - expected);
  });
  say(
    `  gaps measured: ${times
      .slice(1)
      .map((t, i) => ((t - (times[i] as number)) / 1000).toFixed(2))
      .join(' ')}`,
  );
  say(
    `  error vs configured: p50 ${percentile(errors, 50).toFixed(3)} s, p99 ${percentile(errors, 99).toFixed(3)} s, max ${Math.max(...errors).toFixed(3)} s (goal <= 1 s)`,
  );
  const pacedLost = pacedSeen.filter((l) => l.length === 0).length;
  const pacedDuplicates = pacedSeen.reduce((n, l) => n + Math.max(0, l.length - 1), 0);
  say(`  lost ${pacedLost}, duplicates ${pacedDuplicates}`);
  if (pacedLost || pacedDuplicates || percentile(errors, 99) > 1) exitCode = 1;
  return exitCode;
});
