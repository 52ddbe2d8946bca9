/**
 * Inbound bench (issue 3): simulated contacts write to one connection at a steady rate against a
 * local stack this script starts; an attendant of the connection's queue listens on the socket.
 * Prints the latency from the contact's send (the simulator's POST) to the attendant's
 * `appMessage` create event (p50/p90/p99/max), the throughput, and the messages lost (never seen on
 * the socket once arrivals stopped for the drain time). Goals: p50 <= 150 ms, p99 <= 500 ms, 0 lost.
 * Also the CPU the stack's processes (this one with the handlers, DynamoDB Local, the session-host)
 * spent per message from the first send to the end of the drain: on a machine shared with other
 * work the latencies measure the machine too, this measures the product's cost.
 *
 * First a warm-up (--warmup seconds at the same rate, not measured) in which the measured contacts
 * open their conversations: the stand-ins' JITs compile their hot paths then, which AWS's services
 * never show us, and the measured minute is an inbox at work, its conversations under way. New
 * conversations keep arriving during it at --new per second (a new contact's first message: contact,
 * ticket, greeting and the greeting's acks, about five times a message's work), reported apart too.
 * With --warmup 0 every contact's first message falls in the first seconds: a burst of new
 * conversations (100 in 2 s by default), which this 2-core machine takes 1-2 s to absorb.
 *
 *   npm run bench:inbound                          (50 msg/s for 60 s, after 10 s of warm-up)
 *   npm run bench:inbound -- --seconds 10 --rate 20 --contacts 50 --new 1 --warmup 0
 *   npm run bench:inbound -- --prompt              (an AI prompt holds every ticket: issue 13)
 *   npm run bench:inbound -- --sockets-per-event 50 [--coalesce 0]   (issue 15)
 *   npm run bench:inbound -- --profile            (this process's CPU by owner: handlers, stand-ins, driver)
 *
 * With --prompt the queue has an AI prompt against the local fake model (infra/local/bot-fakes, which
 * answers at once): every contact message also gets the assistant's answer. Printed apart: the
 * latency from the contact's send to the answer's event on the attendant's socket, which is the
 * product's own overhead of a takeover (the bot-turns queue hop, the turn's reads and its commit,
 * the send) plus the fake's few milliseconds; compare the contact-message latency with a run
 * without --prompt for what the takeover adds to the pipeline itself (one SQS send).
 *
 * With --sockets-per-event N the attendant has N sockets open (tabs; each entitled to every event,
 * as N attendants of the queue would be): printed apart, the PostToConnection and all API Gateway
 * management calls per inbound message (the account's 10,000 requests/s throttle counts each) and the
 * latency to every socket. --coalesce MS sets the inbound consumer's coalescing window (0: off, one
 * frame per event and socket) for a before/after in one build.
 *
 * The stack's log goes to tests/artifacts/bench-inbound.log.
 */
import { randomInt } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { SQSClient } from '@aws-sdk/client-sqs';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import { managementClient } from '@conversa/functions/realtime/management';
import { coldStarts } from '../../infra/local/lambda-runtime.ts';
import { PASSWORD } from '../integration/tenants.ts';
import { connectSocket, ok, percentile, sleep } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { profileCpuOwners } from './cpu-owners.ts';
import { counts, handlerSqs, meter, meterClientsOf, queuedAt, requestMs, requests, sqsServed } from './inbound-meter.ts';
import { benchTenant, runBench } from './run-bench.ts';
import { stackCpuMs, sumOf } from './stack-cpu.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '50' },
    contacts: { type: 'string', default: '100' },
    drain: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '10' },
    new: { type: 'string', default: '2' },
    prompt: { type: 'boolean', default: false },
    'sockets-per-event': { type: 'string', default: '1' },
    coalesce: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const contactCount = Number(values.contacts);
const drainMs = Number(values.drain) * 1000;
const warmupSeconds = Number(values.warmup);
const newPerSecond = Number(values.new);
const withPrompt = values.prompt;
const socketsPerEvent = Math.max(1, Number(values['sockets-per-event']));
// The inbound consumer's coalescing window (functions/src/commons/env.ts); the handlers run in this process.
if (values.coalesce !== undefined) process.env.REALTIME_COALESCE_MS = values.coalesce;
const coalesceMs = Number(process.env.REALTIME_COALESCE_MS ?? 20);
/** The fake model's answer to a message M (infra/local/bot-fakes/openai.ts). */
const ANSWER_PREFIX = 'Resposta: ';

const bench = benchLog('inbound');
const { say } = bench;

await runBench(bench, async (stack) => {
  // One queue: every ticket takes it at once (no menu), so its attendant sees every message.
  const { call, sim, tenant, setup } = await benchTenant(stack, 'bench', ['Support']);
  const email = `attendant@${tenant.marker}.test`;
  await ok(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: 'Attendant', email, password: PASSWORD, profile: 'user', queueIds: setup.queueIds },
  });
  if (withPrompt) {
    const queueId = setup.queueIds[0] as number;
    const prompt = await ok<{ id: number }>(call, 'POST', '/prompt', {
      token: tenant.admin.token,
      body: {
        name: 'Bench assistant',
        prompt: 'You answer every customer message briefly and kindly.',
        queueId,
        apiKey: 'sk-bench',
        maxMessages: 10,
      },
    });
    await ok(call, 'PUT', `/queue/${queueId}`, { token: tenant.admin.token, body: { promptId: prompt.id } });
  }
  const session = await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
  const socket = await connectSocket(stack.wsUrl, session.token);
  const tabs = await Promise.all(Array.from({ length: socketsPerEvent - 1 }, () => connectSocket(stack.wsUrl, session.token)));
  meter('DynamoDB', documentClient().middlewareStack as never);
  meterClientsOf('SQS', SQSClient, meter, ['SendMessageCommand', 'SendMessageBatchCommand']);
  meter('WebSocket', (await managementClient()).middlewareStack as never);

  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  /** Bodies of new contacts' first messages, and those messages' latencies. */
  const firsts = new Set<string>();
  const firstLatencies: number[] = [];
  /** Of each message's latency: until its event reached the inbound queue, and from there to the socket. */
  const toQueue: number[] = [];
  const fromQueue: number[] = [];
  const firstToQueue: number[] = [];
  const firstFromQueue: number[] = [];
  /** [send time, latency] of each delivered message, for the timeline. */
  const samples: Array<[number, number]> = [];
  const channel = channels.appMessage(tenant.companyId);
  /** With --prompt: the send time of each message whose answer is awaited, and the answers' latencies. */
  const answerAwaited = new Map<string, number>();
  const answerLatencies: number[] = [];
  /** Every bench message's send time, and the latency of each of its events on every socket. */
  const sentTimes = new Map<string, number>();
  const socketLatencies: number[] = [];
  const perSocket = (frame: { event: string; data: unknown; at: number }) => {
    if (frame.event !== channel) return;
    const event = frame.data as AppMessageEvent;
    const started = event.action === 'create' && !event.message.fromMe ? sentTimes.get(event.message.body) : undefined;
    if (started !== undefined) socketLatencies.push(frame.at - started);
  };
  for (const tab of tabs) tab.onFrame = perSocket;
  socket.onFrame = (frame) => {
    perSocket(frame);
    if (frame.event !== channel) return;
    const event = frame.data as AppMessageEvent;
    if (event.action !== 'create') return;
    if (event.message.fromMe) {
      const asked = event.message.bot && event.message.body.startsWith(ANSWER_PREFIX) ? event.message.body.slice(ANSWER_PREFIX.length) : '';
      const askedAt = answerAwaited.get(asked);
      if (askedAt === undefined) return;
      answerAwaited.delete(asked);
      answerLatencies.push(frame.at - askedAt);
      return;
    }
    const started = sentAt.get(event.message.body);
    if (started === undefined) return;
    sentAt.delete(event.message.body);
    latencies.push(frame.at - started);
    samples.push([started, frame.at - started]);
    if (firsts.has(event.message.body)) firstLatencies.push(frame.at - started);
    const queued = queuedAt.get(event.message.body);
    if (queued !== undefined) {
      (firsts.has(event.message.body) ? firstToQueue : toQueue).push(queued - started);
      (firsts.has(event.message.body) ? firstFromQueue : fromQueue).push(frame.at - queued);
    }
  };
  socket.frames.length = 0;

  const numbers = Array.from({ length: contactCount }, () => `55419${randomInt(10_000_000, 99_999_999)}`);
  // Warm-up: the stand-ins run on JITs (DynamoDB Local's JVM, V8) that compile the hot paths during
  // their first thousands of requests, which AWS's services never show us. The measured contacts
  // open their conversations here; new ones arrive during the measured run (--new).
  if (warmupSeconds > 0) {
    const warmupTotal = Math.round(warmupSeconds * rate);
    say(
      `warming up: ${warmupTotal} messages at ${rate}/s from the ${contactCount} contacts, opening their conversations (not measured)...`,
    );
    const w0 = Date.now();
    await Promise.all(
      Array.from({ length: warmupTotal }, async (_, i) => {
        await sleep(Math.max(0, w0 + (i * 1000) / rate - Date.now()));
        const body = `warmup ${i}`;
        sentAt.set(body, Date.now());
        await sim.send(setup.simId, numbers[i % contactCount] as string, body).catch(() => sentAt.delete(body));
      }),
    );
    for (const waitUntil = Date.now() + 60_000; sentAt.size && Date.now() < waitUntil; ) await sleep(200);
    sentAt.clear();
    sentTimes.clear();
    socketLatencies.length = 0;
    latencies.length = 0;
    samples.length = 0;
    socket.frames.length = 0;
  }

  const total = Math.round(seconds * rate);
  // Every `newEvery`-th message is a new contact's first message.
  const newEvery = newPerSecond > 0 ? Math.max(1, Math.round(rate / newPerSecond)) : 0;
  say(
    `driving ${total} messages at ${rate}/s from ${contactCount} contacts for ${seconds} s` +
      (newEvery ? `, every ${newEvery}th from a new contact (${(rate / newEvery).toFixed(1)} new conversations/s)...` : '...'),
  );
  const t0 = Date.now();
  const loadedBefore = new Set(coldStarts.keys());
  const cpuAtStart = stackCpuMs();
  const owners = values.profile ? await profileCpuOwners() : undefined;
  counts.on = true;
  const sends: Promise<unknown>[] = [];
  let failedSends = 0;
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    const body = `bench ${i}`;
    const fresh = newEvery > 0 && i % newEvery === newEvery - 1;
    const number = fresh ? `55417${randomInt(10_000_000, 99_999_999)}` : (numbers[i % contactCount] as string);
    if (fresh) firsts.add(body);
    sentAt.set(body, Date.now());
    sentTimes.set(body, Date.now());
    if (withPrompt) answerAwaited.set(body, Date.now());
    sends.push(
      sim.send(setup.simId, number, body).catch(() => {
        failedSends++;
        sentAt.delete(body);
      }),
    );
    socket.frames.length = 0; // the bench keeps latencies, not frames
    for (const tab of tabs) tab.frames.length = 0;
  }
  await Promise.all(sends);
  const drivenMs = Date.now() - t0;
  // Drain: wait while messages keep arriving; what has not arrived after `drain` seconds without
  // progress is lost. Late is not lost: its latency counts.
  let lastProgress = Date.now();
  let pending = sentAt.size + answerAwaited.size;
  while ((sentAt.size || answerAwaited.size) && Date.now() - lastProgress < drainMs) {
    await sleep(200);
    if (sentAt.size + answerAwaited.size < pending) {
      pending = sentAt.size + answerAwaited.size;
      lastProgress = Date.now();
    }
  }
  const lastAt = Date.now();
  const cpuAtEnd = stackCpuMs();
  const byOwner = await owners?.stop();
  counts.on = false;
  socket.close();
  for (const tab of tabs) tab.close();

  const lost = sentAt.size;
  const fmt = (ms: number) => `${Math.round(ms)} ms`;
  say('');
  say(
    `inbound bench: ${total} messages at ${rate}/s over ${(drivenMs / 1000).toFixed(1)} s from ${contactCount} contacts` +
      (warmupSeconds > 0 ? ` (after a ${warmupSeconds} s warm-up at the same rate, not measured)` : ''),
  );
  say(`  latency contact send -> attendant socket event (n=${latencies.length}):`);
  say(
    `    p50 ${fmt(percentile(latencies, 50))}  p90 ${fmt(percentile(latencies, 90))}  p99 ${fmt(percentile(latencies, 99))}  max ${fmt(Math.max(...latencies))}`,
  );
  if (firstLatencies.length) {
    say(
      `    of which new conversations' first messages (n=${firstLatencies.length}): p50 ${fmt(percentile(firstLatencies, 50))}  p99 ${fmt(percentile(firstLatencies, 99))}  max ${fmt(Math.max(...firstLatencies))}`,
    );
  }
  const split = (to: number[], from: number[]) =>
    `to the queue p50 ${fmt(percentile(to, 50))} p99 ${fmt(percentile(to, 99))}, queue to socket p50 ${fmt(percentile(from, 50))} p99 ${fmt(percentile(from, 99))}`;
  if (toQueue.length) say(`    other messages: ${split(toQueue, fromQueue)}`);
  if (firstToQueue.length) say(`    first messages: ${split(firstToQueue, firstFromQueue)}`);
  const coldDuring = [...coldStarts].filter(([file]) => !loadedBefore.has(file));
  say(
    `  local cold starts during the run (handlers imported from their TypeScript sources; a deployed function imports its bundle): ${
      coldDuring.map(([file, ms]) => `${file} ${fmt(ms)}`).join(', ') || 'none'
    }`,
  );
  say(
    `  delivered ${latencies.length}/${total}, lost ${lost} (not on the socket after ${drainMs / 1000} s without progress), sends refused ${failedSends}`,
  );
  // Where the slow ones were sent: a tail that comes in bursts points at something periodic.
  const windowMs = 5_000;
  const windows = new Map<number, number[]>();
  for (const [at, latency] of samples) {
    const index = Math.floor((at - t0) / windowMs);
    const bucket = windows.get(index) ?? [];
    bucket.push(latency);
    windows.set(index, bucket);
  }
  say(
    `  p99 per ${windowMs / 1000} s of sending: ${[...windows]
      .sort((a, b) => a[0] - b[0])
      .map(([, values]) => Math.round(percentile(values, 99)))
      .join(' ')} ms`,
  );
  if (withPrompt) {
    say(
      `  with an AI prompt on the queue: contact send -> the assistant's answer on the attendant's socket (n=${answerLatencies.length}):`,
    );
    say(
      `    p50 ${fmt(percentile(answerLatencies, 50))}  p90 ${fmt(percentile(answerLatencies, 90))}  p99 ${fmt(percentile(answerLatencies, 99))}  max ${fmt(Math.max(...answerLatencies))}`,
    );
    say(
      `    over the message's own latency (the takeover's overhead: bot-turns hop, turn, commit, send; the fake model answers in ~1 ms): p50 ${fmt(percentile(answerLatencies, 50) - percentile(latencies, 50))}`,
    );
    say(`    answers missing after the drain: ${answerAwaited.size}`);
  }
  say(`  machine load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`);
  say(`  throughput ${(latencies.length / ((lastAt - t0) / 1000)).toFixed(1)} msg/s end to end`);
  if (cpuAtStart !== undefined && cpuAtEnd !== undefined && latencies.length) {
    const spent = (sumOf(cpuAtEnd) - sumOf(cpuAtStart)) / latencies.length;
    say(
      `  stack CPU ${spent.toFixed(1)} ms per message delivered (${((sumOf(cpuAtEnd) - sumOf(cpuAtStart)) / 1000).toFixed(1)} s in all):`,
    );
    for (const [name, ms] of [...cpuAtEnd].sort((a, b) => b[1] - a[1])) {
      const per = (ms - (cpuAtStart.get(name) ?? 0)) / latencies.length;
      if (per >= 0.05) say(`    ${per.toFixed(1).padStart(6)} ms  ${name}`);
    }
    if (byOwner) {
      say('  this process by owner (--profile: V8 samples, each to the innermost frame of ours on its stack):');
      for (const [owner, ms] of byOwner) {
        const per = ms / latencies.length;
        if (per >= 0.05) say(`    ${per.toFixed(1).padStart(6)} ms  ${owner}`);
      }
    }
  }
  if (latencies.length) {
    const perMessage = (n: number) => (n / latencies.length).toFixed(2);
    const all = [...requests.values()].reduce((a, b) => a + b, 0);
    say(`  the handlers' AWS requests per message delivered: ${perMessage(all)}`);
    for (const [key, n] of [...requests].sort((a, b) => b[1] - a[1])) {
      const ms = requestMs.get(key) ?? [];
      say(`    ${perMessage(n).padStart(6)}  ${key}  (p50 ${fmt(percentile(ms, 50))}, p99 ${fmt(percentile(ms, 99))})`);
    }
    const handlersSent = (action: string) => handlerSqs.get(action) ?? 0;
    const hostSends = ['SendMessage', 'SendMessageBatch'].map(
      (action) => [action, (sqsServed.get(action) ?? 0) - handlersSent(action)] as const,
    );
    const hostCalls = hostSends.reduce((a, [, n]) => a + n, 0);
    const hostEntries = counts.sqsEntries - handlersSent('SendMessage') - counts.handlerEntries;
    say(
      `  the session-host's SQS sends per message delivered: ${perMessage(hostCalls)} (${hostSends.map(([a, n]) => `${a} ${perMessage(n)}`).join(', ')}; ${hostEntries} events, ${(hostEntries / Math.max(1, hostCalls)).toFixed(2)} per call)`,
    );
  }
  if (latencies.length) {
    const calls = (name?: string) =>
      [...requests].filter(([key]) => key.startsWith(`WebSocket ${name ?? ''}`)).reduce((sum, [, n]) => sum + n, 0);
    const posts = calls('PostToConnection') / latencies.length;
    const management = calls() / latencies.length;
    say(
      `  realtime: ${socketsPerEvent} entitled socket${socketsPerEvent > 1 ? 's' : ''} per event, coalescing window ${coalesceMs || 'off'}${coalesceMs ? ' ms' : ''}:`,
    );
    say(
      `    PostToConnection per inbound message ${posts.toFixed(2)} (${(posts / socketsPerEvent).toFixed(2)} per socket); API Gateway management calls per message ${management.toFixed(2)}`,
    );
    say(
      `    latency contact send -> each socket's event (n=${socketLatencies.length}): p50 ${fmt(percentile(socketLatencies, 50))}  p99 ${fmt(percentile(socketLatencies, 99))}`,
    );
    say(
      `    API Gateway's 10,000 requests/s per account and region binds at ~${Math.round(10_000 / Math.max(management, 0.01))} inbound msg/s at this ratio`,
    );
  }
  say(
    `  the inbound consumer's batches: ${(counts.consumerRecords / Math.max(1, counts.consumerBatches)).toFixed(2)} records per invocation`,
  );
  const p50Ok = percentile(latencies, 50) <= 150;
  const p99Ok = percentile(latencies, 99) <= 500;
  say(
    `  goals: p50 <= 150 ms ${p50Ok ? 'met' : 'MISSED'}, p99 <= 500 ms ${p99Ok ? 'met' : 'MISSED'}, 0 lost ${lost === 0 ? 'met' : 'MISSED'}`,
  );
  return !p50Ok || !p99Ok || lost ? 1 : 0;
});
