/**
 * The chatbot option tree of a queue (SPEC 3 "Queue option").
 *   option   pk = C#<companyId>   sk = QOPT#<padded queueId>#<padded id>   { parentId, option, ... }
 * Keyed under the queue so the inbound pipeline reads one queue's tree with one Query (it walks the
 * menu on every chatbot message); the tree is small, so the children of a node are picked in memory.
 * A lookup by id alone (the admin's PUT/DELETE /queue-options/{id}) reads the tenant's options,
 * bounded by what admins type by hand.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import type { QueueOption } from '#contracts/queues';
import { db, isConditionalCheckFailed, nextId, queryAll, stripKeys, table, updateExpression } from '../db.ts';
import { REFERENCE_TTL_MS, readCache } from '../read-cache.ts';
import { pad, tenantPk } from '../table.ts';

export type QueueOptionRecord = QueueOption;
export type QueueOptionPatch = Partial<Pick<QueueOptionRecord, 'title' | 'message' | 'option' | 'updatedAt'>>;

const queuePrefix = (queueId: number) => `QOPT#${pad(queueId)}#`;
const optionKey = (companyId: number, queueId: number, id: number) => ({
  pk: tenantPk(companyId),
  sk: `${queuePrefix(queueId)}${pad(id)}`,
});

/** Transactions take at most 100 items. */
const TRANSACTION_LIMIT = 100;

export const newOptionId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'QOPT');

/** Every option of a queue (the whole tree, flat). */
export function listQueueTree(companyId: number, queueId: number): Promise<QueueOptionRecord[]> {
  return queryAll<QueueOptionRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': queuePrefix(queueId) },
    ConsistentRead: true,
  });
}

const treeCache = readCache(
  (key: string) => {
    const [companyId, queueId] = key.split(':').map(Number) as [number, number];
    return listQueueTree(companyId, queueId);
  },
  { ttlMs: REFERENCE_TTL_MS },
);
const treeKey = (companyId: number, queueId: number) => `${companyId}:${queueId}`;

/**
 * listQueueTree through this container's read cache (read-cache.ts): the chatbot walks a queue's
 * menu on every message of a ticket it holds, and a new contact's greeting lists it; an admin's
 * edit reaches every container within 5 s (this one's at once).
 */
export const queueTreeCached = (companyId: number, queueId: number): Promise<QueueOptionRecord[]> =>
  treeCache.get(treeKey(companyId, queueId));

/** Ordinal first ("1" < "2" < "10"), then id, as the menu shows them. */
export function compareOptions(a: QueueOptionRecord, b: QueueOptionRecord): number {
  return a.option.localeCompare(b.option, undefined, { numeric: true }) || a.id - b.id;
}

/** Children of `parentId` (null = the root options) in menu order. */
export async function listOptions(companyId: number, queueId: number, parentId: number | null): Promise<QueueOptionRecord[]> {
  const tree = await listQueueTree(companyId, queueId);
  return tree.filter((node) => (node.parentId ?? null) === parentId).sort(compareOptions);
}

export async function getOption(companyId: number, id: number): Promise<QueueOptionRecord | undefined> {
  const matches = await queryAll<QueueOptionRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: '#id = :id',
    ExpressionAttributeNames: { '#id': 'id' },
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'QOPT#', ':id': id },
    ConsistentRead: true,
  });
  return matches[0];
}

export async function createOption(record: QueueOptionRecord): Promise<QueueOptionRecord> {
  await db()
    .send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: { ...optionKey(record.companyId, record.queueId, record.id), entity: 'queueOption', ...record },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          // The parent must still exist when the child lands (a concurrent subtree delete wins cleanly).
          ...(record.parentId
            ? [
                {
                  ConditionCheck: {
                    TableName: table(),
                    Key: optionKey(record.companyId, record.queueId, record.parentId),
                    ConditionExpression: 'attribute_exists(pk)',
                  },
                },
              ]
            : []),
        ],
      }),
    )
    .catch((error: unknown) => {
      if ((error as { name?: string }).name === 'TransactionCanceledException') throw new NotFoundError('ERR_NOT_FOUND');
      throw error;
    })
    .finally(() => treeCache.forget(treeKey(record.companyId, record.queueId)));
  return record;
}

export async function updateOption(companyId: number, current: QueueOptionRecord, patch: QueueOptionPatch): Promise<QueueOptionRecord> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: optionKey(companyId, current.queueId, current.id),
        ...updateExpression({ ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<QueueOptionRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  } finally {
    treeCache.forget(treeKey(companyId, current.queueId));
  }
}

/** Ids of `rootId` and every node below it, deepest first. */
export function subtreeIds(tree: QueueOptionRecord[], rootId: number): number[] {
  const children = new Map<number, number[]>();
  for (const node of tree) {
    if (node.parentId == null) continue;
    children.set(node.parentId, [...(children.get(node.parentId) ?? []), node.id]);
  }
  const order: number[] = [];
  const seen = new Set<number>();
  const visit = (id: number) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const child of children.get(id) ?? []) visit(child);
    order.push(id);
  };
  visit(rootId);
  return order;
}

async function deleteKeys(companyId: number, queueId: number, ids: number[]): Promise<void> {
  try {
    // Deepest nodes go first: if a later chunk fails, what is left is still a connected tree.
    for (let i = 0; i < ids.length; i += TRANSACTION_LIMIT) {
      const chunk = ids.slice(i, i + TRANSACTION_LIMIT);
      await db().send(
        new TransactWriteCommand({
          TransactItems: chunk.map((id) => ({ Delete: { TableName: table(), Key: optionKey(companyId, queueId, id) } })),
        }),
      );
    }
  } finally {
    treeCache.forget(treeKey(companyId, queueId));
  }
}

/** Deletes the option and its whole subtree; returns the deleted ids. */
export async function deleteOption(companyId: number, current: QueueOptionRecord): Promise<number[]> {
  const ids = subtreeIds(await listQueueTree(companyId, current.queueId), current.id);
  await deleteKeys(companyId, current.queueId, ids);
  return ids;
}

/** Deletes a queue's whole tree (the queue is being deleted). */
export async function deleteQueueTree(companyId: number, queueId: number): Promise<void> {
  const tree = await listQueueTree(companyId, queueId);
  const roots = tree.filter((node) => node.parentId == null);
  const ordered = [...new Set([...roots.flatMap((root) => subtreeIds(tree, root.id)), ...tree.map((node) => node.id)])];
  await deleteKeys(companyId, queueId, ordered);
}
