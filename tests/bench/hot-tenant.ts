/**
 * Hot tenant bench (issue 15): one tenant's contacts write into one queue at --rate messages a second
 * for --seconds, and the bench prints the DynamoDB partitions that take the most writes, against
 * the 1,000 WCU/s a partition takes in AWS. DynamoDB Local enforces no partition limit, so the
 * writes are charged from the handlers' own requests by write-units.ts (the item images before and
 * after each write, as DynamoDB charges them).
 *
 * Events enter the inbound queue through the session-host's own publisher (no phone, no session
 * host: the machine's two cores go to the consumer and DynamoDB Local). The contacts open their
 * conversations first (not counted); the counted run is an inbox at work. This machine falls short
 * of 300 msg/s: the bench prints the rate it reached, each partition's WCU per message and, from
 * that, its WCU/s at --target messages a second (300 by default).
 *
 * A tenant's ticket lists are write-sharded past 100 messages a second (functions/src/storage/list-shards.ts);
 * this machine does not reach that, so `--list-shards N` gives the tenant N shards before it starts,
 * to measure the partitions as a sharded tenant writes them. The bench prints the count it ran with.
 *
 *   npm run bench:hot-tenant                                  (300 msg/s asked for 60 s)
 *   npm run bench:hot-tenant -- --rate 40 --seconds 20 --contacts 200
 *   npm run bench:hot-tenant -- --list-shards 4
 *
 * The stack's log goes to tests/artifacts/bench-hot-tenant.log.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '@conversa/functions/commons/dynamodb';
import { env } from '@conversa/functions/commons/env';
import { getCompany, raiseListShards } from '@conversa/functions/storage/companies/companies';
import { listShardsOf } from '@conversa/functions/storage/list-shards';
import { createInboundPublisher } from '@conversa/session-host/inbound-publisher';
import { sleep } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { benchTenant, runBench } from './run-bench.ts';
import { meterWriteUnits } from './write-units.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '60' },
    contacts: { type: 'string', default: '1000' },
    target: { type: 'string', default: '300' },
    top: { type: 'string', default: '8' },
    'list-shards': { type: 'string', default: '1' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const contactCount = Number(values.contacts);
const target = Number(values.target);
const PARTITION_WCU = 1000;

const bench = benchLog('hot-tenant');
const { log, say } = bench;

/** WCU per partition ("<table or index> <partition key>") per second since the start. */
const writes = new Map<string, Map<number, number>>();
let metering = false;
let meterStart = 0;
const charge = (partition: string, wcu: number) => {
  const second = Math.floor((Date.now() - meterStart) / 1000);
  const perSecond = writes.get(partition) ?? new Map<number, number>();
  perSecond.set(second, (perSecond.get(second) ?? 0) + wcu);
  writes.set(partition, perSecond);
};

await runBench(bench, async (stack) => {
  const { tenant, setup } = await benchTenant(stack, 'hot', ['Support']);
  const listShards = Number(values['list-shards']);
  if (listShards > 1) await raiseListShards(tenant.companyId, listShards);
  // The bench's own reads (images before and after each write): a client of its own, never counted.
  const reader = DynamoDBDocumentClient.from(new DynamoDBClient({ region: stack.env.AWS_REGION, endpoint: stack.env.DYNAMODB_ENDPOINT }));
  const table = stack.env.TABLE_NAME as string;
  meterWriteUnits(documentClient(), reader, table, { enabled: () => metering, charge });

  const inbound = createInboundPublisher({
    sqs: new SQSClient({ region: env.region, endpoint: env.sqsEndpoint }),
    queueUrl: stack.env.QUEUE_URL_INBOUND as string,
    log: { info: () => undefined, warn: (m) => log(`publisher: ${m}`), error: (m) => log(`publisher: ${m}`) },
  });
  // Customer text: 3 to 12 words drawn with Zipf weights from the words of a support inbox, so a
  // common word's search-index partition is as hot as it would be in a real one.
  const vocabulary = (
    'obrigado bom dia boa tarde noite pedido entrega quando chega ainda nao recebi produto boleto pix pagamento ' +
    'cancelar troca atraso endereco prazo nota fiscal garantia defeito tamanho cor estoque cupom desconto compra ' +
    'site aplicativo senha cadastro conta retirada loja horario atendimento reembolso devolucao frete rastreio codigo'
  ).split(' ');
  const weights = vocabulary.map((_, rank) => 1 / (rank + 1));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const word = () => {
    let pick = Math.random() * weightSum;
    for (const [i, weight] of weights.entries()) {
      pick -= weight;
      if (pick <= 0) return vocabulary[i] as string;
    }
    return vocabulary[0] as string;
  };
  const text = (i: number) => [...Array.from({ length: 3 + (i % 10) }, word), String(i)].join(' ');
  const numbers = Array.from({ length: contactCount }, (_, i) => `5541${String(90_000_000 + i)}`);
  const event = (number: string, body: string) => ({
    kind: 'message' as const,
    companyId: tenant.companyId,
    connectionId: setup.connectionId,
    message: { id: randomUUID().replace(/-/g, '').toUpperCase(), fromMe: false, number, isGroup: false, timestamp: Date.now(), body },
  });
  /** Waits until the consumer wrote nothing for `quietMs` (the queue drained). */
  let lastWrite = Date.now();
  documentClient().middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      lastWrite = Date.now();
      return next(args);
    }) as never,
    { step: 'initialize', name: 'hotTenantLastWrite' },
  );
  const drained = async (quietMs = 3000) => {
    await inbound.idle();
    while (Date.now() - lastWrite < quietMs) await sleep(250);
  };

  say(`opening ${contactCount} conversations (not counted)...`);
  await Promise.all(numbers.map((number, i) => inbound.publish(event(number, `hello ${i}`))));
  await drained();

  const total = Math.round(rate * seconds);
  say(`driving ${total} messages at ${rate}/s into one queue of one tenant for ${seconds} s...`);
  metering = true;
  meterStart = Date.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = meterStart + (i * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    sends.push(inbound.publish(event(numbers[i % contactCount] as string, text(i))));
  }
  await Promise.all(sends);
  const sentMs = Date.now() - meterStart;
  await drained();
  const doneMs = lastWrite - meterStart;
  metering = false;
  await inbound.close(1000);

  const achieved = total / (doneMs / 1000);
  say('');
  say(
    `hot tenant bench: ${total} messages asked at ${rate}/s (sent in ${(sentMs / 1000).toFixed(1)} s), processed in ${(doneMs / 1000).toFixed(1)} s: ${achieved.toFixed(1)} msg/s reached`,
  );
  say(`  the tenant's ticket lists: ${listShardsOf(await getCompany(tenant.companyId))} write shard(s)`);
  const tenantKey = `C#${tenant.companyId}`;
  const rows = [...writes].map(([partition, perSecond]) => {
    const all = [...perSecond.values()].reduce((a, b) => a + b, 0);
    return { partition: partition.replace(tenantKey, 'C#<tenant>'), perMessage: all / total, peak: Math.max(...perSecond.values()) };
  });
  rows.sort((a, b) => b.perMessage - a.perMessage);
  const totalWcu = rows.reduce((sum, row) => sum + row.perMessage, 0);
  say(`  WCU per message, all partitions: ${totalWcu.toFixed(2)}; partitions written: ${rows.length}`);
  say(`  the hottest partitions (WCU per message; peak WCU in one second here; WCU/s at ${target} msg/s against ${PARTITION_WCU}):`);
  for (const row of rows.slice(0, Number(values.top))) {
    const atTarget = row.perMessage * target;
    const verdict = atTarget > PARTITION_WCU ? 'OVER' : atTarget > PARTITION_WCU / 2 ? 'over half' : 'ok';
    say(
      `    ${row.perMessage.toFixed(2).padStart(6)}  peak ${String(Math.round(row.peak)).padStart(5)}  at ${target}/s ${String(Math.round(atTarget)).padStart(5)} WCU/s  ${verdict.padEnd(9)}  ${row.partition}`,
    );
  }
  // The ticket lists (storage/tickets/tickets.ts gsi1 queue, gsi3 status), sharded or not: the partitions sharding is for.
  const lists = rows.filter((row) => /^gsi[13] .*#TS#/.test(row.partition));
  const hottestLists = lists.slice(0, 4);
  say(`  the hottest ticket-list partitions (of ${lists.length}):`);
  for (const row of hottestLists)
    say(
      `    ${row.perMessage.toFixed(2).padStart(6)}  at ${target}/s ${String(Math.round(row.perMessage * target)).padStart(5)} WCU/s  ${row.partition}`,
    );
  const hottest = rows[0];
  if (hottest) {
    const binds = PARTITION_WCU / hottest.perMessage;
    say(
      `  the hottest partition reaches ${PARTITION_WCU} WCU/s at ~${Math.round(binds)} msg/s in one tenant (half of it at ~${Math.round(binds / 2)})`,
    );
  }
  return 0;
});
