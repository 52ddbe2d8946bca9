/** The API shape of a connection: queues resolved, and the API token shown to admins only. */
import type { Connection, ConnectionQueue, WhatsappSessionEvent } from '#contracts/whatsapp';
import type { QueueRecord } from '#storage/queues';
import type { ConnectionRecord } from '#storage/whatsapps';

export type QueueDirectory = ReadonlyMap<number, QueueRecord>;

export const queueDirectory = (queues: readonly QueueRecord[]): QueueDirectory => new Map(queues.map((queue) => [queue.id, queue]));

export function resolveQueues(queueIds: readonly number[], directory: QueueDirectory): ConnectionQueue[] {
  return queueIds.flatMap((id) => {
    const queue = directory.get(id);
    return queue ? [{ id: queue.id, name: queue.name, color: queue.color }] : [];
  });
}

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
