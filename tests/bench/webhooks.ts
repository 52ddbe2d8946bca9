/**
 * Webhooks bench (issue 23 "Done means"): contacts write to one connection at a steady rate against
 * a local stack this script starts; the company has --endpoints healthy webhook endpoints for
 * `message.received` and one that never answers (each attempt waits out the 10 s timeout, then is
 * retried). Receivers are HTTP servers in this process on 127.0.0.1 (the local stack lets loopback
 * URLs through). Prints, for the healthy receivers, the latency from the contact's send (the
 * simulator's POST) to the delivery's arrival (p50/p90/p99/max, all receivers pooled and the worst
 * receiver's p99), the deliveries lost (a message some healthy receiver never got once the drain
 * ended), the deliveries doubled (one X-Conversa-Delivery received twice by one receiver, which
 * at-least-once allows; the goal is under 0.1 %), and what the slow endpoint got meanwhile. One
 * FIFO group per endpoint: the slow one must not delay the others, so their p99 stays far below its
 * 10 s timeout.
 *
 *   npm run bench:webhooks                               (50 msg/s for 20 s, 10 healthy endpoints)
 *   npm run bench:webhooks -- --rate 10 --seconds 5 --endpoints 3 --drain 30
 *   npm run bench:webhooks -- --slow 0                   (no dead endpoint: the baseline)
 *
 * Locally, an endpoint's throughput is one attempt per receive: fauxqs (1.9) hands out at most one
 * message of a FIFO group per ReceiveMessage, where SQS hands out up to ten of it in order, so at
 * high rates the healthy receivers fall behind here for a reason AWS does not have (measured
 * 2026-12-02: 10 msg/s x 3 endpoints p99 1.5 s; 20 msg/s x 5 endpoints p50 9-15 s, nothing lost).
 *
 * The stack's log goes to tests/artifacts/bench-webhooks.log.
 */
import { randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { LocalStack } from '../../infra/local/stack.ts';
import { ok, percentile, sleep } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { benchTenant, runBench } from './run-bench.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    rate: { type: 'string', default: '50' },
    contacts: { type: 'string', default: '100' },
    endpoints: { type: 'string', default: '10' },
    drain: { type: 'string', default: '60' },
    /** 0: no endpoint that never answers (the baseline the slow one must not move). */
    slow: { type: 'string', default: '1' },
  },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const contactCount = Number(values.contacts);
const endpointCount = Number(values.endpoints);
const drainMs = Number(values.drain) * 1000;
const withSlow = Number(values.slow) > 0;

const bench = benchLog('webhooks');
const { log, say } = bench;

/** One receiver's deliveries: the first arrival of each message body, and every delivery id seen. */
interface Receiver {
  path: string;
  arrivals: Map<string, number>;
  deliveryIds: Map<string, number>;
}

const receivers: Receiver[] = Array.from({ length: endpointCount }, (_, i) => ({
  path: `/healthy/${i}`,
  arrivals: new Map(),
  deliveryIds: new Map(),
}));
/** What the endpoint that never answers was sent (attempts, retries included). */
let slowAttempts = 0;

function startReceivers(): Promise<Server> {
  const byPath = new Map(receivers.map((receiver) => [receiver.path, receiver]));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      if (req.url === '/slow') {
        // Never answers: the sender's 10 s timeout ends each attempt.
        slowAttempts++;
        return;
      }
      const receiver = byPath.get(req.url ?? '');
      if (receiver && req.headers['x-conversa-event'] === 'message.received') {
        const id = String(req.headers['x-conversa-delivery']);
        receiver.deliveryIds.set(id, (receiver.deliveryIds.get(id) ?? 0) + 1);
        const body = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { message: { body: string } } }).data.message.body;
        if (!receiver.arrivals.has(body)) receiver.arrivals.set(body, at);
      }
      res.statusCode = 200;
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

await runBench({ ...bench, failureCode: 1 }, async (stack) => {
  const server = await startReceivers();
  try {
    return await measure(stack, server);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

async function measure(stack: LocalStack, server: Server): Promise<number> {
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { call, sim, tenant, setup } = await benchTenant(stack, 'bench-webhooks', ['Support'], { greeting: '' });
  for (const url of [...receivers.map((receiver) => `${base}${receiver.path}`), ...(withSlow ? [`${base}/slow`] : [])]) {
    await ok(call, 'POST', '/webhooks', { token: tenant.admin.token, body: { url, events: ['message.received'] } });
  }
  const numbers = Array.from({ length: contactCount }, () => `55419${randomInt(10_000_000, 99_999_999)}`);
  const total = Math.round(seconds * rate);
  say(
    `${total} messages at ${rate}/s from ${contactCount} contacts; ${endpointCount} healthy endpoints${withSlow ? ' and one that never answers' : ''}`,
  );
  const sentAt = new Map<string, number>();
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: total }, async (_, i) => {
      await sleep(Math.max(0, t0 + (i * 1000) / rate - Date.now()));
      const body = `webhook bench ${i}`;
      sentAt.set(body, Date.now());
      await sim.send(setup.simId, numbers[i % contactCount] as string, body).catch((error: unknown) => {
        sentAt.delete(body);
        log(`send ${i} failed: ${String(error)}`);
      });
    }),
  );
  const sendSeconds = (Date.now() - t0) / 1000;
  const complete = () => receivers.every((receiver) => receiver.arrivals.size >= sentAt.size);
  for (const until = Date.now() + drainMs; !complete() && Date.now() < until; ) await sleep(250);

  const pooled: number[] = [];
  const worstP99: number[] = [];
  let lost = 0;
  let deliveries = 0;
  let doubled = 0;
  for (const receiver of receivers) {
    const own: number[] = [];
    for (const [body, started] of sentAt) {
      const at = receiver.arrivals.get(body);
      if (at === undefined) lost++;
      else own.push(at - started);
    }
    pooled.push(...own);
    worstP99.push(percentile(own, 99));
    for (const count of receiver.deliveryIds.values()) {
      deliveries += count;
      doubled += count - 1;
    }
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  say(`sent ${sentAt.size} in ${sendSeconds.toFixed(1)} s (${(sentAt.size / sendSeconds).toFixed(1)}/s)`);
  say(
    `healthy receivers, send -> delivery: p50 ${ms(percentile(pooled, 50))}, p90 ${ms(percentile(pooled, 90))}, ` +
      `p99 ${ms(percentile(pooled, 99))}, max ${ms(Math.max(0, ...pooled))}; worst receiver's p99 ${ms(Math.max(0, ...worstP99))}`,
  );
  say(`lost: ${lost} of ${sentAt.size * endpointCount} expected deliveries`);
  say(`doubled: ${doubled} of ${deliveries} received (${deliveries ? ((100 * doubled) / deliveries).toFixed(3) : '0'} %)`);
  say(`slow endpoint: ${slowAttempts} attempts reached it (each waits out the 10 s timeout)`);
  const delayed = Math.max(0, ...worstP99) >= 10_000;
  if (lost > 0 || (deliveries && doubled / deliveries >= 0.001) || delayed) {
    say(delayed ? 'a healthy receiver waited as long as the slow endpoint: FAIL' : 'deliveries lost or doubled beyond 0.1 %: FAIL');
    return 1;
  }
  return 0;
}
