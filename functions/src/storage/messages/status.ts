/**
 * What happens to a stored message afterwards (keys and the store itself in messages/messages.ts): acks
 * that only ever raise it, edits and deletes (their words move in the search index, messages/words.ts),
 * and the outcome of our own sends: sent (linked to its WhatsApp id, absorbing an echo that was
 * stored first), failed, or reopened for another attempt. Every change is a conditional Update, so
 * late and duplicated reports (acks out of order, an earlier attempt's failure) change nothing.
 */
import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageOrigin } from '#contracts/messages';
import { waMessageIdFor } from '#contracts/wa-message-id';
import { db, isConditionalCheckFailed, stripKeys, table } from '../db.ts';
import { ticketKey } from '../tickets/tickets.ts';
import { getMessage, lookupKey, type MessageRecord, messageKey } from './messages.ts';
import { getWaLink, waLinkKey } from './wa-links.ts';
import { deleteIndexedMessage, editIndexedMessage } from './words.ts';

/** Applies `set` to a message when `condition` holds; the new message, or undefined if it did not. */
async function updateMessage(
  companyId: number,
  ticketId: number,
  id: string,
  set: Record<string, unknown>,
  condition = 'attribute_exists(pk)',
  extraValues: Record<string, unknown> = {},
): Promise<MessageRecord | undefined> {
  const entries = Object.entries({ ...set, updatedAt: new Date().toISOString() });
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: messageKey(companyId, ticketId, id),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: {
          ...Object.fromEntries(entries.map(([key], i) => [`#f${i}`, key])),
          ...(condition.includes('#ack') ? { '#ack': 'ack' } : {}),
          ...(condition.includes('#error') ? { '#error': 'error' } : {}),
        },
        ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])), ...extraValues },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<MessageRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/** Raises the ack; never lowers it (acks arrive out of order). Undefined when nothing changed. */
export const raiseAck = (companyId: number, ticketId: number, id: string, ack: number) =>
  updateMessage(companyId, ticketId, id, { ack, pending: false }, 'attribute_exists(pk) AND #ack < :ackValue', { ':ackValue': ack });

/**
 * Where our message came from (Message.origin), set once: a campaign's send whose echo the phone
 * reported first was stored as a plain message of ours. Undefined when missing or already marked.
 */
export const markOrigin = (companyId: number, ticketId: number, id: string, origin: MessageOrigin) =>
  updateMessage(companyId, ticketId, id, { origin }, 'attribute_exists(pk) AND attribute_not_exists(origin)');

/**
 * The WhatsApp link of a campaign's message names its ship record (WaLink.campaignShip), for a link
 * that the phone's echo stored before the campaign's result arrived. Unchanged when missing.
 */
export async function linkCampaignShip(
  companyId: number,
  connectionId: number,
  waId: string,
  campaignShip: { campaignId: number; itemId: number },
): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: waLinkKey(companyId, connectionId, waId),
        UpdateExpression: 'SET campaignShip = :ship',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':ship': campaignShip },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * Marked deleted, its words out of the search index (messages/words.ts), and when it is the ticket's
 * last message the lists' preview loses its text too (lastMessageDeleted). Undefined if missing or
 * already deleted.
 */
export async function markDeleted(companyId: number, ticketId: number, id: string): Promise<MessageRecord | undefined> {
  const deleted = await deleteIndexedMessage<MessageRecord>(companyId, ticketId, id);
  if (deleted) await clearDeletedPreview(companyId, ticketId, Date.parse(deleted.createdAt));
  return deleted;
}

/**
 * The ticket's copy of its last message goes when that message is deleted. Conditional on the
 * preview still being that message's (lastMessageAt), so a newer message's preview stays; a newer
 * message stored after this write clears the flag (messages/messages.ts ticketActivity).
 */
async function clearDeletedPreview(companyId: number, ticketId: number, at: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: ticketKey(companyId, ticketId),
        UpdateExpression: 'SET lastMessage = :empty, lastMessageDeleted = :deleted',
        ConditionExpression: 'attribute_exists(pk) AND lastMessageAt = :at',
        ExpressionAttributeValues: { ':empty': '', ':deleted': true, ':at': at },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** An edited body; the search index drops the old body's words and takes the new one's (messages/words.ts). */
export const editBody = (companyId: number, ticketId: number, id: string, body: string) =>
  editIndexedMessage<MessageRecord>(companyId, ticketId, id, body);

/** The WhatsApp link of our sent message: nothing left to do for it (no chatbot turn, no dispatch). */
const sentLink = (companyId: number, connectionId: number, waId: string, messageId: string, ticketId: number) => ({
  ...waLinkKey(companyId, connectionId, waId),
  entity: 'waLink',
  messageId,
  ticketId,
  botDone: true,
  dispatched: true,
});

/** Our pending message got its WhatsApp id: ack 1 (or higher if an ack raced ahead), error cleared. */
export async function markSent(
  companyId: number,
  connectionId: number,
  ticketId: number,
  id: string,
  waId: string,
): Promise<MessageRecord | undefined> {
  // Link the WhatsApp id unless it is linked already (to us when queued; to an echo stored first).
  // One conditional Put (a one-item transaction would cost twice the write units). Sent under the
  // id derived from ours, as the session-host sends, it is ours already: messages/messages.ts wrote that
  // link (done, dispatched) in the message's own transaction, and no echo can have taken it, so
  // writing it again would cost a write unit for the same item.
  if (waId !== waMessageIdFor(companyId, connectionId, id)) {
    try {
      await db().send(
        new PutCommand({
          TableName: table(),
          Item: sentLink(companyId, connectionId, waId, id, ticketId),
          ConditionExpression: 'attribute_not_exists(pk) OR messageId = :id',
          ExpressionAttributeValues: { ':id': id },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      await absorbEcho(companyId, connectionId, ticketId, id, waId);
    }
  }
  const raised = await updateMessage(
    companyId,
    ticketId,
    id,
    { waId, ack: 1, pending: false, error: null },
    'attribute_exists(pk) AND #ack < :one',
    {
      ':one': 1,
    },
  );
  return raised ?? updateMessage(companyId, ticketId, id, { waId, pending: false, error: null });
}

/**
 * The echo of our send was stored as a message of its own before we learnt its WhatsApp id: the
 * link moves to our message and the echo copy goes, in one transaction, so one message remains.
 */
async function absorbEcho(companyId: number, connectionId: number, ticketId: number, id: string, waId: string): Promise<void> {
  const link = await getWaLink(companyId, connectionId, waId);
  if (!link || link.messageId === id) return;
  const echo = await getMessage(companyId, link.ticketId, link.messageId);
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: table(),
            Item: sentLink(companyId, connectionId, waId, id, ticketId),
            ConditionExpression: 'messageId = :echo',
            ExpressionAttributeValues: { ':echo': link.messageId },
          },
        },
        ...(echo?.fromMe
          ? [
              { Delete: { TableName: table(), Key: messageKey(companyId, link.ticketId, link.messageId) } },
              { Delete: { TableName: table(), Key: lookupKey(companyId, link.messageId) } },
            ]
          : []),
      ],
    }),
  );
}

/**
 * The message is still on send attempt `attempt` (0: the first send; a retry of a failed send is the
 * next attempt, `sendAttempt`): a late report of an earlier attempt changes nothing.
 */
const onAttempt = (attempt: number) =>
  attempt
    ? { condition: 'sendAttempt = :attempt', values: { ':attempt': attempt } }
    : { condition: 'attribute_not_exists(sendAttempt)', values: {} };

/** Our send failed: the message keeps its place, marked with the error (unless it went out after all). */
export const markFailed = (companyId: number, ticketId: number, id: string, error: string, attempt = 0) => {
  const current = onAttempt(attempt);
  return updateMessage(
    companyId,
    ticketId,
    id,
    { error, pending: false },
    `attribute_exists(pk) AND #ack < :one AND ${current.condition}`,
    {
      ':one': 1,
      ...current.values,
    },
  );
};

/**
 * A failed send goes again as attempt `attempt`: pending, its error cleared. Only from the failed
 * state of the attempt before, so two retries at once send once (the loser gets undefined).
 */
export const reopenFailedSend = (companyId: number, ticketId: number, id: string, attempt: number) => {
  const previous = onAttempt(attempt - 1);
  return updateMessage(
    companyId,
    ticketId,
    id,
    { error: null, pending: true, sendAttempt: attempt },
    `attribute_exists(pk) AND #ack < :one AND attribute_type(#error, :string) AND isDeleted = :no AND ${previous.condition}`,
    { ':one': 1, ':string': 'S', ':no': false, ...previous.values },
  );
};
