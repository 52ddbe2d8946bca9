/**
 * Queues as other entities show them (a connection's or a user's `queues`): id, name and colour,
 * resolved from the stored ids through one read of the company's queues per answer.
 */
import { listQueues, type QueueRecord } from '#storage/queues/queues';

export interface QueueSummary {
  id: number;
  name: string;
  color: string;
}

export type QueueDirectory = ReadonlyMap<number, QueueRecord>;

export const queueDirectory = (queues: readonly QueueRecord[]): QueueDirectory => new Map(queues.map((queue) => [queue.id, queue]));

export const loadQueueDirectory = async (companyId: number): Promise<QueueDirectory> => queueDirectory(await listQueues(companyId));

/** In the order of the ids; ids of queues deleted meanwhile are left out. */
export function resolveQueues(queueIds: readonly number[], directory: QueueDirectory): QueueSummary[] {
  return queueIds.flatMap((id) => {
    const queue = directory.get(id);
    return queue ? [{ id: queue.id, name: queue.name, color: queue.color }] : [];
  });
}
