/**
 * The campaign engine's records (BEHAVIOUR "Campaigns"; domain/campaigns/engine.ts).
 *
 *   pace     pk = C#<cid>   sk = CAMPAIGNPACE#<padded connectionId>
 *            { seq, campaigns: number set, turn, sinceLong, idle, targetAt, lastBatch }
 *            -> one per connection: its chain of tick messages. Only the tick carrying `seq` acts,
 *               and its commit moves `seq` on, so a duplicate or stale tick does nothing and two
 *               campaigns on one connection share one pace. `campaigns` are the running ones
 *               (ADD/DELETE, never rewritten, so a start never loses to a tick's commit);
 *               `lastBatch` names what the last commit shipped, for a redelivered tick to finish.
 *   run      pk = C#<cid>   sk = CAMPAIGNRUN#<padded campaignId>
 *            { run, cursor, done, valid, invalid, queued, delivered, failed, confirmationRequested, confirmed }
 *            -> the campaign's walk of its list (`cursor`: the last item id shipped) and the report's
 *               counters, each moved in the same transaction as the record change it counts
 *   ship     pk = C#<cid>   sk = CAMPAIGNSHIP#<padded campaignId>#<padded itemId>
 *            { itemId, number, name, email, message, confirmation?, run, queuedAt, deliveredAt?,
 *              failedAt?, error?, confirmationRequestedAt?, confirmedAt? }
 *            -> one per (campaign, contact), written before its sends; the texts chosen once, so a
 *               resend is the same message
 *   confirm  pk = C#<cid>   sk = CAMPAIGNCONFIRM#<padded connectionId>#<number>   { campaignId, itemId }
 *            -> a contact's pending confirmation, the one GetItem the inbound path makes per reply
 *   due      gsi1pk = CAMPAIGN_DUE   gsi1sk = <scheduledAt>#<cid>#<padded id>   (on the campaign item, storage/campaigns.ts)
 */
import { BatchGetCommand, DeleteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, isConditionalCheckFailed, stripKeys, table, transactionCancellationCodes } from './db.ts';
import { pad, tenantPk } from './table.ts';

export interface PaceRecord {
  seq: number;
  campaigns: number[];
  turn: number;
  sinceLong: number;
  idle: boolean;
  /** Epoch ms the next send is due. */
  targetAt: number;
  lastBatch?: { seq: number; campaignId: number; itemIds: number[] };
}

export interface RunCounters {
  valid: number;
  invalid: number;
  queued: number;
  delivered: number;
  failed: number;
  confirmationRequested: number;
  confirmed: number;
}

export interface RunRecord extends RunCounters {
  campaignId: number;
  run: number;
  cursor: number;
  done: boolean;
}

export interface ShipRecord {
  campaignId: number;
  itemId: number;
  number: string;
  name: string;
  email: string;
  message: string;
  confirmation?: string;
  run: number;
  queuedAt: string;
  deliveredAt?: string;
  failedAt?: string;
  error?: string;
  confirmationRequestedAt?: string;
  confirmedAt?: string;
}

const paceKey = (companyId: number, connectionId: number) => ({ pk: tenantPk(companyId), sk: `CAMPAIGNPACE#${pad(connectionId)}` });
const runKey = (companyId: number, campaignId: number) => ({ pk: tenantPk(companyId), sk: `CAMPAIGNRUN#${pad(campaignId)}` });
const shipKey = (companyId: number, campaignId: number, itemId: number) => ({
  pk: tenantPk(companyId),
  sk: `CAMPAIGNSHIP#${pad(campaignId)}#${pad(itemId)}`,
});
const confirmKey = (companyId: number, connectionId: number, number: string) => ({
  pk: tenantPk(companyId),
  sk: `CAMPAIGNCONFIRM#${pad(connectionId)}#${number}`,
});

/**
 * Every attribute these expressions name goes through `#name` (CURSOR, RUN and others are DynamoDB
 * reserved words); `named(...)` is the map of the ones an expression uses.
 */
const ATTRIBUTES = [
  'seq',
  'campaigns',
  'idle',
  'targetAt',
  'sinceLong',
  'turn',
  'lastBatch',
  'campaignId',
  'cursor',
  'done',
  'valid',
  'invalid',
  'failed',
  'queued',
  'delivered',
  'confirmationRequested',
  'confirmed',
  'entity',
  'run',
] as const;
const named = (expression: string): Record<string, string> =>
  Object.fromEntries(ATTRIBUTES.filter((name) => new RegExp(`#${name}\\b`).test(expression)).map((name) => [`#${name}`, name]));

/** Adds the `#name`s an update's expressions use to its ExpressionAttributeNames. */
function withNames<T extends { UpdateExpression: string; ConditionExpression?: string; ExpressionAttributeNames?: Record<string, string> }>(
  input: T,
): T {
  const names = { ...named(`${input.UpdateExpression} ${input.ConditionExpression ?? ''}`), ...input.ExpressionAttributeNames };
  return Object.keys(names).length ? { ...input, ExpressionAttributeNames: names } : input;
}

export const campaignKeyOf = (companyId: number, campaignId: number) => ({ pk: tenantPk(companyId), sk: `CAMPAIGN#${pad(campaignId)}` });

export const emptyCounters = (): RunCounters => ({
  valid: 0,
  invalid: 0,
  queued: 0,
  delivered: 0,
  failed: 0,
  confirmationRequested: 0,
  confirmed: 0,
});

function toPace(item: Record<string, unknown>): PaceRecord {
  const set = item.campaigns as Set<number> | number[] | undefined;
  return {
    seq: Number(item.seq ?? 0),
    campaigns: [...(set ?? [])].map(Number).sort((a, b) => a - b),
    turn: Number(item.turn ?? 0),
    sinceLong: Number(item.sinceLong ?? 0),
    idle: item.idle !== false,
    targetAt: Number(item.targetAt ?? 0),
    lastBatch: item.lastBatch as PaceRecord['lastBatch'],
  };
}

export async function getPace(companyId: number, connectionId: number): Promise<PaceRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(paceKey(companyId, connectionId).pk, paceKey(companyId, connectionId).sk);
  return item ? toPace(item) : undefined;
}

/**
 * Adds a running campaign to its connection's chain and wakes the chain when it sleeps: returns the
 * seq of the tick to enqueue, or undefined when the chain is running (its next tick finds the campaign).
 */
export async function joinPace(companyId: number, connectionId: number, campaignId: number, nowMs: number): Promise<number | undefined> {
  const key = paceKey(companyId, connectionId);
  await db().send(
    new UpdateCommand(
      withNames({
        TableName: table(),
        Key: key,
        UpdateExpression: 'ADD #campaigns :id SET #idle = if_not_exists(#idle, :true), #seq = if_not_exists(#seq, :zero)',
        ExpressionAttributeValues: { ':id': new Set([campaignId]), ':true': true, ':zero': 0 },
      }),
    ),
  );
  try {
    const out = await db().send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: key,
          UpdateExpression: 'SET #idle = :false, #targetAt = :now, #sinceLong = :zero ADD #seq :one',
          ConditionExpression: '#idle = :true',
          ExpressionAttributeValues: { ':false': false, ':true': true, ':now': nowMs, ':zero': 0, ':one': 1 },
          ReturnValues: 'ALL_NEW' as const,
        }),
      ),
    );
    return Number(out.Attributes?.seq);
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/** The chain sleeps when no campaign runs on the connection any more (a start in between keeps it awake). */
export async function sleepPace(companyId: number, connectionId: number, seq: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: paceKey(companyId, connectionId),
          UpdateExpression: 'SET #idle = :true',
          ConditionExpression: '#seq = :seq AND attribute_not_exists(#campaigns)',
          ExpressionAttributeValues: { ':true': true, ':seq': seq },
        }),
      ),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Takes a campaign off the chain (cancelled, finished, walked to the end) as tick `seq`; false when the tick is stale. */
export async function leavePace(companyId: number, connectionId: number, campaignId: number, seq: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: paceKey(companyId, connectionId),
          UpdateExpression: 'DELETE #campaigns :id SET #seq = :next, #lastBatch = :batch',
          ConditionExpression: '#seq = :seq',
          ExpressionAttributeValues: {
            ':id': new Set([campaignId]),
            ':seq': seq,
            ':next': seq + 1,
            ':batch': { seq, campaignId, itemIds: [] },
          },
        }),
      ),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Drops a campaign from its connection's set without a tick (cancel): its next tick finds it gone. */
export async function dropFromPace(companyId: number, connectionId: number, campaignId: number): Promise<void> {
  await db()
    .send(
      new UpdateCommand(
        withNames({
          TableName: table(),
          Key: paceKey(companyId, connectionId),
          UpdateExpression: 'DELETE #campaigns :id',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':id': new Set([campaignId]) },
        }),
      ),
    )
    .catch((error: unknown) => {
      if (!isConditionalCheckFailed(error)) throw error;
    });
}

export const getRun = async (companyId: number, campaignId: number): Promise<RunRecord | undefined> => {
  const item = await getItem<RunRecord>(runKey(companyId, campaignId).pk, runKey(companyId, campaignId).sk);
  return item ? { ...emptyCounters(), ...item } : undefined;
};

/** Reads the runs of several campaigns (a page of the campaigns list) in one request. */
export async function getRuns(companyId: number, campaignIds: number[]): Promise<Map<number, RunRecord>> {
  const runs = new Map<number, RunRecord>();
  for (let i = 0; i < campaignIds.length; i += 100) {
    const keys = campaignIds.slice(i, i + 100).map((id) => runKey(companyId, id));
    let request: Record<string, { Keys: Record<string, unknown>[] }> | undefined = { [table()]: { Keys: keys } };
    while (request && Object.keys(request).length) {
      const out = await db().send(new BatchGetCommand({ RequestItems: request }));
      for (const item of out.Responses?.[table()] ?? []) {
        const run = { ...emptyCounters(), ...stripKeys<RunRecord>(item) };
        runs.set(run.campaignId, run);
      }
      request = out.UnprocessedKeys as typeof request;
    }
  }
  return runs;
}

/**
 * A (re)start: a new run walks the list from its start; what was delivered stays delivered and
 * counted, failures get another chance (their count starts again).
 */
export async function beginRun(companyId: number, campaignId: number, counts: { valid: number; invalid: number }): Promise<RunRecord> {
  const out = await db().send(
    new UpdateCommand(
      withNames({
        TableName: table(),
        Key: runKey(companyId, campaignId),
        UpdateExpression:
          'SET #campaignId = :id, #cursor = :zero, #done = :false, #valid = :valid, #invalid = :invalid, #failed = :zero, ' +
          '#queued = if_not_exists(#queued, :zero), #delivered = if_not_exists(#delivered, :zero), ' +
          '#confirmationRequested = if_not_exists(#confirmationRequested, :zero), #confirmed = if_not_exists(#confirmed, :zero), ' +
          '#entity = :entity ADD #run :one',
        ExpressionAttributeValues: {
          ':id': campaignId,
          ':zero': 0,
          ':false': false,
          ':valid': counts.valid,
          ':invalid': counts.invalid,
          ':one': 1,
          ':entity': 'campaignRun',
        },
        ReturnValues: 'ALL_NEW' as const,
      }),
    ),
  );
  return { ...emptyCounters(), ...stripKeys<RunRecord>(out.Attributes ?? {}) };
}

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

export async function getPendingConfirmation(
  companyId: number,
  connectionId: number,
  number: string,
): Promise<{ campaignId: number; itemId: number } | undefined> {
  const key = confirmKey(companyId, connectionId, number);
  // Eventually consistent: half the cost on the inbound path; a reply a split second after the request is rare.
  return getItem<{ campaignId: number; itemId: number }>(key.pk, key.sk, false);
}

export async function clearPendingConfirmation(companyId: number, connectionId: number, number: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: confirmKey(companyId, connectionId, number) }));
}

/** Campaigns due to start before `until` (ISO), every tenant's: the due index's page. */
export async function dueCampaigns(until: string): Promise<{ companyId: number; id: number; scheduledAt: string }[]> {
  const out: { companyId: number; id: number; scheduledAt: string }[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :until',
        ExpressionAttributeValues: { ':pk': CAMPAIGN_DUE_PK, ':until': until },
        ProjectionExpression: 'companyId, id, scheduledAt',
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? [])
      out.push({ companyId: Number(item.companyId), id: Number(item.id), scheduledAt: String(item.scheduledAt) });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}

export const CAMPAIGN_DUE_PK = 'CAMPAIGN_DUE';
/** The due index's keys of a PROGRAMADA campaign (set by storage/campaigns.ts, removed when it starts or changes). */
export const campaignDueKeys = (companyId: number, id: number, scheduledAt: string) => ({
  gsi1pk: CAMPAIGN_DUE_PK,
  gsi1sk: `${scheduledAt}#${companyId}#${pad(id)}`,
});
