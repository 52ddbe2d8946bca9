/**
 * The campaign engine's run records (storage/campaigns/shipping.ts "run"): a campaign's walk of its
 * audience and the report's counters.
 */
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, stripKeys, table } from '../db.ts';
import { emptyCounters, type RunRecord, runKey, withNames } from './shipping.ts';

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
