/**
 * A message's share of the word index (search-index.ts `M` items), so a search finds a ticket by
 * the text its messages hold now, not by a text edited away or deleted.
 *
 * One item per (word, ticket, message) (issue 24): storeMessage records on the message where its
 * words go (`wordIndex`: the partitions' shard and the words) in the message's transaction, and
 * writes the items after it commits, outside any transaction: BatchWriteItem, 25 a request, what
 * DynamoDB leaves unprocessed retried with backoff. Each is a Put of a key the message alone decides,
 * so a retry or a second writer writes the same item again (1 WCU, where the counted items of before
 * cost 2 a word: an ADD inside the message's transaction). An edit changes the message first
 * (conditional on the message as read) and then puts the new words' items and deletes the old
 * ones'; a delete deletes them all. Nothing is shared between messages, so nothing is counted: a
 * word held by two messages of a ticket is two items, and deleting one leaves the other.
 *
 * When the index writes fail (DynamoDB throttled or down past the retries), the message stays
 * stored and delivered: the ticket item remembers the message (`wordRepairs`, one string set
 * element `<message id> <shard> [<word to take back>...]`) and the next message stored on the ticket
 * repairs it (repairMessageWords: the words the message holds now are put again, the stale ones
 * deleted, the mark cleared), since every writer of a message reads its ticket first. A writer that
 * races another change of the same message (a concurrent edit and revoke) reads the message again
 * after its index writes and corrects them to what the message holds then.
 *
 * Messages stored before issue 24 carry `searchWords` instead: the words they counted in the shared,
 * counted items (`M#<word>#<ticket>`, `refs`). Their edit, delete or removal takes those counts back
 * as before (one transaction with the message's change, conditional on the counts read), and an
 * edit moves the message to its own items. Messages the index never counted (chatbot replies,
 * automatic messages, a campaign's: messages/messages.ts) carry neither and take nothing back.
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
async function writeBatches(requests: WriteRequest[]): Promise<boolean> {
  try {
    for (let i = 0; i < requests.length; i += BATCH) {
      let pending = requests.slice(i, i + BATCH);
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt >= MAX_BATCH_ATTEMPTS) return false;
        if (attempt) await sleep(Math.min(800, 25 * 2 ** attempt));
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
        pending = (out.UnprocessedItems?.[table()] ?? []) as WriteRequest[];
      }
    }
    return true;
  } catch (error) {
    logger.warn('message words not written', { error: (error as Error).message });
    return false;
  }
}

function wordRequests(message: Pick<IndexedMessage, 'companyId' | 'ticketId' | 'id'>, shard: number, put: string[], remove: string[]) {
  const { companyId, ticketId, id } = message;
  return [
    ...messageWordItems(companyId, ticketId, id, { shard, words: put }).map((Item): WriteRequest => ({ PutRequest: { Item } })),
    ...remove.map((word): WriteRequest => ({ DeleteRequest: { Key: messageWordKey(companyId, word, ticketId, id, shard) } })),
  ];
}

const repairMark = (id: string, shard: number, stale: string[]) => [id, String(shard), ...stale].join(' ');

/** The ticket remembers that the message's items may be wrong (the next message stored repairs them). */
async function markForRepair(message: Pick<IndexedMessage, 'companyId' | 'ticketId' | 'id'>, shard: number, stale: string[]) {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: ticketKey(message.companyId, message.ticketId),
        UpdateExpression: 'ADD wordRepairs :mark',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':mark': new Set([repairMark(message.id, shard, stale)]) },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) return; // the ticket is gone, and its index items with it
    // Both writes failed: the message stays stored, unfound by these words until it is edited.
    logger.error('message words lost', { ...message, stale, error: (error as Error).message });
  }
}

/**
 * Makes the index hold the message's `put` words and not its `remove` ones. True when written;
 * otherwise the ticket is marked for repair and false is returned: never an error for the caller.
 */
export async function syncMessageWords(
  message: Pick<IndexedMessage, 'companyId' | 'ticketId' | 'id'>,
  shard: number,
  put: string[],
  remove: string[],
): Promise<boolean> {
  if (!put.length && !remove.length) return true;
  if (await writeBatches(wordRequests(message, shard, put, remove))) return true;
  await markForRepair(message, shard, remove);
  return false;
}

/**
 * The word writes of several stored messages, deferred and written together (the inbound consumer:
 * one SQS batch's messages, `flush` at the batch's end): their items go in as few BatchWriteItem
 * calls as 25 a call allows, the calls side by side, unprocessed items retried with backoff as
 * above. A message with an item left unwritten marks its ticket for repair, as syncMessageWords
 * does; `flush` never fails. Until it runs, the messages are stored and delivered but not found by
 * their words.
 */
export interface DeferredWords {
  defer(message: Pick<IndexedMessage, 'companyId' | 'ticketId' | 'id'>, index: WordIndex): void;
  flush(): Promise<void>;
}

export function deferredWords(): DeferredWords {
  /** By the item's key: a message deferred twice (a replay resumed in the batch) writes its items once. */
  const requests = new Map<string, { request: WriteRequest; message: string }>();
  const messages = new Map<string, { message: Pick<IndexedMessage, 'companyId' | 'ticketId' | 'id'>; shard: number }>();
  return {
    defer(message, index) {
      const id = `${message.companyId}:${message.ticketId}:${message.id}`;
      messages.set(id, { message: { companyId: message.companyId, ticketId: message.ticketId, id: message.id }, shard: index.shard });
      for (const request of wordRequests(message, index.shard, index.words, [])) {
        const { pk, sk } = (request as { PutRequest: { Item: Record<string, unknown> } }).PutRequest.Item;
        requests.set(`${pk} ${sk}`, { request, message: id });
      }
    },
    async flush() {
      const all = [...requests.values()];
      requests.clear();
      const chunks = Array.from({ length: Math.ceil(all.length / BATCH) }, (_, i) => all.slice(i * BATCH, (i + 1) * BATCH));
      const unwritten = new Set<string>();
      await Promise.all(
        chunks.map(async (chunk) => {
          if (!(await writeBatches(chunk.map((entry) => entry.request)))) for (const entry of chunk) unwritten.add(entry.message);
        }),
      );
      const failed = [...unwritten].flatMap((id) => messages.get(id) ?? []);
      messages.clear();
      await Promise.all(failed.map(({ message, shard }) => markForRepair(message, shard, [])));
    },
  };
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
    if (!(await writeBatches(wordRequests({ companyId, ticketId, id }, shard, current, remove)))) continue;
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
 * After a change's index writes: when the message changed again meanwhile (another edit, a delete),
 * the index is set to what it holds now, whichever writer's items landed last.
 */
async function settleWords(message: IndexedMessage, written: string, touched: string[]): Promise<void> {
  const now = await getItem<IndexedMessage & { updatedAt: string; isDeleted?: boolean }>(
    ticketPk(message.companyId, message.ticketId),
    `MSG#${message.id}`,
  );
  if (now && now.updatedAt === written) return;
  const shard = now?.wordIndex?.shard ?? message.wordIndex?.shard ?? 0;
  const current = now && !now.isDeleted ? (now.wordIndex?.words ?? []) : [];
  await syncMessageWords(
    message,
    shard,
    current,
    touched.filter((word) => !current.includes(word)),
  );
}

/**
 * Changes a message (`set`) and moves its index words to `nextWords`. `change` decides from the
 * message as read; undefined means nothing to do (it is already deleted, say). The message's change
 * is conditional on the message as read (a concurrent change re-reads and tries again); its words
 * follow it (see the header). Returns the changed message, or undefined when there was none.
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
    const before = message.wordIndex?.words ?? [];
    const removed = before.filter((word) => !next.nextWords.includes(word));
    const added = next.nextWords.filter((word) => !before.includes(word));
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
    const changed = { ...rest, ...fields } as T;
    await syncMessageWords(changed, shard, added, removed);
    await settleWords(changed, fields.updatedAt, [...added, ...removed]);
    return changed;
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
