/**
 * The campaign engine's ship and confirm records (storage/campaigns/shipping.ts "ship", "confirm"):
 * one per (campaign, contact), the tick's all-or-nothing commit, each result recorded once.
 */
import { BatchGetCommand, DeleteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getItemBatched } from '../batch-get.ts';
import { db, getItem, isConditionalCheckFailed, stripKeys, table, transactionCancellationCodes } from '../db.ts';
import { tenantPk } from '../table.ts';
import { campaignKeyOf, confirmKey, paceKey, runKey, type ShipRecord, shipKey, withNames } from './shipping.ts';

export async function getShipRecords(companyId: number, campaignId: number, itemIds: number[]): Promise<Map<number, ShipRecord>> {
  const found = new Map<number, ShipRecord>();
  if (!itemIds.length) return found;
  let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
    [table()]: { Keys: itemIds.map((id) => shipKey(companyId, campaignId, id)), ConsistentRead: true },
  };
  while (request && Object.keys(request).length) {
    const out = await db().send(new BatchGetCommand({ RequestItems: request }));
    for (const item of out.Responses?.[table()] ?? []) {
      const record = stripKeys<ShipRecord>(item);
      found.set(record.itemId, record);
    }
    request = out.UnprocessedKeys as typeof request;
  }
  return found;
}

export const getShipRecord = (companyId: number, campaignId: number, itemId: number): Promise<ShipRecord | undefined> =>
  getItem<ShipRecord>(shipKey(companyId, campaignId, itemId).pk, shipKey(companyId, campaignId, itemId).sk);

export interface TickCommit {
  companyId: number;
  connectionId: number;
  campaignId: number;
  seq: number;
  run: number;
  /** The run's cursor as read: the commit moves it to `cursor`. */
  fromCursor: number;
  cursor: number;
  done: boolean;
  /** Records to write; `fresh` ones are counted as queued. */
  ships: { record: ShipRecord; fresh: boolean }[];
  /** With confirmation on: the contacts whose reply is now awaited. */
  confirms: { number: string; itemId: number }[];
  pace: { turn: number; sinceLong: number; targetAt: number };
}

/**
 * One tick's work, all or nothing: the shipping records (never over a delivered one), the run's
 * cursor and queued count (from the cursor read), the pace's next seq (from the seq read) and a
 * check that the campaign is still running, so a cancel that lands first stops the batch whole.
 * False when any of them changed: the tick was stale, or the campaign stopped.
 */
export async function commitTick(commit: TickCommit): Promise<boolean> {
  const { companyId, campaignId } = commit;
  const fresh = commit.ships.filter((s) => s.fresh).length;
  const items = [
    {
      ConditionCheck: {
        TableName: table(),
        Key: campaignKeyOf(companyId, campaignId),
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'EM_ANDAMENTO' },
      },
    },
    {
      Update: withNames({
        TableName: table(),
        Key: paceKey(companyId, commit.connectionId),
        // Walked to its end, the campaign leaves the chain in the same write.
        UpdateExpression: `SET #seq = :next, #turn = :turn, #sinceLong = :since, #targetAt = :target, #lastBatch = :batch${commit.done ? ' DELETE #campaigns :cid' : ''}`,
        ConditionExpression: '#seq = :seq',
        ExpressionAttributeValues: {
          ...(commit.done ? { ':cid': new Set([campaignId]) } : {}),
          ':seq': commit.seq,
          ':next': commit.seq + 1,
          ':turn': commit.pace.turn,
          ':since': commit.pace.sinceLong,
          ':target': commit.pace.targetAt,
          ':batch': { seq: commit.seq, campaignId, itemIds: commit.ships.map((s) => s.record.itemId) },
        },
      }),
    },
    {
      Update: withNames({
        TableName: table(),
        Key: runKey(companyId, campaignId),
        UpdateExpression: 'SET #cursor = :cursor, #done = :done ADD #queued :fresh',
        ConditionExpression: '#cursor = :from AND #run = :run',
        ExpressionAttributeValues: {
          ':cursor': commit.cursor,
          ':done': commit.done,
          ':fresh': fresh,
          ':from': commit.fromCursor,
          ':run': commit.run,
        },
      }),
    },
    ...commit.ships.map(({ record }) => ({
      Put: {
        TableName: table(),
        Item: { ...shipKey(companyId, campaignId, record.itemId), entity: 'campaignShip', ...record },
        ConditionExpression: 'attribute_not_exists(deliveredAt)',
      },
    })),
    ...commit.confirms.map(({ number, itemId }) => ({
      Put: {
        TableName: table(),
        Item: { ...confirmKey(companyId, commit.connectionId, number), entity: 'campaignConfirm', campaignId, itemId },
      },
    })),
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (error) {
    if (transactionCancellationCodes(error)?.includes('ConditionalCheckFailed')) return false;
    throw error;
  }
}

type Outcome = 'delivered' | 'failed' | 'confirmationRequested' | 'confirmed';

/**
 * A result recorded once: the record's timestamp set only if absent (and never after delivery for
 * a failure), with its counter moved in the same transaction. False when it was already recorded
 * (a redelivered result) or the record is gone.
 */
export async function recordOutcome(
  companyId: number,
  campaignId: number,
  itemId: number,
  outcome: Outcome,
  at: string,
  error?: string,
): Promise<boolean> {
  const field = {
    delivered: 'deliveredAt',
    failed: 'failedAt',
    confirmationRequested: 'confirmationRequestedAt',
    confirmed: 'confirmedAt',
  }[outcome];
  const condition =
    outcome === 'failed'
      ? 'attribute_exists(pk) AND attribute_not_exists(deliveredAt) AND attribute_not_exists(failedAt)'
      : `attribute_exists(pk) AND attribute_not_exists(${field})`;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: withNames({
              TableName: table(),
              Key: shipKey(companyId, campaignId, itemId),
              UpdateExpression: `SET ${field} = :at${error ? ', #error = :error' : ''}${outcome === 'delivered' ? ' REMOVE failedAt' : ''}`,
              ConditionExpression: condition,
              ...(error ? { ExpressionAttributeNames: { '#error': 'error' } } : {}),
              ExpressionAttributeValues: { ':at': at, ...(error ? { ':error': error } : {}) },
            }),
          },
          {
            Update: withNames({
              TableName: table(),
              Key: runKey(companyId, campaignId),
              UpdateExpression: 'ADD #counter :one',
              ExpressionAttributeNames: { '#counter': outcome },
              ExpressionAttributeValues: { ':one': 1 },
            }),
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * The contact's phone acked the campaign's message (SPEC 4 "Message ack": 2 and 3 delivered, 4 and
 * 5 read): `receivedAt`, and from a read `readAt` too, each set once (if_not_exists), so a repeated
 * or late lower ack changes nothing. One conditional UpdateItem, no transaction: the run's counters
 * do not count reads, and a record erased meanwhile (forgetRecipient) is not brought back.
 */
export async function recordShipAck(companyId: number, campaignId: number, itemId: number, ack: number, at: string): Promise<void> {
  if (ack < 2) return;
  const read = ack >= 4;
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: shipKey(companyId, campaignId, itemId),
        UpdateExpression: `SET receivedAt = if_not_exists(receivedAt, :at)${read ? ', readAt = if_not_exists(readAt, :at)' : ''}`,
        ConditionExpression: read
          ? 'attribute_exists(pk) AND attribute_not_exists(readAt)'
          : 'attribute_exists(pk) AND attribute_not_exists(receivedAt)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

export async function getPendingConfirmation(
  companyId: number,
  connectionId: number,
  number: string,
): Promise<{ campaignId: number; itemId: number } | undefined> {
  // On the inbound path for every contact message: read with the batch's other point reads (one
  // BatchGetItem for an SQS batch's links, contacts and confirmations) rather than a GetItem each.
  return getItemBatched<{ campaignId: number; itemId: number }>(confirmKey(companyId, connectionId, number));
}

export async function clearPendingConfirmation(companyId: number, connectionId: number, number: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: confirmKey(companyId, connectionId, number) }));
}

/**
 * A contact's erasure (issue 21 §4): each send of its list entry (a ship record holds the number,
 * name, e-mail and the message as sent) and any confirmation waiting on its number, on any
 * connection. Idempotent: deleting what is already gone is fine.
 */
export async function forgetRecipient(companyId: number, campaignIds: number[], itemId: number, number: string): Promise<void> {
  const keys = campaignIds.map((campaignId) => shipKey(companyId, campaignId, itemId));
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :confirm)',
        ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':confirm': 'CAMPAIGNCONFIRM#' },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? [])
      if (String(item.sk).endsWith(`#${number}`)) keys.push({ pk: String(item.pk), sk: String(item.sk) });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  for (const key of keys) await db().send(new DeleteCommand({ TableName: table(), Key: key }));
}
