/**
 * The chatbot option tree of a queue (SPEC 3 "Queue option", 7 GET/POST/PUT/DELETE /queue-options).
 * A node belongs to one queue and one parent for life; deleting a node deletes its subtree.
 */
import { NotFoundError, ValidationError } from '#commons/errors';
import { channels } from '#contracts/channels';
import type { CreateQueueOptionInput, QueueOption, UpdateQueueOptionInput } from '#contracts/queues';
import { recordAudit } from '#domain/audit/record';
import { publishToCompany } from '#realtime/publisher';
import * as store from '#storage/queues/options';
import { findQueue } from './queues.ts';

async function findOption(companyId: number, id: number): Promise<store.QueueOptionRecord> {
  const option = await store.getOption(companyId, id);
  if (!option || option.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return option;
}

/** What the trail keeps of an option: the chatbot's words, not its bookkeeping. */
const summary = (option: store.QueueOptionRecord | QueueOption | null) =>
  option && { option: option.option, title: option.title, message: option.message, parentId: option.parentId };

/** An option's change is a change of its queue's chatbot: one queue.update naming the option. */
const recordOptionChange = async (queueId: number, id: number, before: ReturnType<typeof summary>, after: ReturnType<typeof summary>) => {
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  await recordAudit({
    action: 'queue.update',
    targetType: 'queue',
    targetId: queueId,
    changes: { [`option ${id}`]: { from: before, to: after } },
  });
};

const publishTree = (companyId: number, queueId: number) =>
  publishToCompany(companyId, channels.queue(companyId), { action: 'options', queueId });

/** `parentId` null (the API's -1) lists the root options. */
export async function listOptionsOf(companyId: number, queueId: number, parentId: number | null): Promise<QueueOption[]> {
  await findQueue(companyId, queueId);
  return store.listOptions(companyId, queueId, parentId);
}

export async function createOptionFor(companyId: number, input: CreateQueueOptionInput, now = new Date()): Promise<QueueOption> {
  await findQueue(companyId, input.queueId);
  if (input.parentId != null) {
    const parent = await store.getOption(companyId, input.parentId);
    if (!parent || parent.queueId !== input.queueId) throw new ValidationError('parentId', 'Option not found in this queue');
  }
  const siblings = await store.listOptions(companyId, input.queueId, input.parentId);
  const at = now.toISOString();
  const option = await store.createOption({
    id: await store.newOptionId(companyId),
    companyId,
    queueId: input.queueId,
    parentId: input.parentId,
    title: input.title,
    message: input.message,
    // The menu numbers options in order; an option typed without its ordinal takes the next one.
    option: input.option || String(siblings.length + 1),
    createdAt: at,
    updatedAt: at,
  });
  await recordOptionChange(option.queueId, option.id, null, summary(option));
  await publishTree(companyId, option.queueId);
  return option;
}

export async function updateOptionFor(companyId: number, id: number, input: UpdateQueueOptionInput): Promise<QueueOption> {
  const current = await findOption(companyId, id);
  const option = await store.updateOption(companyId, current, input);
  await recordOptionChange(option.queueId, id, summary(current), summary(option));
  await publishTree(companyId, option.queueId);
  return option;
}

export async function deleteOptionFor(companyId: number, id: number): Promise<number[]> {
  const current = await findOption(companyId, id);
  const deleted = await store.deleteOption(companyId, current);
  await recordOptionChange(current.queueId, id, summary(current), null);
  await publishTree(companyId, current.queueId);
  return deleted;
}
