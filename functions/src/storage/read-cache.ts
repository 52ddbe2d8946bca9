/**
 * Per-container read caches for the few records every inbound message reads but that change only
 * when an admin edits them (settings, connections, queues, the company). A Lambda container keeps
 * module state between invocations, so one read serves every message for `ttlMs`.
 *
 * Staleness: a write through this container's storage module forgets the entry at once (the
 * module's write functions call `forget`); a write made by another container (another Lambda, the
 * session-host) is seen within `ttlMs`. Concurrent readers share one in-flight read, and a failed
 * read is not kept, so the next reader retries. Forgetting during an in-flight read drops that
 * read from the cache too: what it returns to its callers is never stored after the write.
 */

export interface ReadCache<K extends string | number, V> {
  get(key: K): Promise<V>;
  forget(key: K): void;
  clear(): void;
}

interface Entry<V> {
  value: Promise<V>;
  expiresAt: number;
}

const all = new Set<{ clear(): void }>();

export interface ReadCacheOptions {
  ttlMs: number;
  /** Oldest entries are dropped beyond this (tenants seen by one container). */
  maxEntries?: number;
  now?: () => number;
}

/** 5 s: an admin's edit reaches every container's inbound messages within that. */
export const REFERENCE_TTL_MS = 5_000;

export function readCache<K extends string | number, V>(load: (key: K) => Promise<V>, options: ReadCacheOptions): ReadCache<K, V> {
  const entries = new Map<K, Entry<V>>();
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1_000;
  const cache: ReadCache<K, V> = {
    get(key) {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return hit.value;
      entries.delete(key);
      const entry: Entry<V> = { value: load(key), expiresAt: now() + options.ttlMs };
      entries.set(key, entry);
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as K);
      return entry.value;
    },
    forget: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  };
  all.add(cache);
  return cache;
}

/** Empties every read cache of this container (tests that write around the storage modules). */
export function clearReadCaches(): void {
  for (const cache of all) cache.clear();
}

export interface Hints<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  forget(key: string): void;
}

/**
 * Per-container hints: where something was found last time (a contact's id by its number, the
 * ticket in a contact's slot), so the next read can go straight to it. Never trusted: the caller
 * checks what it reads through a hint and falls back to the full lookup when the hint is wrong.
 * The oldest beyond `maxEntries` are dropped.
 */
export function hints<V>(maxEntries = 10_000): Hints<V> {
  const entries = new Map<string, V>();
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    forget: (key) => void entries.delete(key),
  };
}
