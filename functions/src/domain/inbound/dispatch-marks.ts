/**
 * Step 3's record on an inbound message's link (message.ts: `dispatched`, with `botDone` when the bot
 * committed nothing), one per message whose step 2 or 3 did what a replay must not repeat (the bot
 * ran, or a bot turn was queued); none for a message whose store recorded `botDone` (`settle`). Written at once by itself, or, within an SQS batch of the
 * inbound consumer, deferred to the batch's end and written for all its messages in one request
 * (storage markLinksDispatched, up to 25 conditional updates): one request instead of one
 * UpdateItem each, at the same write cost.
 *
 * Deferring is safe because the record only spares a replay the work: the message is stored and
 * published before its mark is taken. Meanwhile a later record of the same batch that finds the link
 * (a duplicate delivery) asks `has` and counts the message as done, as it would from the link. A
 * mark the batched request did not write (its condition failed: the bot committed meanwhile, the
 * link is gone; throttled; or the whole request failed) is written by itself as without batching,
 * so one mark's failure is that mark's alone; a mark that still fails fails its record (the consumer
 * retries it, and the retry resumes at step 3: published again, marked).
 */
import { logger } from '#commons/logger';
import { markLinksDispatched, updateWaLink } from '#storage/messages/wa-links';

export interface DispatchMark {
  companyId: number;
  connectionId: number;
  waId: string;
  /** The bot's step recorded already (its commit set botDone), so only `dispatched` is left. */
  botRecorded: boolean;
}

/** One record's share of a batch's marks. */
export interface RecordMarks {
  defer(mark: DispatchMark): void;
  /** Done without a mark (its store recorded `botDone`, and only events followed): counted, not written. */
  settle(mark: DispatchMark): void;
  has(companyId: number, connectionId: number, waId: string): boolean;
}

export interface BatchMarks {
  forRecord(record: string): RecordMarks;
  /** Writes the deferred marks; the records whose mark could not be written, with the error. */
  flush(): Promise<Map<string, unknown>>;
}

/** BatchExecuteStatement takes at most 25 statements. */
const MAX_STATEMENTS = 25;

const keyOf = (companyId: number, connectionId: number, waId: string) => `${companyId}:${connectionId}:${waId}`;

/** The mark by itself: one UpdateItem (two when the bot's run elsewhere set botDone first). */
export async function markDispatched({ companyId, connectionId, waId, botRecorded }: DispatchMark): Promise<void> {
  if (
    !botRecorded &&
    (await updateWaLink(
      companyId,
      connectionId,
      waId,
      { botDone: true, replyIds: [], dispatched: true },
      'attribute_exists(pk) AND attribute_not_exists(botDone)',
    ))
  )
    return;
  await updateWaLink(companyId, connectionId, waId, { dispatched: true });
}

export function batchMarks(): BatchMarks {
  const deferred = new Map<string, { record: string; mark: DispatchMark; write: boolean }>();
  return {
    forRecord: (record) => {
      const add = (mark: DispatchMark, write: boolean) => {
        const key = keyOf(mark.companyId, mark.connectionId, mark.waId);
        // The same link twice (a replay resumed in this batch): the first mark stands for both.
        if (!deferred.has(key)) deferred.set(key, { record, mark, write });
      };
      return {
        defer: (mark) => add(mark, true),
        settle: (mark) => add(mark, false),
        has: (companyId, connectionId, waId) => deferred.has(keyOf(companyId, connectionId, waId)),
      };
    },
    async flush() {
      const all = [...deferred.values()].filter((entry) => entry.write);
      deferred.clear();
      const failed = new Map<string, unknown>();
      const chunks = Array.from({ length: Math.ceil(all.length / MAX_STATEMENTS) }, (_, i) =>
        all.slice(i * MAX_STATEMENTS, (i + 1) * MAX_STATEMENTS),
      );
      await Promise.all(
        chunks.map(async (chunk) => {
          // One alone is one UpdateItem either way.
          const written =
            chunk.length > 1
              ? await markLinksDispatched(chunk.map((d) => d.mark)).catch((error: unknown) => {
                  // Said out loud: a refused request (a missing IAM grant, say) would otherwise only cost requests.
                  logger.warn('link marks not written together; writing them one by one', { marks: chunk.length, error: error as Error });
                  return chunk.map(() => false);
                })
              : chunk.map(() => false);
          const rest = chunk.filter((_, j) => !written[j]);
          const outcomes = await Promise.allSettled(rest.map((d) => markDispatched(d.mark)));
          outcomes.forEach((outcome, j) => {
            if (outcome.status === 'rejected') failed.set((rest[j] as { record: string }).record, outcome.reason);
          });
        }),
      );
      return failed;
    },
  };
}
