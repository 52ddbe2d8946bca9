/**
 * Step 3's record on an inbound message's link (message.ts: `dispatched`, with `botDone` when the bot
 * committed nothing), one per message. Written at once by itself, or, within an SQS batch of the
 * inbound consumer, deferred to the batch's end and written for all its messages in one
 * TransactWriteItems (storage markLinksDispatched): one request instead of one UpdateItem each.
 *
 * Deferring is safe because the record only spares a replay the work: the message is stored and
 * published before its mark is taken. Meanwhile a later record of the same batch that finds the link
 * (a duplicate delivery) asks `has` and counts the message as done, as it would from the link. If the
 * transaction is cancelled (a link's condition: the bot committed meanwhile, the link gone; or a
 * conflict), each mark is written by itself as without batching, so one mark's failure is that
 * mark's alone; a mark that still fails fails its record (the consumer retries it, and the retry
 * resumes at step 3: published again, marked).
 */
import { markLinksDispatched, updateWaLink } from '#storage/messages';

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
  has(companyId: number, connectionId: number, waId: string): boolean;
}

export interface BatchMarks {
  forRecord(record: string): RecordMarks;
  /** Writes the deferred marks; the records whose mark could not be written, with the error. */
  flush(): Promise<Map<string, unknown>>;
}

/** A transaction holds at most 100 items. */
const MAX_TRANSACTION_ITEMS = 100;

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
  const deferred = new Map<string, { record: string; mark: DispatchMark }>();
  return {
    forRecord: (record) => ({
      defer(mark) {
        const key = keyOf(mark.companyId, mark.connectionId, mark.waId);
        // The same link twice (a replay resumed in this batch): the first mark stands for both.
        if (!deferred.has(key)) deferred.set(key, { record, mark });
      },
      has: (companyId, connectionId, waId) => deferred.has(keyOf(companyId, connectionId, waId)),
    }),
    async flush() {
      const all = [...deferred.values()];
      deferred.clear();
      const failed = new Map<string, unknown>();
      for (let i = 0; i < all.length; i += MAX_TRANSACTION_ITEMS) {
        const chunk = all.slice(i, i + MAX_TRANSACTION_ITEMS);
        // One alone costs an UpdateItem, not a transaction (which DynamoDB bills twice).
        if (chunk.length > 1) {
          const written = await markLinksDispatched(chunk.map((d) => d.mark)).then(
            () => true,
            () => false,
          );
          if (written) continue;
        }
        const outcomes = await Promise.allSettled(chunk.map((d) => markDispatched(d.mark)));
        outcomes.forEach((outcome, j) => {
          if (outcome.status === 'rejected') failed.set((chunk[j] as { record: string }).record, outcome.reason);
        });
      }
      return failed;
    },
  };
}
