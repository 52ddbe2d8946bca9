/**
 * The WhatsApp ids of a connection's messages, each mapped to our message (messages.ts).
 *
 *   link      pk = C#<cid>#W#<padded connection>#WA#<WhatsApp id>   sk = WAMSG
 *             { messageId, ticketId, botDone?, replyIds?, dispatched? }
 *             The dedupe guard of the inbound pipeline: put with attribute_not_exists in the same
 *             transaction as the message, so a replayed or duplicated event stores nothing new and
 *             a message is never stored without its guard (or the guard without the message). It
 *             is also how acks, edits and deletes (which carry WhatsApp ids) find our message, and
 *             it records the progress of the work after the store (chatbot, dispatch) so a retried
 *             event resumes instead of repeating. Per connection: WhatsApp ids are per session.
 *             Our sends get their link when queued (the WhatsApp id is derived from our id), so
 *             our own echo dedupes to the stored message whichever arrives first.
 */
import { BatchExecuteStatementCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, isConditionalCheckFailed, type TransactItem, table } from '../db.ts';
import { pad, tenantPk } from '../table.ts';

export interface WaLink {
  messageId: string;
  ticketId: number;
  /** The chatbot ran for this inbound message (its state change and replies are committed). */
  botDone?: boolean;
  /** Replies the chatbot committed; dispatched (sent + published) after the commit. */
  replyIds?: string[];
  /** Commands sent and realtime published: nothing left to resume. */
  dispatched?: boolean;
  /**
   * A campaign's message (campaigns/thread.ts): its contact's ship record, so the phone's acks
   * (read from this link anyway) reach the campaign report without another read.
   */
  campaignShip?: { campaignId: number; itemId: number };
}

export const waLinkKey = (companyId: number, connectionId: number, waId: string) => ({
  pk: `${tenantPk(companyId)}#W#${pad(connectionId)}#WA#${waId}`,
  sk: 'WAMSG',
});

export const getWaLink = (companyId: number, connectionId: number, waId: string): Promise<WaLink | undefined> =>
  getItem<WaLink>(waLinkKey(companyId, connectionId, waId).pk, 'WAMSG');

export async function updateWaLink(
  companyId: number,
  connectionId: number,
  waId: string,
  patch: Partial<WaLink>,
  condition?: string,
): Promise<boolean> {
  const entries = Object.entries(patch);
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: waLinkKey(companyId, connectionId, waId),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: condition ?? 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([key], i) => [`#f${i}`, key])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/**
 * Step 3's record on inbound messages' links (domain/inbound/dispatch-marks.ts), up to 25 in one
 * request: `dispatched`, with step 2's `botDone` and no replies when the bot committed nothing (only
 * if no other run of the event committed bot replies meanwhile). Each write is conditional (the
 * link exists: it always has a messageId; botDone unset), which BatchWriteItem cannot express,
 * and a blind Put of the whole link could undo a concurrent change of it (an echo's link moved to
 * our send by markSent). PartiQL's BatchExecuteStatement takes conditional updates, each succeeding
 * or failing alone and billed as a plain write (TransactWriteItems would bill each twice and cancel
 * all for one condition). True per mark written; false for one not written (a condition, throttled):
 * the caller writes those one by one.
 */
export async function markLinksDispatched(
  marks: { companyId: number; connectionId: number; waId: string; botRecorded: boolean }[],
): Promise<boolean[]> {
  const out = await db().send(
    new BatchExecuteStatementCommand({
      Statements: marks.map(({ companyId, connectionId, waId, botRecorded }) => {
        const { pk, sk } = waLinkKey(companyId, connectionId, waId);
        return botRecorded
          ? {
              Statement: `UPDATE "${table()}" SET dispatched = ? WHERE pk = ? AND sk = ? AND messageId IS NOT MISSING`,
              Parameters: [true, pk, sk],
            }
          : {
              Statement: `UPDATE "${table()}" SET botDone = ? SET replyIds = ? SET dispatched = ? WHERE pk = ? AND sk = ? AND messageId IS NOT MISSING AND botDone IS MISSING`,
              Parameters: [true, [], true, pk, sk],
            };
      }),
    }),
  );
  return marks.map((_, i) => Boolean(out.Responses?.[i]) && !out.Responses?.[i]?.Error);
}

/** The Update item that marks the chatbot done for an inbound message (committed with its effects). */
export function waLinkBotDone(companyId: number, connectionId: number, waId: string, replyIds: string[]): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: waLinkKey(companyId, connectionId, waId),
      UpdateExpression: 'SET botDone = :true, replyIds = :ids',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(botDone)',
      ExpressionAttributeValues: { ':true': true, ':ids': replyIds },
    },
  };
}
