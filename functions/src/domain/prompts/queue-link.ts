/**
 * The one link between an AI prompt and a queue (issue 25 item 4). A prompt's Queue field and that
 * queue's Prompt field are the same link, whichever dialog sets it: setting a prompt's queue makes
 * it that queue's prompt, and setting a queue's prompt makes the queue that prompt's queue. The
 * queue the prompt named before lets it go (its Prompt is cleared when it was this prompt), so a
 * prompt answers on one queue and both dialogs show the same pair.
 *
 * A queue's previous prompt keeps its Queue field (a prompt always names a queue, SPEC 5); the queue
 * shows its new prompt. Each changed record is published on its company channel, as its own route does.
 */
import { channels } from '#contracts/channels';
import type { PromptEvent } from '#contracts/prompts';
import type { QueueEvent } from '#contracts/queues';
import { publishToCompany } from '#realtime/publisher';
import * as prompts from '#storage/prompts';
import * as queues from '#storage/queues/queues';

async function setQueuePrompt(companyId: number, queueId: number, promptId: number | null): Promise<void> {
  const queue = await queues.updateQueue(companyId, queueId, { promptId });
  const event: QueueEvent = { action: 'update', queue };
  await publishToCompany(companyId, channels.queue(companyId), event);
}

/** The queue `previousQueueId` lets the prompt go, if it still points at it. */
async function releaseQueue(companyId: number, promptId: number, previousQueueId: number, keptQueueId: number): Promise<void> {
  if (previousQueueId === keptQueueId) return;
  const previous = await queues.getQueue(companyId, previousQueueId);
  if (previous?.promptId === promptId) await setQueuePrompt(companyId, previous.id, null);
}

/** A prompt's Queue field was set to `queueId` (create or update): that queue's prompt is now this one. */
export async function linkQueueToPrompt(companyId: number, promptId: number, queueId: number, previousQueueId?: number): Promise<void> {
  const queue = await queues.getQueue(companyId, queueId);
  if (queue && queue.promptId !== promptId) await setQueuePrompt(companyId, queueId, promptId);
  if (previousQueueId !== undefined) await releaseQueue(companyId, promptId, previousQueueId, queueId);
}

/** A queue's Prompt field was set to `promptId` (create or update): that prompt's queue is now this one. */
export async function linkPromptToQueue(companyId: number, queueId: number, promptId: number): Promise<void> {
  const prompt = await prompts.getPrompt(companyId, promptId);
  if (!prompt || prompt.queueId === queueId) return;
  await prompts.updatePrompt(companyId, promptId, { queueId });
  const event: PromptEvent = { action: 'update', id: promptId };
  await publishToCompany(companyId, channels.prompt(companyId), event);
  await releaseQueue(companyId, promptId, prompt.queueId, queueId);
}

/** A prompt is being deleted: its own queue (the one its dialog shows) stops using it. */
export async function unlinkPromptQueue(companyId: number, promptId: number, queueId: number): Promise<void> {
  await releaseQueue(companyId, promptId, queueId, Number.NaN);
}
