/**
 * Scheduled messages (SPEC 4 "Schedule (message)").
 *
 *   schedule  pk = C#<cid>   sk = SCHED#<padded id>   { id, body, contactId, contact, sendAt, status, ... }
 *             -> one Query reads the tenant's schedules (the calendar shows them all); kept in the
 *                tenant partition so a deleted company takes its schedules with it
 *   due       gsi1pk = SCHEDULE_DUE#<shard>   gsi1sk = <dueAt ISO>#<cid>#<padded id>
 *             -> present only while the schedule waits to be sent (PENDENTE, or AGENDADA whose
 *                sender may have died): the sender reads `gsi1sk <= now` of each shard and nothing
 *                else, however long the system was down. A platform-wide index like WSCONN: the
 *                sender serves every tenant. Four shards keep one hot partition from taking every write.
 *
 * `contact` is a copy of the contact's name and number for the calendar and the search; the API
 * refreshes it from the contact when it answers (storage stays a copy, the contact is the truth).
 *
 * The claim (BEHAVIOUR "Scheduled messages": exactly once): the sender moves the due key forward
 * to the end of its lease in the same conditional write that sets AGENDADA, conditioned on the due
 * key it read. Two runs that read the same schedule race on that write and one wins; a sender that
 * dies mid-send leaves an AGENDADA schedule that becomes due again when its lease ends, and the next
 * run re-sends with the same message id (`messageId`, fixed by the first claim), which the outbound
 * path stores once and the session-host sends once.
 */
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import type { ScheduleStatus } from '#contracts/schedule-requests';
import {
  db,
  getItem,
  isConditionalCheckFailed,
  nextId,
  queryAll,
  stripKeys,
  table,
  transactionCancellationCodes,
  updateExpression,
} from './db.ts';
import { type LimitClaim, LimitClaimLost, limitClaimItem, putCountedRecord } from './plans/limits.ts';
import { pad, tenantPk } from './table.ts';

export const DUE_SHARDS = 4;

export interface ScheduleContactCopy {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
}

export interface ScheduleRecord {
  id: number;
  companyId: number;
  body: string;
  contactId: number;
  contact: ScheduleContactCopy | null;
  /** The conversation it was scheduled from (its connection sends it), or null. */
  ticketId: number | null;
  /** The connection that sends it, when known at creation (the ticket's). */
  whatsappId: number | null;
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatus;
  error: string | null;
  /** Bucket key, '' without media. */
  mediaPath: string;
  mediaName: string;
  mediaType: string;
  userId: number;
  /** Our message's id, fixed by the first claim so a re-send never makes a second message. */
  messageId?: string | null;
  /** When the sender first found the connection not ready (it waits a while before ERRO). */
  waitingSince?: string | null;
  createdAt: string;
  updatedAt: string;
}

export type SchedulePatch = Partial<
  Pick<
    ScheduleRecord,
    'body' | 'contactId' | 'contact' | 'ticketId' | 'whatsappId' | 'sendAt' | 'status' | 'error' | 'mediaPath' | 'mediaName' | 'mediaType'
  >
>;

const SK_PREFIX = 'SCHED#';
const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `${SK_PREFIX}${pad(id)}` });

export const dueShard = (companyId: number, id: number): number => (companyId * 7 + id) % DUE_SHARDS;
export const duePartition = (shard: number): string => `SCHEDULE_DUE#${shard}`;
export const dueSortKey = (dueAt: string, companyId: number, id: number): string => `${dueAt}#${pad(companyId)}#${pad(id)}`;
const dueKeys = (companyId: number, id: number, dueAt: string) => ({
  gsi1pk: duePartition(dueShard(companyId, id)),
  gsi1sk: dueSortKey(dueAt, companyId, id),
});

/** A schedule waiting in the due index, with the due key it was read at (the claim's condition). */
export interface DueSchedule {
  record: ScheduleRecord;
  dueKey: string;
}

export const newScheduleId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'SCHEDULE');

export const getSchedule = (companyId: number, id: number): Promise<ScheduleRecord | undefined> =>
  getItem<ScheduleRecord>(key(companyId, id).pk, key(companyId, id).sk);

export const listSchedules = (companyId: number): Promise<ScheduleRecord[]> =>
  queryAll<ScheduleRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': SK_PREFIX },
  });

/** Puts a new schedule; with a plan limit's claim, only if no other create committed since the count. */
export async function createSchedule(record: ScheduleRecord, claim?: LimitClaim): Promise<ScheduleRecord> {
  const put = {
    TableName: table(),
    Item: { ...key(record.companyId, record.id), ...dueKeys(record.companyId, record.id, record.sendAt), entity: 'schedule', ...record },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
  await putCountedRecord(put, claim);
  return record;
}

const notEditable = () => new ConflictError('ERR_SCHEDULE_NOT_EDITABLE');

/**
 * An edit by a person. Only while nobody is sending it (PENDENTE) or after it failed (ERRO): the
 * edit makes it PENDENTE again, due at its (new) send time, with a fresh message id. An edit that
 * brings a failed schedule back counts against the plan's limit: it carries that limit's claim.
 */
export async function updateSchedule(
  companyId: number,
  id: number,
  patch: SchedulePatch,
  sendAt: string,
  claim?: LimitClaim,
): Promise<ScheduleRecord> {
  const set = updateExpression({
    ...patch,
    status: 'PENDENTE',
    error: null,
    ...dueKeys(companyId, id, sendAt),
    updatedAt: new Date().toISOString(),
  });
  const update = {
    TableName: table(),
    Key: key(companyId, id),
    UpdateExpression: `${set.UpdateExpression} REMOVE messageId, waitingSince`,
    ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
    ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':pending': 'PENDENTE', ':failed': 'ERRO' },
    ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :failed)',
  };
  try {
    if (!claim) {
      const out = await db().send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return stripKeys<ScheduleRecord>(out.Attributes ?? {});
    }
    await db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, limitClaimItem(claim)] }));
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    const refused = isConditionalCheckFailed(error) || codes?.[0] === 'ConditionalCheckFailed';
    if (!refused && codes?.[1] === 'ConditionalCheckFailed') throw new LimitClaimLost();
    if (!refused) throw error;
    if (!(await getSchedule(companyId, id))) throw new NotFoundError('ERR_NOT_FOUND');
    throw notEditable();
  }
  // A transaction returns no item: read it back (gone only if a delete came right after).
  const updated = await getSchedule(companyId, id);
  if (!updated) throw new NotFoundError('ERR_NOT_FOUND');
  return updated;
}

/** Media changes: the same rule as an edit, without moving the send time or the status. */
export async function updateScheduleMedia(
  companyId: number,
  id: number,
  patch: Pick<ScheduleRecord, 'mediaPath' | 'mediaName' | 'mediaType'>,
): Promise<ScheduleRecord> {
  const set = updateExpression({ ...patch, updatedAt: new Date().toISOString() });
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        ...set,
        ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':pending': 'PENDENTE', ':failed': 'ERRO' },
        ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :failed)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ScheduleRecord>(out.Attributes ?? {});
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    if (!(await getSchedule(companyId, id))) throw new NotFoundError('ERR_NOT_FOUND');
    throw notEditable();
  }
}

export async function deleteSchedule(companyId: number, id: number): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: key(companyId, id) }));
}

/** Upper bound for "due at or before `until`": every key of that instant sorts below `<until>$`. */
const upTo = (until: string) => `${until}$`;

/** One page of a shard's due schedules, oldest first. */
export async function dueSchedulesPage(
  shard: number,
  until: string,
  opts: { limit: number; cursor?: Record<string, unknown> },
): Promise<{ due: DueSchedule[]; cursor?: Record<string, unknown> }> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :to',
      ExpressionAttributeValues: { ':pk': duePartition(shard), ':to': upTo(until) },
      ScanIndexForward: true,
      Limit: opts.limit,
      ExclusiveStartKey: opts.cursor,
    }),
  );
  return {
    due: (out.Items ?? []).map((item) => ({ record: stripKeys<ScheduleRecord>(item), dueKey: String(item.gsi1sk) })),
    cursor: out.LastEvaluatedKey,
  };
}

/**
 * Takes a due schedule for sending: AGENDADA, due again only at `leaseUntil`, its message id fixed
 * (the first claim's, or `messageId`). Undefined when another run took it first, or a person
 * changed or deleted it since it was read.
 */
export async function claimSchedule(due: DueSchedule, leaseUntil: string, messageId: string): Promise<ScheduleRecord | undefined> {
  const { companyId, id } = due.record;
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: 'SET #status = :claimed, gsi1sk = :lease, messageId = if_not_exists(messageId, :mid), updatedAt = :now',
        ConditionExpression: 'gsi1sk = :seen AND #status IN (:pending, :claimed)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':claimed': 'AGENDADA',
          ':pending': 'PENDENTE',
          ':lease': dueSortKey(leaseUntil, companyId, id),
          ':seen': due.dueKey,
          ':mid': messageId,
          ':now': new Date().toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ScheduleRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

type Settled = { status: 'ENVIADA'; sentAt: string; ticketId: number; whatsappId: number } | { status: 'ERRO'; error: string };

/**
 * Ends a claim: ENVIADA with sentAt, or ERRO with the reason; out of the due index either way.
 * Only the claim holding `messageId` may (a person's edit since then started a new one). False when
 * the claim was lost.
 */
export async function settleSchedule(record: ScheduleRecord, messageId: string, outcome: Settled): Promise<ScheduleRecord | undefined> {
  const fields: Record<string, unknown> =
    outcome.status === 'ENVIADA'
      ? { status: 'ENVIADA', sentAt: outcome.sentAt, ticketId: outcome.ticketId, whatsappId: outcome.whatsappId, error: null }
      : { status: 'ERRO', error: outcome.error };
  const set = updateExpression({ ...fields, updatedAt: new Date().toISOString() });
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(record.companyId, record.id),
        UpdateExpression: `${set.UpdateExpression} REMOVE gsi1pk, gsi1sk, waitingSince`,
        ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':claimed': 'AGENDADA', ':mid': messageId },
        ConditionExpression: '#status = :claimed AND messageId = :mid',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ScheduleRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/**
 * The connection is not ready yet: back to PENDENTE, due again at `retryAt`, remembering since when
 * it waits. Nothing was stored or sent, so the message id goes too.
 */
export async function deferSchedule(record: ScheduleRecord, messageId: string, retryAt: string, waitingSince: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(record.companyId, record.id),
        UpdateExpression: 'SET #status = :pending, gsi1sk = :due, waitingSince = :since, updatedAt = :now REMOVE messageId',
        ConditionExpression: '#status = :claimed AND messageId = :mid',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'PENDENTE',
          ':claimed': 'AGENDADA',
          ':due': dueSortKey(retryAt, record.companyId, record.id),
          ':since': waitingSince,
          ':mid': messageId,
          ':now': new Date().toISOString(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/**
 * Which schedule a message was sent for, so a send the phone later reports failed turns that
 * schedule ERRO:
 *   link  pk = C#<cid>   sk = SCHEDMSG#<message id>   { scheduleId }
 * Written before the send is queued (a re-run writes the same item); expires with the table's TTL
 * once no failure can come any more.
 */
const LINK_PREFIX = 'SCHEDMSG#';
const LINK_TTL_SECONDS = 7 * 24 * 3600;
const linkKey = (companyId: number, messageId: string) => ({ pk: tenantPk(companyId), sk: `${LINK_PREFIX}${messageId}` });

export async function linkScheduleMessage(companyId: number, scheduleId: number, messageId: string): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...linkKey(companyId, messageId),
        entity: 'scheduleMessage',
        scheduleId,
        expiresAt: Math.floor(Date.now() / 1000) + LINK_TTL_SECONDS,
      },
    }),
  );
}

export async function scheduleOfMessage(companyId: number, messageId: string): Promise<number | undefined> {
  const { pk, sk } = linkKey(companyId, messageId);
  return (await getItem<{ scheduleId: number }>(pk, sk))?.scheduleId;
}

/**
 * The send of `messageId` failed after the schedule handed it over: ERRO with the reason and no
 * sentAt (so a person can edit it and schedule it again). Only the send of that claim counts (an
 * edit since then started another). Undefined when it no longer applies.
 */
export async function failSentSchedule(
  companyId: number,
  id: number,
  messageId: string,
  error: string,
): Promise<ScheduleRecord | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        UpdateExpression: 'SET #status = :failed, #error = :error, sentAt = :null, updatedAt = :now REMOVE gsi1pk, gsi1sk, waitingSince',
        ConditionExpression: 'messageId = :mid AND #status IN (:claimed, :sent)',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: {
          ':failed': 'ERRO',
          ':error': error,
          ':null': null,
          ':now': new Date().toISOString(),
          ':mid': messageId,
          ':claimed': 'AGENDADA',
          ':sent': 'ENVIADA',
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ScheduleRecord>(out.Attributes ?? {});
  } catch (caught) {
    if (isConditionalCheckFailed(caught)) return undefined;
    throw caught;
  }
}
