/**
 * Queues (departments) of a company.
 *   queue         pk = C#<companyId>   sk = QUEUE#<padded id>
 *   colour guard  pk = C#<companyId>   sk = QUEUECOLOR#<lower-case colour>   { queueId }
 * A colour identifies a queue in every list, so it is unique per tenant (ERR_QUEUE_COLOR_ALREADY_EXISTS):
 * the guard is written in the same transaction as the queue and moved with it.
 * `QUEUE#` and `QUEUECOLOR#` never share a prefix, so listing queues does not read the guards.
 */
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, ConflictError, NotFoundError } from '#commons/errors';
import type { Queue } from '#contracts/queues';
import { db, getItem, type IdClaim, IdClaimLost, nextId, queryAll, readNextId, table, transactionCancellationCodes } from '../db.ts';
import type { LimitClaim } from '../plans/limits.ts';
import { REFERENCE_TTL_MS, readCache } from '../read-cache.ts';
import { pad, tenantPk } from '../table.ts';
import { putGuarded, type UniqueGuard, updateGuarded } from '../unique-guard.ts';

export type QueueRecord = Queue;
export type QueuePatch = Partial<Omit<QueueRecord, 'id' | 'companyId' | 'createdAt'>>;

const queueKey = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `QUEUE#${pad(id)}` });
const normaliseColor = (color: string) => color.trim().toLowerCase();
const colorGuardKey = (companyId: number, color: string) => ({ pk: tenantPk(companyId), sk: `QUEUECOLOR#${normaliseColor(color)}` });

const colorGuard = (companyId: number, queueId: number): UniqueGuard<QueueRecord> => ({
  field: 'color',
  keyOf: (color) => colorGuardKey(companyId, color),
  item: { entity: 'queueColorGuard', companyId, queueId },
  conflict: () => new ConflictError('ERR_QUEUE_COLOR_ALREADY_EXISTS'),
});

export const newQueueId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'QUEUE');

export const getQueue = (companyId: number, id: number): Promise<QueueRecord | undefined> =>
  getItem<QueueRecord>(tenantPk(companyId), `QUEUE#${pad(id)}`);

/** Menu order: orderQueue (unset last), then name. */
export function compareQueues(a: QueueRecord, b: QueueRecord): number {
  const left = a.orderQueue ?? Number.MAX_SAFE_INTEGER;
  const right = b.orderQueue ?? Number.MAX_SAFE_INTEGER;
  return left - right || a.name.localeCompare(b.name, 'es', { sensitivity: 'base' }) || a.id - b.id;
}

/** A company's queues in menu order. Bounded by the plan's queue limit. */
export async function listQueues(companyId: number): Promise<QueueRecord[]> {
  const queues = await queryAll<QueueRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'QUEUE#' },
    ConsistentRead: true,
  });
  return queues.sort(compareQueues);
}

const queuesCache = readCache((companyId: number) => listQueues(companyId), { ttlMs: REFERENCE_TTL_MS });

/** listQueues through this container's read cache (read-cache.ts): a hot path's read, up to 5 s stale. */
export const listQueuesCached = (companyId: number): Promise<QueueRecord[]> => queuesCache.get(companyId);

export async function countQueues(companyId: number): Promise<number> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'QUEUE#' },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return out.Count ?? 0;
}

export async function createQueue(record: QueueRecord, claim?: LimitClaim, idClaim?: IdClaim): Promise<QueueRecord> {
  await putGuarded({
    item: { ...queueKey(record.companyId, record.id), entity: 'queue', ...record },
    guards: [colorGuard(record.companyId, record.id)],
    claim,
    idClaim,
  });
  queuesCache.forget(record.companyId);
  return record;
}

/** Tries before a create that keeps losing its id to concurrent ones answers 429. */
const ID_ATTEMPTS = 8;

/**
 * A new queue under the company's next queue id, taken in the queue's own transaction: a create
 * refused for its colour (or a lost plan-limit claim) leaves no gap in the numbering (issue 25).
 */
export async function createNumberedQueue(fields: Omit<QueueRecord, 'id'>, claim?: LimitClaim): Promise<QueueRecord> {
  for (let attempt = 1; attempt <= ID_ATTEMPTS; attempt++) {
    const next = await readNextId(tenantPk(fields.companyId), 'QUEUE');
    try {
      return await createQueue({ ...fields, id: next.id }, claim, next);
    } catch (error) {
      // Lost the id, or met a concurrent create on the counter mid-transaction: take the next one.
      const raced = error instanceof IdClaimLost || transactionCancellationCodes(error)?.includes('TransactionConflict');
      if (!raced) throw error;
    }
  }
  throw new AppError('ERR_TOO_MANY_REQUESTS', 429);
}

export async function updateQueue(companyId: number, id: number, patch: QueuePatch): Promise<QueueRecord> {
  const current = await getQueue(companyId, id);
  if (!current) throw new NotFoundError('ERR_NOT_FOUND');
  const updated = await updateGuarded({
    key: queueKey(companyId, id),
    current,
    changes: { ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() },
    guards: [colorGuard(companyId, id)],
    notFound: () => new NotFoundError('ERR_NOT_FOUND'),
    // Even an edit that keeps the colour is pinned to the stored colour (a concurrent edit loses).
    pinGuardedValues: 'always',
  });
  queuesCache.forget(companyId);
  return updated;
}

export async function deleteQueue(companyId: number, id: number): Promise<QueueRecord> {
  const current = await getQueue(companyId, id);
  if (!current) throw new NotFoundError('ERR_NOT_FOUND');
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table(), Key: queueKey(companyId, id) } },
        { Delete: { TableName: table(), Key: colorGuardKey(companyId, current.color) } },
      ],
    }),
  );
  queuesCache.forget(companyId);
  return current;
}
