/**
 * What the inbound pipeline reads for every message but that changes only when an admin edits it:
 * the company's settings, the connection, the company's queues. One SQS batch (up to 10 events,
 * handlers/queues/inbound.ts) reads each once per company/connection and shares it across the
 * batch's events and message groups.
 *
 * Staleness: at most the batch's own run time (well under a second); a settings, connection or
 * queue edit made while a batch runs is seen by the next batch. Nothing here is kept across
 * batches, so no invalidation is needed. The ticket, the message and the contact are never read
 * from here: they change per message and are always read fresh.
 */
import type { Setting } from '#contracts/settings';
import { listQueues, type QueueRecord } from '#storage/queues';
import { listSettings } from '#storage/settings';
import { type ConnectionRecord, getConnection } from '#storage/whatsapps';

export interface BatchReferences {
  settings(companyId: number): Promise<Setting[]>;
  connection(companyId: number, connectionId: number): Promise<ConnectionRecord | undefined>;
  queues(companyId: number): Promise<QueueRecord[]>;
}

/** Shares one in-flight or settled read per key; a failed read is forgotten so the next one retries. */
function memo<T>(load: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const known = new Map<string, Promise<T>>();
  return (key) => {
    const hit = known.get(key);
    if (hit) return hit;
    const read = load(key);
    known.set(key, read);
    read.catch(() => known.delete(key));
    return read;
  };
}

export function batchReferences(): BatchReferences {
  const settings = memo((key) => listSettings(Number(key)));
  const queues = memo((key) => listQueues(Number(key)));
  const connection = memo((key) => {
    const [companyId, connectionId] = key.split(':').map(Number);
    return getConnection(companyId as number, connectionId as number);
  });
  return {
    settings: (companyId) => settings(String(companyId)),
    queues: (companyId) => queues(String(companyId)),
    connection: (companyId, connectionId) => connection(`${companyId}:${connectionId}`),
  };
}
