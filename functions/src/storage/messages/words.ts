/**
 * A message's share of the word index (search-index.ts `M` items), so a search finds a ticket by
 * the text its messages hold now, not by a text edited away or deleted.
 *
 * One item per (word, ticket, message) (issue 24). A message records where its words go on itself
 * (`wordIndex`: the partitions' shard and the words; set by storeMessage in the message's
 * transaction, changed by an edit, emptied by a delete). The items
 * follow it off its path: the table's stream hands every write of such a message (insert, edit,
 * delete, a retention sweep's removal, a TTL expiry) to the `message-words` consumer
 * (handlers/streams/message-words.ts), which makes the index hold the words the message's last
 * record shows (applyMessageWordChanges): BatchWriteItem, 25 a request, shared by the messages of
 * its batch. Each is a Put or a Delete of a key the message alone decides, so a retry writes the
 * same item again (1 WCU, where the counted items of before cost 2 a word in the message's
 * transaction), and nothing is shared between messages, so nothing is counted: a word held by two
 * messages of a ticket is two items, and deleting one leaves the other. A batch whose writes fail
 * is retried by the stream, in order, and kept in its DLQ after the last try; the message stays
 * stored and delivered meanwhile, unfound by its words.
 *
 * Before the stream, a message whose words failed marked its ticket (`wordRepairs`) and the next
 * message stored on it repaired them (repairMessageWords): marks written then are still repaired.
 *
 * Messages stored before issue 24 carry `searchWords` instead: the words they counted in the shared,
 * counted items (`M#<word>#<ticket>`, `refs`). Their edit, delete or removal takes those counts back
 * as before (one transaction with the message's change, conditional on the counts read), and an
 * edit moves the message to its own items (its new `wordIndex`, which the stream indexes). Messages
 * the index never counted (chatbot replies, automatic messages, a campaign's: messages/messages.ts)
 * carry neither and take nothing back.
 */
import { BatchGetCommand, BatchWriteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '#commons/logger';
import { db, getItem, isConditionalCheckFailed, type TransactItem, table, transactionCancellationCodes } from '../db.ts';
import { listShardOf } from '../list-shards.ts';
import { messageWordItems, messageWordKey, messageWords, ticketSearchKey, type WordIndex } from '../search-index.ts';
import { ticketKey, ticketPk } from '../tickets/tickets.ts';

/** What the stored message item carries besides the API's message: where its words are in the index. */
export interface IndexedMessage {
  companyId: number;
  ticketId: number;
  id: string;
  wordIndex?: WordIndex;
  /** Stored before issue 24: the words it counted in the shared items. */
  searchWords?: string[];
}

/** The ticket's marks of messages whose index items may not match them (see the header). */
export interface WordRepairMarks {
  wordRepairs?: Set<string>;
}

const MAX_ATTEMPTS = 5;
const BATCH = 25;
const MAX_BATCH_ATTEMPTS = 6;

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** BatchWriteItem, 25 requests a call, unprocessed ones retried with backoff. False when some stayed unwritten. */
async function writeBatch(requests: WriteRequest[]): Promise<boolean> {
  let pending = requests;
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt >= MAX_BATCH_ATTEMPTS) return false;
    if (attempt) await sleep(Math.min(800, 25 * 2 ** attempt));
    const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
    pending = (out.UnprocessedItems?.[table()] ?? []) as WriteRequest[];
  }
  return true;
}

/**
 * The requests in calls of 25, one after the other: a stream batch's words (up to 20 calls for 100
 * messages) never land as one burst on the table, beside the messages being stored; one invocation
 * of 100 messages takes ~20 calls' time, well inside the stream's pace. False when some stayed
 * unwritten; a call that failed throws.
 */
async function writeBatches(requests: WriteRequest[]): Promise<boolean> {
  let written = true;
  for (let i = 0; i < requests.length; i += BATCH) written = (await writeBatch(requests.slice(i, i + BATCH))) && written;
  return written;
}

function wordRequests(message: Pick<IndexedMessage, 'companyId' | 'ticketId' | 'id'>, shard: number, put: string[], remove: string[]) {
  const { companyId, ticketId, id } = message;
  return [
    ...messageWordItems(companyId, ticketId, id, { shard, words: put }).map((Item): WriteRequest => ({ PutRequest: { Item } })),
    ...remove.map((word): WriteRequest => ({ DeleteRequest: { Key: messageWordKey(companyId, word, ticketId, id, shard) } })),
  ];
}

/** A message item as a stream record shows it (only what the index needs). */
export type IndexedImage = IndexedMessage & { isDeleted?: boolean };

/** One stream record of a message: the item before and after the write (undefined: no item). */
export interface MessageWordChange {
  /** The message item's key (`<pk> <sk>`): a message's records are taken together, in order. */
  key: string;
  before?: IndexedImage;
  after?: IndexedImage;
}

/** The words a message's image holds in the index: none once it is deleted or gone. */
const heldWords = (image: IndexedImage | undefined): WordIndex | undefined =>
  image && !image.isDeleted && image.wordIndex ? image.wordIndex : undefined;

/** The words of `index` that `other` does not hold in the same partitions. */
const notIn = (index: WordIndex, other: WordIndex | undefined): string[] =>
  index.words.filter((word) => !(other?.shard === index.shard && other.words.includes(word)));

/**
 * Makes the index hold what each message's last record shows, from what its first record shows it
 * held before (the stream's batch, in order: an insert, an edit and a delete of one message within
 * a batch write only the difference of the first and the last). Throws when some item stayed
 * unwritten, so the stream tries the batch again.
 */
export async function applyMessageWordChanges(changes: readonly MessageWordChange[]): Promise<void> {
  const spans = new Map<string, { first: IndexedImage | undefined; last: IndexedImage | undefined }>();
  for (const change of changes) {
    const span = spans.get(change.key);
    if (span) span.last = change.after;
    else spans.set(change.key, { first: change.before, last: change.after });
  }
  const requests: WriteRequest[] = [];
  for (const { first, last } of spans.values()) {
    const message = last ?? first;
    const was = heldWords(first);
    const now = heldWords(last);
    if (!message) continue;
    if (now) requests.push(...wordRequests(message, now.shard, notIn(now, was), []));
    if (was) requests.push(...wordRequests(message, was.shard, [], notIn(was, now)));
  }
  if (!(await writeBatches(requests))) throw new Error(`message words left unwritten (${requests.length} writes)`);
}

/** Where a new message's words go (written on it by storeMessage, in its transaction). */
export function newWordIndex(companyId: number, ticketId: number, body: string | null): WordIndex | undefined {
  const words = messageWords(body ?? '');
  return words.length ? { shard: listShardOf(companyId, ticketId), words } : undefined;
}

/**
 * Writes again the words of the ticket's messages marked for repair (`marks`, the ticket's
 * wordRepairs as read) and clears each mark written. Idempotent. The count of marks cleared.
 */
export async function repairMessageWords(companyId: number, ticketId: number, marks: Iterable<string>): Promise<number> {
  let cleared = 0;
  for (const mark of marks) {
    const [id = '', shardText, ...stale] = mark.split(' ');
    const message = await getItem<IndexedMessage & { isDeleted?: boolean }>(ticketPk(companyId, ticketId), `MSG#${id}`);
    const shard = message?.wordIndex?.shard ?? Number(shardText);
    const current = message && !message.isDeleted ? (message.wordIndex?.words ?? []) : [];
    const remove = stale.filter((word) => !current.includes(word));
    if (!(await writeBatches(wordRequests({ companyId, ticketId, id }, shard, current, remove)).catch(() => false))) continue;
    try {
      await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: ticketKey(companyId, ticketId),
          UpdateExpression: 'DELETE wordRepairs :mark',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':mark': new Set([mark]) },
        }),
      );
      cleared++;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) logger.warn('word repair mark not cleared', { companyId, ticketId, mark });
    }
  }
  return cleared;
}

// --- Counted items of messages stored before issue 24 (searchWords) ---

/** The counts of the ticket's `words` as stored now (absent: no item). */
async function readCounts(companyId: number, ticketId: number, words: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (!words.length) return counts;
  const out = await db().send(
    new BatchGetCommand({
      RequestItems: {
        [table()]: {
          Keys: words.map((word) => ticketSearchKey(companyId, 'M', word, ticketId)),
          ProjectionExpression: 'sk, refs',
          ConsistentRead: true,
        },
      },
    }),
  );
  const byKey = new Map(words.map((word) => [ticketSearchKey(companyId, 'M', word, ticketId).sk, word]));
  for (const item of out.Responses?.[table()] ?? []) {
    const word = byKey.get(String(item.sk));
    if (word !== undefined) counts.set(word, typeof item.refs === 'number' ? item.refs : 1);
  }
  // Unprocessed keys (throttling) read as absent would skip a decrement: read them again.
  const unprocessed = out.UnprocessedKeys?.[table()]?.Keys ?? [];
  if (unprocessed.length) {
    const again = await readCounts(
      companyId,
      ticketId,
      unprocessed.flatMap((key) => byKey.get(String(key.sk)) ?? []),
    );
    for (const [word, count] of again) counts.set(word, count);
  }
  return counts;
}

/** One message fewer of the ticket holds each of `words`, as counted in `counts` (the item goes at 0). */
function wordRemovals(companyId: number, ticketId: number, words: string[], counts: Map<string, number>): TransactItem[] {
  return words.flatMap((word): TransactItem[] => {
    const count = counts.get(word);
    if (count === undefined) return [];
    const Key = ticketSearchKey(companyId, 'M', word, ticketId);
    return count <= 1
      ? [
          {
            Delete: {
              TableName: table(),
              Key,
              ConditionExpression: 'attribute_not_exists(refs) OR refs <= :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ]
      : [
          {
            Update: {
              TableName: table(),
              Key,
              UpdateExpression: 'SET refs = refs - :one',
              ConditionExpression: 'refs = :seen',
              ExpressionAttributeValues: { ':one': 1, ':seen': count },
            },
          },
        ];
  });
}

/**
 * The index writes that take a removed message's counted `words` back (storage/retention/old-messages.ts),
 * conditional on the counts read now: put them in the transaction that deletes the message.
 */
export async function messageWordRemovals(companyId: number, ticketId: number, words: string[]): Promise<TransactItem[]> {
  return wordRemovals(companyId, ticketId, words, await readCounts(companyId, ticketId, words));
}

// --- Edits and deletes ---

/**
 * Changes a message (`set`) and moves its index words to `nextWords`. `change` decides from the
 * message as read; undefined means nothing to do (it is already deleted, say). The message's change
 * is conditional on the message as read (a concurrent change re-reads and tries again); its index
 * items follow it through the table's stream (see the header). Returns the changed message, or undefined when there was none.
 */
async function changeIndexedMessage<T extends IndexedMessage & { updatedAt: string }>(
  companyId: number,
  ticketId: number,
  id: string,
  change: (message: T) => { set: Record<string, unknown>; nextWords: string[] } | undefined,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const message = await getItem<T>(ticketPk(companyId, ticketId), `MSG#${id}`);
    const next = message && change(message);
    if (!message || !next) return undefined;
    const counted = message.searchWords ?? [];
    const shard = message.wordIndex?.shard ?? listShardOf(companyId, ticketId);
    const fields = { ...next.set, wordIndex: { shard, words: next.nextWords }, updatedAt: new Date().toISOString() };
    const entries = Object.entries(fields);
    const update = {
      TableName: table(),
      Key: { pk: ticketPk(companyId, ticketId), sk: `MSG#${id}` },
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}${counted.length ? ' REMOVE searchWords' : ''}`,
      // As read: any change in between (an ack, another edit) means read and decide again.
      ConditionExpression: '#updatedAt = :seen',
      ExpressionAttributeNames: { ...Object.fromEntries(entries.map(([key], i) => [`#f${i}`, key])), '#updatedAt': 'updatedAt' },
      ExpressionAttributeValues: {
        ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        ':seen': message.updatedAt,
      },
    };
    try {
      if (counted.length) {
        // Counted before issue 24: its counts go back with the change, its new words get items of their own.
        const removals = wordRemovals(companyId, ticketId, counted, await readCounts(companyId, ticketId, counted));
        await db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...removals] }));
      } else {
        await db().send(new UpdateCommand(update));
      }
    } catch (error) {
      const codes = transactionCancellationCodes(error);
      if (isConditionalCheckFailed(error) || codes?.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict'))
        continue;
      throw error;
    }
    const { searchWords: _counted, ...rest } = message;
    return { ...rest, ...fields } as T;
  }
  throw new Error(`Message ${id} of ticket ${ticketId} kept changing under its index update`);
}

/** Marks a message deleted and takes its words out of the index. Undefined if missing or already deleted. */
export const deleteIndexedMessage = <T extends IndexedMessage & { updatedAt: string; isDeleted: boolean }>(
  companyId: number,
  ticketId: number,
  id: string,
) =>
  changeIndexedMessage<T>(companyId, ticketId, id, (message) =>
    message.isDeleted ? undefined : { set: { isDeleted: true }, nextWords: [] },
  );

/** A message's new body: its old words leave the index, the new ones join it. Undefined if missing. */
export const editIndexedMessage = <T extends IndexedMessage & { updatedAt: string; isDeleted: boolean }>(
  companyId: number,
  ticketId: number,
  id: string,
  body: string,
) =>
  changeIndexedMessage<T>(companyId, ticketId, id, (message) => ({
    set: { body, isEdited: true },
    // A deleted message stays out of the index whatever its body becomes.
    nextWords: message.isDeleted ? [] : messageWords(body),
  }));
