/**
 * Consumer of the table's stream for the message search words (declarations/table-streams.ts
 * `message-words`, issue 24): the records of messages that have index words now or had them before
 * (inserts, edits, deletes, a retention sweep's removals, TTL expiries), at most 100 an invocation.
 * The index then holds each message's words as its last record shows them
 * (storage/messages/words.ts applyMessageWordChanges). A batch that fails throws: the stream retries
 * it (halved on each try) in order, and the writes are Puts and Deletes of keys the message alone
 * decides, so a retry writes the same items again. Its records go to the DLQ after the last try.
 */

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent, AttributeValue as StreamAttributeValue } from 'aws-lambda';
import { applyMessageWordChanges, type IndexedImage, type MessageWordChange } from '#storage/messages/words';

const image = (raw: Record<string, StreamAttributeValue> | undefined): IndexedImage | undefined =>
  raw ? (unmarshall(raw as Record<string, AttributeValue>) as IndexedImage) : undefined;

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const changes = event.Records.flatMap((record): MessageWordChange[] => {
    const keys = record.dynamodb?.Keys;
    if (!keys?.pk?.S || !keys.sk?.S) return [];
    return [
      {
        key: `${keys.pk.S} ${keys.sk.S}`,
        before: image(record.dynamodb?.OldImage),
        after: record.eventName === 'REMOVE' ? undefined : image(record.dynamodb?.NewImage),
      },
    ];
  });
  await applyMessageWordChanges(changes);
}
