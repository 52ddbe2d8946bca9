/**
 * The table's stream and its consumers, declared once (like the queues): the CDK stack turns on the
 * table's stream and maps each consumer to it with these filters and retries, and the local stack
 * polls DynamoDB Local's stream with the same filters and hands the same handler the same events.
 */

/** What a stream record carries: the item before and after each write (inserts, edits, deletes, TTL expiries). */
export const TABLE_STREAM_VIEW = 'NEW_AND_OLD_IMAGES';

export interface TableStreamConsumerDeclaration {
  /** Logical name; the Lambda is functions/src/handlers/streams/<name>.ts. */
  name: string;
  /**
   * Lambda's event filter patterns over a stream record (its DynamoDB JSON): a record that matches
   * any of them is delivered, the rest never invoke the consumer. Operators used: `prefix`, `exists`.
   */
  filters: readonly Record<string, unknown>[];
  /** Records an invocation at most. */
  batchSize: number;
  /** How long records gather before an invocation (a quiet table still sees its records within it). */
  maxBatchingWindowSeconds: number;
  /** Tries of a failing batch after the first, halved each time (bisect), before its records go to the DLQ. */
  retryAttempts: number;
  /** A record older than this goes to the DLQ untried (a stream keeps 24 hours). */
  maxRecordAgeSeconds: number;
}

/** A stored message of a ticket that has index words now or had them before the write. */
const indexedMessage = (image: 'NewImage' | 'OldImage') => ({
  dynamodb: {
    Keys: { sk: { S: [{ prefix: 'MSG#' }] } },
    [image]: { wordIndex: { M: { shard: { N: [{ exists: true }] } } } },
  },
});

export const tableStreamConsumers: readonly TableStreamConsumerDeclaration[] = [
  /**
   * The message search words (storage/messages/words.ts): the index items follow each message's
   * `wordIndex` as the stream shows it change, off the message's own path (issue 24).
   */
  {
    name: 'message-words',
    filters: [indexedMessage('NewImage'), indexedMessage('OldImage')],
    batchSize: 100,
    maxBatchingWindowSeconds: 1,
    // A failing batch is DynamoDB throttled or down (its writes are plain Puts and Deletes of small
    // items): tried again until it passes, halved down to the one record that fails, rather than
    // words lost after a few tries. Only a record the stream is about to forget (it keeps 24 hours)
    // goes to the DLQ; the function's IteratorAge alarm says long before that that words lag.
    retryAttempts: 10_000,
    maxRecordAgeSeconds: 24 * 60 * 60,
  },
];
