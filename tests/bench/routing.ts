/**
 * Routing bench (issue 22 §2 "Done means"): new conversations arrive at a steady rate into one queue
 * with automatic assignment, served by online attendants with maxOpenTickets who resolve as they go,
 * against a local stack this script starts. Prints:
 *   - p50/p90/p99/max from a contact's first message (the simulator's POST) to the ticket's `open`
 *     update on its attendant's socket;
 *   - the most open tickets any attendant held at any moment: sampled from the attendants' seat items
 *     (storage/tickets/routing.ts) every 100 ms, and counted from each attendant's own events (+1 on
 *     its open update, -1 on its closed update): both must stay <= maxOpenTickets;
 *   - tickets assigned twice (two attendants got the same ticket open): must be 0;
 *   - the spread of assignments over the attendants (round robin: even);
 *   - conversations never assigned once arrivals stopped and the drain time passed.
 *
 *   npm run bench:routing                                  (1,000 conversations over 60 s, 10 attendants, max 5)
 *   npm run bench:routing -- --conversations 100 --seconds 20 --mode leastBusy --hold 1500
 *
 * Each attendant resolves a ticket `--hold` ms (+-50 %) after its open event reached them. The stack's
 * log goes to tests/artifacts/bench-routing.log.
 */
import { randomInt } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import { channels } from '@conversa/functions/contracts/channels';
import type { TicketEvent } from '@conversa/functions/contracts/tickets';
import { readSeats } from '@conversa/functions/storage/tickets/routing';
import { PASSWORD } from '../integration/tenants.ts';
import { connectSocket, ok, percentile, type Socket, sleep } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { benchTenant, runBench } from './run-bench.ts';
import { stackCpuMs, sumOf } from './stack-cpu.ts';

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '60' },
    attendants: { type: 'string', default: '10' },
    max: { type: 'string', default: '5' },
    mode: { type: 'string', default: 'roundRobin' },
    hold: { type: 'string', default: '2000' },
    drain: { type: 'string', default: '60' },
  },
});
const conversations = Number(values.conversations);
const seconds = Number(values.seconds);
const attendantCount = Number(values.attendants);
const max = Number(values.max);
const mode = values.mode === 'leastBusy' ? 'leastBusy' : 'roundRobin';
const holdMs = Number(values.hold);
const drainMs = Number(values.drain) * 1000;

const bench = benchLog('routing');
const { log, say } = bench;
await runBench({ ...bench, failureCode: 1, errorText: String }, async (stack) => {
  const { call, sim, tenant, setup } = await benchTenant(stack, 'routing', ['Support']);
  const { companyId } = tenant;
  const queueId = setup.queueIds[0] as number;
  await ok(call, 'PUT', `/queue/${queueId}`, { token: tenant.admin.token, body: { autoAssign: mode } });

  interface Attendant {
    id: number;
    token: string;
    socket: Socket;
    held: Set<number>;
    assigned: number;
    maxHeld: number;
  }
  const attendants: Attendant[] = [];
  for (let i = 0; i < attendantCount; i++) {
    const email = `attendant${i}@${tenant.marker}.test`;
    const user = await ok<{ id: number }>(call, 'POST', '/users', {
      token: tenant.admin.token,
      body: { name: `Attendant ${i}`, email, password: PASSWORD, profile: 'user', queueIds: [queueId], maxOpenTickets: max },
    });
    const session = await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
    const socket = await connectSocket(stack.wsUrl, session.token);
    socket.send('userStatus', 'online');
    attendants.push({ id: user.id, token: session.token, socket, held: new Set(), assigned: 0, maxHeld: 0 });
  }
  // The spec's client says its status every 5 minutes; here more often, so no socket's heartbeat goes stale on a slow run.
  const heartbeat = setInterval(() => {
    for (const a of attendants) a.socket.send('userStatus', 'online');
  }, 30_000);

  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  /** ticket id -> the attendants who got it open. */
  const owners = new Map<number, Set<number>>();
  const channel = channels.ticket(companyId);
  const resolves: Promise<unknown>[] = [];
  let resolveFailures = 0;
  /** How long each resolve's PUT took (the seat frees at its commit; routing runs after it, in the same call). */
  const resolveMs: number[] = [];
  /** When each assignment reached its attendant, for the timeline. */
  const openedAt: number[] = [];
  for (const a of attendants) {
    a.socket.onFrame = (frame) => {
      if (frame.event !== channel) return;
      const event = frame.data as TicketEvent;
      if (event.action !== 'update') return;
      // Its close reaches them before the ticket that takes the freed seat (one socket keeps the order).
      if (event.ticket.status !== 'open') a.held.delete(event.ticket.id);
      if (event.ticket.status !== 'open' || event.ticket.userId !== a.id) return;
      const ticket = event.ticket;
      const seen = owners.get(ticket.id) ?? new Set<number>();
      if (seen.has(a.id)) return; // a later update of a ticket already theirs (a message, the greeting)
      seen.add(a.id);
      owners.set(ticket.id, seen);
      const sent = sentAt.get(ticket.contact?.number ?? '');
      if (sent !== undefined) latencies.push(frame.at - sent);
      openedAt.push(frame.at);
      a.assigned++;
      a.held.add(ticket.id);
      a.maxHeld = Math.max(a.maxHeld, a.held.size);
      const wait = Math.round(holdMs * (0.5 + Math.random()));
      resolves.push(
        sleep(wait)
          .then(async () => {
            const put = Date.now();
            await ok(call, 'PUT', `/tickets/${ticket.id}`, { token: a.token, body: { status: 'closed' } });
            resolveMs.push(Date.now() - put);
          })
          .catch((error: unknown) => {
            resolveFailures++;
            log(`resolve ${ticket.id} failed: ${String(error)}`);
          })
          .finally(() => a.held.delete(ticket.id)),
      );
    };
  }

  // The handlers' DynamoDB requests by command and item kind (the stack's Lambdas run in this process,
  // on this client); the sampler's own reads are subtracted.
  const requests = new Map<string, number>();
  let metering = false;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (metering) {
        const input = args.input as {
          Key?: { pk?: string; sk?: string };
          IndexName?: string;
          ExpressionAttributeValues?: Record<string, unknown>;
        };
        const pk = String(input.ExpressionAttributeValues?.[':pk'] ?? input.Key?.pk ?? '');
        const kind = `${input.IndexName ?? ''} ${pk.replace(/^C#\d+#?/, '').replace(/\d+/g, 'n')} ${String(input.Key?.sk ?? '').replace(/[#:].*$/, '')}`;
        const key = `${context.commandName?.replace(/Command$/, '') ?? '?'} ${kind.trim()}`;
        requests.set(key, (requests.get(key) ?? 0) + 1);
      }
      return next(args);
    },
    { step: 'initialize', name: 'routingBenchMeter' },
  );
  let samplerReads = 0;

  // The seats as the store holds them, sampled: the most any attendant held at any moment.
  let maxSeat = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samplerReads += Math.ceil(attendants.length / 100);
      const seats = await readSeats(
        companyId,
        attendants.map((a) => a.id),
      );
      maxSeat = Math.max(maxSeat, ...seats.values());
      await sleep(100);
    }
  })();

  say(
    `${conversations} new conversations over ${seconds} s into one ${mode} queue of ${attendantCount} attendants (max ${max}), hold ${holdMs} ms`,
  );
  metering = true;
  const cpuAtStart = stackCpuMs();
  const started = Date.now();
  const interval = (seconds * 1000) / conversations;
  const sends: Promise<unknown>[] = [];
  let sendFailures = 0;
  for (let i = 0; i < conversations; i++) {
    const due = started + i * interval;
    const now = Date.now();
    if (due > now) await sleep(due - now);
    const number = `55119${randomInt(10_000_000, 99_999_999)}`;
    sentAt.set(number, Date.now());
    sends.push(
      sim.send(setup.simId, number, `hello ${i}`, `Contact ${i}`).catch((error: unknown) => {
        sendFailures++;
        log(`send ${i} failed: ${String(error)}`);
      }),
    );
  }
  await Promise.all(sends);
  const arrivalsMs = Date.now() - started;
  const deadline = Date.now() + drainMs;
  while (owners.size < conversations - sendFailures && Date.now() < deadline) await sleep(250);
  await Promise.all(resolves);
  sampling = false;
  await sampler;
  metering = false;
  const cpuAtEnd = stackCpuMs();
  clearInterval(heartbeat);

  const twice = [...owners.values()].filter((set) => set.size > 1).length;
  const maxHeldByEvents = Math.max(...attendants.map((a) => a.maxHeld));
  const spread = attendants.map((a) => a.assigned);
  say('');
  say(`arrivals: ${conversations - sendFailures} sent in ${(arrivalsMs / 1000).toFixed(1)} s (${sendFailures} send failures)`);
  say(
    `first message -> open on the attendant's socket: p50 ${percentile(latencies, 50)} ms, p90 ${percentile(latencies, 90)} ms, p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms (${latencies.length} tickets)`,
  );
  say(`most open tickets any attendant held: ${maxSeat} by the seat items, ${maxHeldByEvents} by their own events (max ${max})`);
  say(`tickets assigned twice: ${twice}`);
  say(`resolve (PUT closed) took p50 ${percentile(resolveMs, 50)} ms, p99 ${percentile(resolveMs, 99)} ms (${resolveMs.length})`);
  const perTen = new Map<number, number>();
  for (const at of openedAt) perTen.set(Math.floor((at - started) / 10_000), (perTen.get(Math.floor((at - started) / 10_000)) ?? 0) + 1);
  say(
    `assignments per 10 s from the first arrival: [${[...perTen]
      .sort((a, b) => a[0] - b[0])
      .map(([, n]) => n)
      .join(', ')}]`,
  );
  if (cpuAtStart && cpuAtEnd)
    say(
      `stack CPU ${((sumOf(cpuAtEnd) - sumOf(cpuAtStart)) / 1000).toFixed(1)} s: ${[...cpuAtEnd]
        .map(([name, ms]) => [name, ms - (cpuAtStart.get(name) ?? 0)] as const)
        .filter(([, ms]) => ms > 500)
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`)
        .join(', ')}`,
    );
  say(`assignments per attendant: [${spread.join(', ')}] (min ${Math.min(...spread)}, max ${Math.max(...spread)})`);
  say(
    `never assigned within the ${drainMs / 1000} s drain: ${conversations - sendFailures - owners.size}; resolve failures: ${resolveFailures}`,
  );
  const batchGets = [...requests.keys()].find((key) => key.startsWith('BatchGetItem'));
  if (batchGets) requests.set(batchGets, (requests.get(batchGets) ?? 0) - samplerReads);
  const assignments = spread.reduce((a, b) => a + b, 0) || 1;
  const allRequests = [...requests.values()].reduce((a, b) => a + b, 0);
  say(`DynamoDB requests per assignment (everything: inbound, routing, resolves, sockets): ${(allRequests / assignments).toFixed(1)}`);
  for (const [key, n] of [...requests].sort((a, b) => b[1] - a[1]).slice(0, 24))
    say(`  ${(n / assignments).toFixed(2).padStart(7)}  ${key}`);
  say(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  for (const a of attendants) a.socket.close();
  return maxSeat > max || maxHeldByEvents > max || twice > 0 ? 1 : 0;
});
