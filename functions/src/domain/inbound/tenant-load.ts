/**
 * How busy a tenant is, to shard its ticket lists before one of their partitions runs hot
 * (storage/list-shards.ts). Each inbound message of a tenant's tickets rewrites its queue and status
 * list rows: at ~1 WCU a message a partition, one busy queue reaches a partition's 1,000 WCU/s at about
 * 1,000 messages a second. The count of shards grows by LIST_SHARD_STEPS as the tenant's message
 * rate over a WINDOW_SECONDS window passes each step (4 shards past 100 messages a second, so the
 * hottest list partition stays under a tenth of its limit at 300).
 *
 * Counting costs small tenants nothing: a container adds up each tenant's messages of the current
 * window in memory and writes them to the tenant's window counter (one ADD, storage/rate-limits.ts)
 * only when FLUSH_EVERY have gathered. The counter therefore misses at most FLUSH_EVERY - 1
 * messages a window per container, a few messages a second against steps of hundreds.
 */
import { logger } from '#commons/logger';
import { raiseListShards } from '#storage/companies/companies';
import { primeListShards } from '#storage/list-shards';
import { addToWindow } from '#storage/rate-limits';

export const WINDOW_SECONDS = 10;
export const FLUSH_EVERY = 20;
/** From the largest: a tenant past `messagesPerSecond` gets `shards`. */
export const LIST_SHARD_STEPS = [
  { messagesPerSecond: 400, shards: 16 },
  { messagesPerSecond: 100, shards: 4 },
] as const;

export interface LoadOptions {
  now?: number;
  flushEvery?: number;
  steps?: ReadonlyArray<{ messagesPerSecond: number; shards: number }>;
}

const MAX_GATHERED = 10_000;
/** Per tenant, the messages this container has seen in the current window and not yet counted. */
const gathered = new Map<number, { window: number; count: number }>();

/** The shards a tenant with `count` messages in one window needs (1: none). */
export function shardsFor(count: number, steps: LoadOptions['steps'] = LIST_SHARD_STEPS): number {
  const rate = count / WINDOW_SECONDS;
  return steps.find((step) => rate >= step.messagesPerSecond)?.shards ?? 1;
}

/**
 * Counts a batch's messages per tenant (`messages`: tenant -> messages in the batch) and raises a
 * tenant's list shards when its window passes a step. Returns the tenants raised.
 */
export async function observeInboundLoad(messages: Map<number, number>, options: LoadOptions = {}): Promise<number[]> {
  const now = options.now ?? Date.now();
  const window = Math.floor(now / 1000 / WINDOW_SECONDS);
  const raised: number[] = [];
  // Tenants that went quiet keep an entry of an old window: drop those before the map grows with the tenants seen.
  if (gathered.size > MAX_GATHERED) for (const [companyId, seen] of gathered) if (seen.window !== window) gathered.delete(companyId);
  await Promise.all(
    [...messages].map(async ([companyId, count]) => {
      // Started at once: the batch's ticket writes wait on this same cached read (storage/list-shards.ts).
      // Awaited below, after the counter's write: marked handled now, so a failure meanwhile is not an unhandled rejection.
      const known = primeListShards(companyId);
      known.catch(() => undefined);
      const seen = gathered.get(companyId);
      const mine = seen?.window === window ? seen : { window, count: 0 };
      mine.count += count;
      if (mine.count < (options.flushEvery ?? FLUSH_EVERY)) {
        gathered.set(companyId, mine);
        await known;
        return;
      }
      gathered.delete(companyId);
      const total = await addToWindow(companyId, 'inbound', mine.count, WINDOW_SECONDS, now);
      const wanted = shardsFor(total.count, options.steps);
      if (wanted <= (await known)) return;
      if (await raiseListShards(companyId, wanted)) {
        raised.push(companyId);
        logger.info('ticket lists sharded', { companyId, shards: wanted, messagesInWindow: total.count, windowSeconds: WINDOW_SECONDS });
        await primeListShards(companyId);
      }
    }),
  );
  return raised;
}
