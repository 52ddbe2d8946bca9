/**
 * The table's stream consumers (functions/src/declarations/table-streams.ts) over a test file's own
 * table, run only when the file asks: nothing reads the stream in the background, so a unit file
 * leaves no timer behind and costs the shared DynamoDB Local nothing between its writes. Each call
 * hands the consumers every record written since the last one, as Lambda's event source mapping
 * would (the declared filters, batches and order, the same handlers), and waits for them.
 *
 *   await receiveMessage(...);
 *   await drainTableStreams();   // the message's search words are written now
 *
 * A batch that fails is retried (bisected) at once rather than over seconds, and records a consumer
 * gave up on make drainTableStreams() reject: a test sees the consumer's error, not a missing index.
 */
import type { DeadLetter, TableStreams } from '../../../infra/local/table-streams.ts';

interface Poller {
  streams: TableStreams;
  dropped: DeadLetter[];
}

/** By table: a file may make more than one (startDynamoDbLocal with setEnv). */
const pollers = new Map<string, Promise<Poller>>();

/** Runs the stream consumers over the table of TABLE_NAME at DYNAMODB_ENDPOINT until what was written before the call is consumed. */
export async function drainTableStreams(): Promise<void> {
  const { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint } = process.env;
  if (!tableName || !endpoint)
    throw new Error('drainTableStreams() needs TABLE_NAME and DYNAMODB_ENDPOINT: call startDynamoDbLocal() first');
  const key = `${endpoint}/${tableName}`;
  let poller = pollers.get(key);
  if (!poller) {
    poller = startPoller(endpoint, tableName);
    pollers.set(key, poller);
  }
  const { streams, dropped } = await poller;
  await streams.drain();
  const given = dropped.splice(0);
  if (given.length) {
    const lines = given.map((d) => `${d.consumer}: ${d.sequenceNumbers.length} record(s) ${d.reason}`);
    throw new Error(`stream consumers gave records up:\n  ${lines.join('\n  ')}`, { cause: given[0]?.error });
  }
}

/** Called when the file's table is dropped (startDynamoDbLocal's stop). */
export async function stopTableStreams(tableName: string): Promise<void> {
  for (const [key, poller] of pollers) {
    if (!key.endsWith(`/${tableName}`)) continue;
    pollers.delete(key);
    await (await poller.catch(() => undefined))?.streams.stop();
  }
}

async function startPoller(endpoint: string, tableName: string): Promise<Poller> {
  // Loaded on the first drain: a file that never drains does not load the streams client.
  const { startTableStreams } = await import('../../../infra/local/table-streams.ts');
  const dropped: DeadLetter[] = [];
  const streams = startTableStreams({
    endpoint,
    tableName,
    region: process.env.AWS_REGION ?? 'us-east-1',
    log: (line) => console.warn(line),
    background: false,
    retryBackoffMs: 5,
    maxRetryBackoffMs: 20,
    onDeadLetter: (dead) => dropped.push(dead),
  });
  return { streams, dropped };
}
