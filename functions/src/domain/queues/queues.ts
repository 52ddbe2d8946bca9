/**
 * Queues of a company (SPEC 3 "Queue", 5, 7). A queue id of another company is "not found".
 * Deleting a queue also removes it from every connection and user that listed it, and drops its
 * chatbot tree, so nothing keeps routing to a queue that is gone.
 * A queue's Prompt and that prompt's Queue are one link (domain/prompts/queue-link.ts).
 */

import { NotFoundError } from '#commons/errors';
import { channels } from '#contracts/channels';
import type { CreateQueueInput, Queue, QueueEvent, UpdateQueueInput } from '#contracts/queues';
import { changesOf, recordAudit } from '#domain/audit/record';
import { publishConnection } from '#domain/connections/events';
import { queueDirectory, toConnection } from '#domain/connections/present';
import { createWithinPlanLimit } from '#domain/plans/limits';
import { linkPromptToQueue } from '#domain/prompts/queue-link';
import { assertOwnBotReferences } from '#domain/queue-integrations/references';
import { afterQueueChange } from '#domain/tickets/auto-assign';
import { toUser } from '#domain/users/present';
import { publishToCompany } from '#realtime/publisher';
import * as whatsapps from '#storage/connections';
import { deleteQueueTree } from '#storage/queues/options';
import * as store from '#storage/queues/queues';
import * as users from '#storage/users/users';

export async function findQueue(companyId: number, id: number): Promise<store.QueueRecord> {
  const queue = await store.getQueue(companyId, id);
  if (!queue || queue.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return queue;
}

async function publishQueue(companyId: number, event: QueueEvent): Promise<void> {
  await publishToCompany(companyId, channels.queue(companyId), event);
}

export const listQueuesOf = (companyId: number): Promise<Queue[]> => store.listQueues(companyId);

export const getQueueOf = (companyId: number, id: number): Promise<Queue> => findQueue(companyId, id);

export async function createQueueFor(companyId: number, queuesLimit: number, input: CreateQueueInput, now = new Date()): Promise<Queue> {
  await assertOwnBotReferences(companyId, input);
  const at = now.toISOString();
  const queue = await createWithinPlanLimit({
    companyId,
    kind: 'queues',
    limit: queuesLimit,
    code: 'ERR_PLAN_LIMIT_QUEUES',
    count: () => store.countQueues(companyId),
    // The id is taken with the queue: a colour refused leaves no gap in the numbering.
    create: (claim) => store.createNumberedQueue({ ...input, companyId, createdAt: at, updatedAt: at }, claim),
  });
  await recordAudit({ action: 'queue.create', targetType: 'queue', targetId: queue.id, changes: changesOf(null, { ...queue }) });
  await publishQueue(companyId, { action: 'create', queue });
  if (queue.promptId) await linkPromptToQueue(companyId, queue.id, queue.promptId);
  return queue;
}

export async function updateQueueFor(companyId: number, id: number, input: UpdateQueueInput): Promise<Queue> {
  const before = await findQueue(companyId, id);
  await assertOwnBotReferences(companyId, input);
  const queue = await store.updateQueue(companyId, id, input);
  await recordAudit({
    action: 'queue.update',
    targetType: 'queue',
    targetId: id,
    changes: changesOf({ ...before }, { ...queue }, Object.keys(input)),
  });
  await publishQueue(companyId, { action: 'update', queue });
  if (input.promptId) await linkPromptToQueue(companyId, id, input.promptId);
  await afterQueueChange(before, queue);
  return queue;
}

export async function deleteQueueFor(companyId: number, id: number): Promise<void> {
  const before = await findQueue(companyId, id);
  await store.deleteQueue(companyId, id);
  await recordAudit({ action: 'queue.delete', targetType: 'queue', targetId: id, changes: changesOf({ ...before }, null, ['name']) });
  await publishQueue(companyId, { action: 'delete', queueId: id });

  const directory = queueDirectory(await store.listQueues(companyId));
  for (const connection of await whatsapps.listConnections(companyId)) {
    const listed = (connection.queueIds ?? []).includes(id);
    const transfers = connection.transferQueueId === id;
    if (!listed && !transfers) continue;
    const updated = await whatsapps.updateConnection(companyId, connection.id, {
      queueIds: (connection.queueIds ?? []).filter((queueId) => queueId !== id),
      transferQueueId: transfers ? null : connection.transferQueueId,
    });
    await publishConnection(toConnection(updated, directory, false));
  }
  for (const user of await users.listUsers(companyId)) {
    if (!(user.queueIds ?? []).includes(id)) continue;
    const updated = await users.updateUser(companyId, user.id, { queueIds: user.queueIds.filter((queueId) => queueId !== id) });
    await publishToCompany(companyId, channels.user(companyId), { action: 'update', user: toUser(updated, directory) });
  }
  await deleteQueueTree(companyId, id);
}
