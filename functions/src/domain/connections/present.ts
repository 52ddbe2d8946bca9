/** The API shape of a connection: queues resolved, and the API token shown to admins only. */
import type { Connection, WhatsappSessionEvent } from '#contracts/connections';
import { type QueueDirectory, resolveQueues } from '#domain/queues/directory';
import type { ConnectionRecord } from '#storage/connections';

export { type QueueDirectory, queueDirectory, resolveQueues } from '#domain/queues/directory';

/**
 * `withToken`: the token authenticates the external messages API as this connection, so only
 * admins (who manage it) see it; attendants and realtime events get ''.
 */
export function toConnection(record: ConnectionRecord, directory: QueueDirectory, withToken: boolean): Connection {
  const queueIds = record.queueIds ?? [];
  return { ...record, token: withToken ? record.token : '', queueIds, queues: resolveQueues(queueIds, directory) };
}

export function toSessionEvent(record: ConnectionRecord): WhatsappSessionEvent {
  const { id, status, qrcode, retries, updatedAt, number } = record;
  return { action: 'update', session: { id, status, qrcode, retries, updatedAt, number } };
}
