/**
 * Point reads coalesced: the reads asked for in the same turn of the event loop go out as one
 * BatchGetItem (up to 100 keys a request) instead of one GetItem each, strongly consistent like
 * getItem. The inbound consumer runs a batch's messages side by side, and each starts with the same
 * few reads (its dedupe link, its contact, its ticket): ten messages' reads become one request.
 * A key asked twice in a turn is read once. Keys DynamoDB leaves unprocessed are asked again with a
 * short backoff; a failed request fails every read it carried (the callers retry as with getItem).
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, stripKeys, table } from './db.ts';

export interface ItemKey {
  pk: string;
  sk: string;
}

type Waiter = { resolve: (item: Record<string, unknown> | undefined) => void; reject: (error: unknown) => void };

const MAX_KEYS = 100;
const MAX_ROUNDS = 8;

let pending = new Map<string, { key: ItemKey; waiters: Waiter[] }>();
let scheduled = false;

const id = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/** One item by key, read with whatever else is asked for in this turn; undefined when absent. */
export function getItemBatched<T extends object>(key: ItemKey): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const known = pending.get(id(key));
    const waiter: Waiter = { resolve: (item) => resolve(item ? stripKeys<T>(item) : undefined), reject };
    if (known) known.waiters.push(waiter);
    else pending.set(id(key), { key: { pk: key.pk, sk: key.sk }, waiters: [waiter] });
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
}

function flush(): void {
  const batch = pending;
  pending = new Map();
  scheduled = false;
  const entries = [...batch.values()];
  for (let i = 0; i < entries.length; i += MAX_KEYS) void read(entries.slice(i, i + MAX_KEYS));
}

async function read(entries: { key: ItemKey; waiters: Waiter[] }[]): Promise<void> {
  const found = new Map<string, Record<string, unknown>>();
  try {
    let keys: Record<string, unknown>[] = entries.map(({ key }) => ({ pk: key.pk, sk: key.sk }));
    for (let round = 0; keys.length; round++) {
      if (round >= MAX_ROUNDS) throw new Error(`BatchGetItem left ${keys.length} key(s) unprocessed after ${MAX_ROUNDS} rounds`);
      if (round) await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** round));
      const out = await db().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys, ConsistentRead: true } } }));
      for (const item of out.Responses?.[table()] ?? []) found.set(id(item as unknown as ItemKey), item);
      keys = out.UnprocessedKeys?.[table()]?.Keys ?? [];
    }
  } catch (error) {
    for (const entry of entries) for (const waiter of entry.waiters) waiter.reject(error);
    return;
  }
  for (const entry of entries) {
    const item = found.get(id(entry.key));
    for (const waiter of entry.waiters) waiter.resolve(item);
  }
}
