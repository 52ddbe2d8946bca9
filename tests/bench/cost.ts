/**
 * Cost bench (issue 24 §1): what the operator pays AWS for Conversa's work, at the list prices of
 * aws-prices.ts. On a local stack this script starts, one tenant with one connection and an
 * attendant on the socket, it runs each scenario at a modest size, counts what AWS would bill
 * (cost-meter.ts: Lambda invocations and billed ms, DynamoDB read and write units, SQS requests,
 * API Gateway requests and WebSocket messages, S3 requests, log bytes), scales the counts to the
 * line's unit and prices them (cost-bill.ts):
 *
 *   1. a million inbound messages: contacts write on the simulated network, the session-host queues
 *      them, the inbound consumer stores them (search words included) and the attendant's socket
 *      gets each (their conversations opened before, not counted);
 *   2. a million attendant replies: POST /messages/{ticketId}, the send through the session-host and
 *      the phone's acks back;
 *   3. a million campaign sends: a list of --campaign contacts shipped at messageInterval 0;
 *   4. a thousand ticket-list pages: the attendant's pending and open lists, alternately;
 *   5. an idle company for a month: its session's share of a session-host task and of its egress
 *      address, what the session-host writes for it while idle (measured over --idle seconds), its
 *      attendants' sockets (one socket's connect, close and userStatus measured; hours assumed) and
 *      its storage (bytes per stored message measured; messages assumed).
 *
 * Counts carry from this 2-core machine; durations (Lambda GB-seconds) are this machine's, so the
 * Lambda share is an upper bound where the machine is busy. Run it twice: the counts per unit should
 * agree within a few percent.
 *
 *   npm run bench:cost
 *   npm run bench:cost -- --messages 300 --rate 20 --contacts 40 --campaign 200 --pages 200 --idle 60
 *
 * The stack's log goes to tests/artifacts/bench-cost.log.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { channels, SOCKET_PING_INTERVAL_MS, USER_STATUS_INTERVAL_MS } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import { getCampaign } from '@conversa/functions/storage/campaigns/campaigns';
import { tableDeclaration } from '@conversa/functions/storage/table';
import { DEFAULT_PROVISIONED } from '../../infra/lib/context.ts';
import { PASSWORD } from '../integration/tenants.ts';
import { connectSocket, ok, sleep } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { type Bill, bill, totalOf } from './cost-bill.ts';
import { prepareCostMeter, startWindow, type Tally } from './cost-meter.ts';
import { idleCompany, type Line, printLine, printNotes, printPartitions } from './cost-report.ts';
import { benchTenant, runBench } from './run-bench.ts';
import { stackCpuMs, sumOf } from './stack-cpu.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '300' },
    rate: { type: 'string', default: '20' },
    contacts: { type: 'string', default: '40' },
    replies: { type: 'string', default: '200' },
    campaign: { type: 'string', default: '200' },
    pages: { type: 'string', default: '200' },
    idle: { type: 'string', default: '60' },
    attendants: { type: 'string', default: '3' },
    hours: { type: 'string', default: '8' },
    days: { type: 'string', default: '22' },
    'stored-messages': { type: 'string', default: '100000' },
  },
});
const n = (name: keyof typeof values) => Number(values[name]);
const bench = benchLog('cost');
const { say } = bench;

const installMeters = prepareCostMeter();
await runBench(bench, async (stack) => {
  await installMeters(stack.env);
  const { call, sim, tenant, setup } = await benchTenant(stack, 'cost', ['Support']);
  const token = tenant.admin.token;
  const email = `attendant@${tenant.marker}.test`;
  const attendant = await ok<{ id: number }>(call, 'POST', '/users', {
    token,
    body: { name: 'Attendant', email, password: PASSWORD, profile: 'user', queueIds: setup.queueIds },
  });
  const session = await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
  const socket = await connectSocket(stack.wsUrl, session.token);
  const channel = channels.appMessage(tenant.companyId);
  /** Bodies awaited on the attendant's socket (an appMessage create of that body). */
  const awaited = new Set<string>();
  socket.onFrame = (frame) => {
    if (frame.event === channel && (frame.data as AppMessageEvent).action === 'create')
      awaited.delete((frame.data as AppMessageEvent).message.body);
    socket.frames.length = 0;
  };
  const arrived = async (what: string, timeoutMs = 120_000) => {
    for (const until = Date.now() + timeoutMs; awaited.size && Date.now() < until; ) await sleep(100);
    if (awaited.size) throw new Error(`${what}: ${awaited.size} never reached the attendant's socket`);
  };
  /** Waits until no function ran for `quietMs`: the queues drained and the acks came back. */
  const settled = async (tally: Tally, quietMs = 2500) => {
    const ran = () => [...tally.invocations.values()].reduce((a, i) => a + i.count, 0);
    for (let last = ran(), since = Date.now(); Date.now() - since < quietMs; await sleep(250)) {
      if (ran() !== last) [last, since] = [ran(), Date.now()];
    }
  };
  const paced = async (count: number, rate: number, each: (i: number) => Promise<unknown>) => {
    const t0 = Date.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < count; i++) {
      await sleep(Math.max(0, t0 + (i * 1000) / rate - Date.now()));
      sends.push(each(i));
    }
    await Promise.all(sends);
  };
  const lines: Line[] = [];
  const measure = async (name: string, unit: string, units: number, per: number, run: (tally: Tally) => Promise<void>) => {
    say(`measuring: ${name} (${units} ${unit}s)...`);
    const cpuBefore = stackCpuMs();
    const window = startWindow();
    await run(window.tally);
    await settled(window.tally);
    const tally = await window.stop();
    const cpuAfter = stackCpuMs();
    const cpuMs = cpuBefore && cpuAfter ? (sumOf(cpuAfter) - sumOf(cpuBefore)) / units : undefined;
    const line: Line = { name, unit, units, per, tally, bill: bill(tally), provisioned: bill(tally, DEFAULT_PROVISIONED), cpuMs };
    lines.push(line);
    return line;
  };

  // 1. Inbound. The contacts open their conversations first (a first message is a new ticket's work).
  // Customer text of 2 to 12 words (7 on average), so the search index writes what a real inbox's would.
  const said = [
    'oi',
    'bom dia, tudo bem?',
    'quero saber do meu pedido',
    'o boleto venceu ontem, pode mandar outro?',
    'ainda nao recebi o produto que comprei no site semana passada',
    'obrigado pela ajuda',
    'qual o prazo de entrega para o meu endereco em curitiba',
    'preciso trocar o tamanho da camisa que chegou hoje de manha',
  ];
  const text = (i: number) => `${said[i % said.length]} ${i}`;
  const contacts = Array.from({ length: n('contacts') }, (_, i) => `55419${String(70_000_000 + i * 37)}`);
  say(`opening ${contacts.length} conversations (not counted)...`);
  for (let i = 0; i < contacts.length; i++) awaited.add(`hello ${i}`);
  await paced(contacts.length, n('rate'), (i) => sim.send(setup.simId, contacts[i] as string, `hello ${i}`));
  await arrived('the first messages');
  await sleep(3000);
  const inbound = await measure('inbound messages', 'message', n('messages'), 1e6, async () => {
    for (let i = 0; i < n('messages'); i++) awaited.add(text(i));
    await paced(n('messages'), n('rate'), (i) => sim.send(setup.simId, contacts[i % contacts.length] as string, text(i)));
    await arrived('inbound');
  });

  // 2. Replies: the attendant takes the conversations (not counted), then answers in them.
  const pending = await ok<{ tickets: { id: number }[] }>(call, 'GET', '/tickets?status=pending&showAll=true', { token: session.token });
  for (const ticket of pending.tickets)
    await ok(call, 'PUT', `/tickets/${ticket.id}`, { token: session.token, body: { status: 'open', userId: attendant.id } });
  const tickets = pending.tickets.map((ticket) => ticket.id);
  await sleep(3000);
  await measure('attendant replies', 'reply', n('replies'), 1e6, async () => {
    for (let i = 0; i < n('replies'); i++) awaited.add(`reply ${i}`);
    await paced(n('replies'), n('rate'), (i) =>
      ok(call, 'POST', `/messages/${tickets[i % tickets.length]}`, { token: session.token, body: { body: `reply ${i}` } }),
    );
    await arrived('replies');
  });

  // 3. Campaign sends: the list is loaded first (not counted).
  const list = await ok<{ id: number }>(call, 'POST', '/contact-lists', { token, body: { name: 'Cost' } });
  const numbers = Array.from({ length: n('campaign') }, (_, i) => `55219${String(60_000_000 + i * 41)}`);
  for (let i = 0; i < numbers.length; i += 250) {
    const chunk = numbers.slice(i, i + 250).map((number, j) => ({ name: `Contato ${i + j}`, number, email: '' }));
    await ok(call, 'POST', `/contact-lists/${list.id}/upload`, { token, body: { contacts: chunk } });
  }
  await ok(call, 'POST', '/campaign-settings', {
    token,
    body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 } },
  });
  await sleep(3000);
  await measure('campaign sends', 'send', n('campaign'), 1e6, async () => {
    const campaign = await ok<{ id: number }>(call, 'POST', '/campaigns', {
      token,
      body: {
        name: 'Cost',
        contactListId: list.id,
        whatsappId: setup.connectionId,
        message1: 'Oferta para {nome}',
        status: 'EM_ANDAMENTO',
      },
    });
    // Read straight from the table, outside any invocation: the bench's polling is not the product's cost.
    for (const until = Date.now() + 15 * 60_000; (await getCampaign(tenant.companyId, campaign.id))?.status !== 'FINALIZADA'; ) {
      if (Date.now() > until) throw new Error('the campaign did not finish in 15 minutes');
      await sleep(500);
    }
  });

  // 4. Ticket-list pages, the attendant's two lists in turn.
  await measure('ticket-list pages', 'page', n('pages'), 1000, async () => {
    for (let i = 0; i < n('pages'); i++)
      await ok(call, 'GET', `/tickets?status=${i % 2 ? 'open' : 'pending'}&showAll=true&pageNumber=1`, { token: session.token });
  });

  // 5. Idle: the attendant's socket closed, nothing happens for --idle seconds; then one socket's life.
  socket.close();
  await sleep(3000);
  const idle = await measure('idle session-host', 'second', n('idle'), 1, async () => {
    await sleep(n('idle') * 1000);
  });
  const socketLife = await measure('a socket: connect, close', 'socket', 5, 1, async () => {
    for (let i = 0; i < 5; i++) (await connectSocket(stack.wsUrl, session.token)).close();
    await sleep(1000);
  });
  const statusSocket = await connectSocket(stack.wsUrl, session.token);
  await sleep(1000);
  const userStatus = await measure('userStatus', 'message', 10, 1, async () => {
    for (let i = 0; i < 10; i++) statusSocket.send('userStatus', 'online');
    await sleep(1000);
  });
  statusSocket.close();
  lines.splice(lines.indexOf(idle), 3);

  // Storage: every item of the tenant and its index copies, over the messages it stores.
  const reader = DynamoDBDocumentClient.from(new DynamoDBClient({ region: stack.env.AWS_REGION, endpoint: stack.env.DYNAMODB_ENDPOINT }));
  let bytes = 0;
  let messages = 0;
  const own = (pk: unknown) => typeof pk === 'string' && (pk === `C#${tenant.companyId}` || pk.startsWith(`C#${tenant.companyId}#`));
  for (let start: Record<string, unknown> | undefined, first = true; first || start; first = false) {
    const page = await reader.send(new ScanCommand({ TableName: stack.env.TABLE_NAME, ExclusiveStartKey: start }));
    for (const item of (page.Items ?? []).filter((entry) => own(entry.pk))) {
      // Each item, and each index copy (every index projects ALL), stored with DynamoDB's 100 bytes of overhead.
      const copies = 1 + tableDeclaration.globalIndexes.filter((index) => item[index.partitionKey] !== undefined).length;
      bytes += copies * (Buffer.byteLength(JSON.stringify(item)) + 100);
      if (String(item.sk).startsWith('MSG#')) messages++;
    }
    start = page.LastEvaluatedKey;
  }

  say('');
  say(
    `cost bench, ${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? '?'} x ${availableParallelism()}, load ${loadavg()[0]?.toFixed(1)}`,
  );
  for (const line of lines) printLine(say, line);
  const idleBill: Bill = idleCompany(say, {
    idle,
    socketLife,
    userStatus,
    attendants: n('attendants'),
    hours: n('hours'),
    days: n('days'),
    pingMs: SOCKET_PING_INTERVAL_MS,
    userStatusMs: USER_STATUS_INTERVAL_MS,
    bytesPerMessage: bytes / Math.max(1, messages),
    storedMessages: n('stored-messages'),
  });
  const inboundCost = totalOf(inbound.bill) * (inbound.per / inbound.units);
  const inboundProvisioned = totalOf(inbound.provisioned) * (inbound.per / inbound.units);
  const dominated = printPartitions(say, inbound);
  say('');
  say(
    `goal: at most $5 per million inbound messages all in: $${inboundCost.toFixed(2)} on demand ${inboundCost <= 5 ? 'met' : 'MISSED'}, ` +
      `$${inboundProvisioned.toFixed(2)} provisioned ${inboundProvisioned <= 5 ? 'met' : 'MISSED'}; ` +
      `no line dominated by one index: ${dominated ? `MISSED (${dominated})` : 'met'}`,
  );
  printNotes(say, { tenantBytes: bytes, tenantMessages: messages, idleTotal: totalOf(idleBill) });
  return inboundCost > 5 || dominated ? 1 : 0;
});
