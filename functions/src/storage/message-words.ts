/**
 * A message's share of the word index (search-index.ts `M` items), so a search finds a ticket by
 * the text its messages hold now, not by a text edited away or deleted.
 *
 * One item per (word, ticket), shared by the ticket's messages that hold the word, with `refs`:
 * how many of them do. storeMessage adds one per word in the message's own transaction
 * (messageWordAdds) and records on the message the words it counted (`searchWords`). An edit moves
 * the counts from the old words to the new ones; a delete takes its words back; a count that
 * reaches 0 deletes the item. Each is one transaction with the message's own change, conditional on
 * the message and counts read (a concurrent change re-reads and tries again), so counts never drift
 * and a replayed edit or revoke changes nothing. Messages the index never counted (chatbot replies,
 * automatic messages: messages.ts) carry no `searchWords` and take nothing back; neither do
 * messages stored before counts existed (their words stay, as they used to). An item written before
 * counts existed (no `refs`) counts as one message.
 */
import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, type TransactItem, table, transactionCancellationCodes } from './db.ts';
import { messageWords, ticketSearchKey } from './search-index.ts';
import { ticketPk } from './tickets.ts';

/** What the stored message item carries besides the API's message: the words it counts in the index. */
export interface IndexedMessage {
  companyId: number;
  ticketId: number;
  searchWords?: string[];
}

const MAX_ATTEMPTS = 5;

/** One more message of the ticket holds each of `words` (creates the items it lacks). */
function wordAdds(companyId: number, ticketId: number, words: string[]): TransactItem[] {
  return words.map((word) => ({
    Update: {
      TableName: table(),
      Key: ticketSearchKey(companyId, 'M', word, ticketId),
      UpdateExpression: 'SET entity = :entity, ticketId = :ticketId ADD refs :one',
      ExpressionAttributeValues: { ':entity': 'search', ':ticketId': ticketId, ':one': 1 },
    },
  }));
}

/** storeMessage's index writes for a new message: its words, each counted once. */
export const messageWordAdds = (message: { companyId: number; ticketId: number; body: string | null }): TransactItem[] =>
  wordAdds(message.companyId, message.ticketId, messageWords(message.body ?? ''));

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
 * The index writes that take a removed message's `words` back (storage/retention/old-messages.ts),
 * conditional on the counts read now: put them in the transaction that deletes the message.
 */
export async function messageWordRemovals(companyId: number, ticketId: number, words: string[]): Promise<TransactItem[]> {
  return wordRemovals(companyId, ticketId, words, await readCounts(companyId, ticketId, words));
}

/**
 * Changes a message (`set`) and moves its index words to `nextWords`, in one transaction. `change`
 * decides from the message as read; undefined means nothing to do (it is already deleted, say).
 * Returns the changed message, or undefined when there was none.
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
    const before = message.searchWords ?? [];
    const removed = before.filter((word) => !next.nextWords.includes(word));
    const added = next.nextWords.filter((word) => !before.includes(word));
    const counts = await readCounts(companyId, ticketId, removed);
    const fields = { ...next.set, searchWords: next.nextWords, updatedAt: new Date().toISOString() };
    const entries = Object.entries(fields);
    const items: TransactItem[] = [
      {
        Update: {
          TableName: table(),
          Key: { pk: ticketPk(companyId, ticketId), sk: `MSG#${id}` },
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          // As read: any change in between (an ack, another edit) means read and decide again.
          ConditionExpression: '#updatedAt = :seen',
          ExpressionAttributeNames: { ...Object.fromEntries(entries.map(([key], i) => [`#f${i}`, key])), '#updatedAt': 'updatedAt' },
          ExpressionAttributeValues: {
            ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
            ':seen': message.updatedAt,
          },
        },
      },
      ...wordRemovals(companyId, ticketId, removed, counts),
      ...wordAdds(companyId, ticketId, added),
    ];
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { ...message, ...fields } as T;
    } catch (error) {
      const codes = transactionCancellationCodes(error);
      if (!codes?.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) throw error;
    }
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
