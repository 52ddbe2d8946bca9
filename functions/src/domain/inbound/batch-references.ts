/**
 * What the inbound pipeline reads for every message but that changes only when an admin edits it:
 * the company's settings, the connection, the company's queues. Read through the container's read
 * caches (storage/read-cache.ts), so one read serves every message of every batch for a few
 * seconds instead of one read per batch.
 *
 * Staleness: an edit made through this container is seen at once (its write forgets the entry);
 * one made elsewhere (another Lambda container) within REFERENCE_TTL_MS (5 s), the time an admin's
 * edit of a greeting, a queue or a setting may take to reach the inbound messages. The ticket, the
 * message and the contact are never read from here: they change per message and are always read
 * fresh.
 */
import type { Setting } from '#contracts/settings';
import { type ConnectionRecord, getConnectionCached } from '#storage/connections';
import { listQueuesCached, type QueueRecord } from '#storage/queues/queues';
import { listSettingsCached } from '#storage/settings';

export interface BatchReferences {
  settings(companyId: number): Promise<Setting[]>;
  connection(companyId: number, connectionId: number): Promise<ConnectionRecord | undefined>;
  queues(companyId: number): Promise<QueueRecord[]>;
}

export function batchReferences(): BatchReferences {
  return { settings: listSettingsCached, queues: listQueuesCached, connection: getConnectionCached };
}
