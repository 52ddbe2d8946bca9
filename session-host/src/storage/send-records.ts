/**
 * One record per send command, the memory that makes sends exactly-once across redeliveries.
 *   send   pk = C#<companyId>   sk = WASEND#<messageId>
 *          { state: sending | sent | failed, connectionId, waMessageId, timestamp?, error?, expiresAt }
 * Written `sending` (conditionally) before the provider sends, `sent` after. A redelivered command
 * that finds `sent` or `failed` re-reports the outcome without sending; one that finds `sending`
 * (a crash between the two writes) sends again with the same WhatsApp id, which WhatsApp treats as
 * the same message. Kept for 14 days (TTL): SQS retention is at most that.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionalCheckFailed, table } from '@conversa/functions/storage/db';
import { tenantPk } from '@conversa/functions/storage/table';

export type SendState = 'sending' | 'sent' | 'failed';

export interface SendRecord {
  state: SendState;
  connectionId: number;
  waMessageId: string;
  timestamp?: number;
  error?: string;
}

const RETENTION_SECONDS = 14 * 24 * 3600;
const sendKey = (companyId: number, messageId: string) => ({ pk: tenantPk(companyId), sk: `WASEND#${messageId}` });
const expiresAt = (now: number) => Math.floor(now / 1000) + RETENTION_SECONDS;

function toRecord(item: Record<string, unknown>): SendRecord {
  return {
    state: item.state as SendState,
    connectionId: Number(item.connectionId),
    waMessageId: String(item.waMessageId),
    timestamp: item.timestamp === undefined ? undefined : Number(item.timestamp),
    error: typeof item.error === 'string' ? item.error : undefined,
  };
}

/**
 * Claims the send. Returns `{ claimed: true }` when it may go to the provider (new, or a previous
 * attempt that never recorded an outcome), else the settled record whose outcome to re-report.
 */
export async function claimSend(
  companyId: number,
  messageId: string,
  input: { connectionId: number; waMessageId: string; now: number },
): Promise<{ claimed: true; attempts: number } | { claimed: false; record: SendRecord }> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: sendKey(companyId, messageId),
        UpdateExpression:
          'SET #state = :sending, connectionId = :c, waMessageId = :wa, expiresAt = :exp, claimedAt = :now ADD attempts :one',
        ConditionExpression: 'attribute_not_exists(pk) OR #state = :sending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':sending': 'sending',
          ':c': input.connectionId,
          ':wa': input.waMessageId,
          ':exp': expiresAt(input.now),
          ':now': input.now,
          ':one': 1,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true, attempts: Number(out.Attributes?.attempts ?? 1) };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const item = (error as { Item?: Record<string, unknown> }).Item;
    if (!item) throw new Error(`send record of ${messageId} refused the claim but returned no item`);
    return { claimed: false, record: toRecord(unmarshallIfNeeded(item)) };
  }
}

export async function recordSent(companyId: number, messageId: string, input: { waMessageId: string; timestamp: number }): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: sendKey(companyId, messageId),
      UpdateExpression: 'SET #state = :sent, waMessageId = :wa, #ts = :ts',
      ExpressionAttributeNames: { '#state': 'state', '#ts': 'timestamp' },
      ExpressionAttributeValues: { ':sent': 'sent', ':wa': input.waMessageId, ':ts': input.timestamp },
    }),
  );
}

/** A send that will not happen (bad number, no session for too long). Never overwrites a `sent`. */
export async function recordFailed(
  companyId: number,
  messageId: string,
  input: { connectionId: number; error: string; now: number },
): Promise<SendRecord> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: sendKey(companyId, messageId),
        UpdateExpression:
          'SET #state = :failed, #error = :e, connectionId = :c, expiresAt = :exp, waMessageId = if_not_exists(waMessageId, :none)',
        ConditionExpression: 'attribute_not_exists(#state) OR #state <> :sent',
        ExpressionAttributeNames: { '#state': 'state', '#error': 'error' },
        ExpressionAttributeValues: {
          ':failed': 'failed',
          ':sent': 'sent',
          ':e': input.error,
          ':c': input.connectionId,
          ':exp': expiresAt(input.now),
          ':none': '-',
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { state: 'failed', connectionId: input.connectionId, waMessageId: '-', error: input.error };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const item = (error as { Item?: Record<string, unknown> }).Item;
    return item ? toRecord(unmarshallIfNeeded(item)) : { state: 'sent', connectionId: input.connectionId, waMessageId: '-' };
  }
}

/** The DocumentClient leaves the item of a condition failure in the low-level attribute-value shape. */
function unmarshallIfNeeded(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const av = value as { S?: string; N?: string; BOOL?: boolean };
      if (av.S !== undefined) out[key] = av.S;
      else if (av.N !== undefined) out[key] = Number(av.N);
      else if (av.BOOL !== undefined) out[key] = av.BOOL;
      else out[key] = value;
    } else out[key] = value;
  }
  return out;
}
