/**
 * Contact and ticket ids, each from its tenant counter:
 *   contact counter  pk = C#<cid>  sk = COUNTER#CONTACT  { value, movedTo? }
 *   ticket counter   pk = C#<cid>  sk = COUNTER#TICKET   { value, contactValue? }
 * A new conversation (a new number's first message, a campaign's first send to one) needs one of
 * each: two UpdateItems, where one would do with both counters on one item (issue 24 §2).
 *
 * The shared counter carries the contact counter into the ticket counter's item (`contactValue`),
 * so a new conversation's two ids are one ADD. It is released in two steps, because the previous
 * release's code adds to COUNTER#CONTACT unconditionally while a deploy rolls out, and a contact id
 * handed out twice would fail a create:
 *   1. Code that takes a contact id from COUNTER#CONTACT only while that item is not marked
 *      `movedTo` (the ADD's condition), and from `contactValue` once it is. Nothing moves yet.
 *   2. Once no older code runs in the region, the operator deploys with the context
 *      `conversationCounter=shared` (CONVERSATION_COUNTER=shared): a company's first new
 *      conversation after that moves its counter (one transaction: the value read, on condition it
 *      has not changed since, into `contactValue`, and COUNTER#CONTACT marked), and every new
 *      conversation takes both ids in one request.
 * This code is step 1 and step 2; the local stack runs shared from the start (it has no older code).
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#commons/env';
import { db, isConditionalCheckFailed, nextId, table, transactionCancellationCodes } from '../db.ts';
import { tenantPk } from '../table.ts';

const contactCounterKey = (companyId: number) => ({ pk: tenantPk(companyId), sk: 'COUNTER#CONTACT' });
const ticketCounterKey = (companyId: number) => ({ pk: tenantPk(companyId), sk: 'COUNTER#TICKET' });

/** Companies whose contact counter this container has seen moved (it never moves back). */
const moved = new Set<number>();
const MAX_REMEMBERED = 10_000;
function remember(companyId: number): void {
  if (moved.size >= MAX_REMEMBERED) moved.clear();
  moved.add(companyId);
}

/** Attempts to move a counter that others keep adding to meanwhile. */
const MAX_MOVE_ATTEMPTS = 8;

export const newTicketId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'TICKET');

/** A contact id from the ticket counter's item, with a ticket id too when `withTicket`: one ADD. */
async function addToShared(companyId: number, withTicket: boolean): Promise<{ contactId: number; ticketId: number }> {
  const out = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: ticketCounterKey(companyId),
      UpdateExpression: withTicket ? 'ADD contactValue :one, #v :one' : 'ADD contactValue :one',
      ConditionExpression: 'attribute_exists(contactValue)',
      ...(withTicket ? { ExpressionAttributeNames: { '#v': 'value' } } : {}),
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return { contactId: Number(out.Attributes?.contactValue), ticketId: Number(out.Attributes?.value) };
}

/** A contact id: from COUNTER#CONTACT while it is not moved, else from the ticket counter's item. */
export async function newContactId(companyId: number): Promise<number> {
  if (!moved.has(companyId)) {
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: contactCounterKey(companyId),
          UpdateExpression: 'ADD #v :one',
          ConditionExpression: 'attribute_not_exists(movedTo)',
          ExpressionAttributeNames: { '#v': 'value' },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(out.Attributes?.value);
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      remember(companyId);
    }
  }
  return (await addToShared(companyId, false)).contactId;
}

/**
 * Moves the company's contact counter into the ticket counter's item, unless it is there already:
 * the value read, on condition nobody took an id since (else read again), in one transaction with
 * the mark that sends every later contact id to the new place.
 */
export async function moveContactCounter(companyId: number): Promise<void> {
  for (let attempt = 1; attempt <= MAX_MOVE_ATTEMPTS; attempt++) {
    const out = await db().send(new GetCommand({ TableName: table(), Key: contactCounterKey(companyId), ConsistentRead: true }));
    if (out.Item?.movedTo) return remember(companyId);
    const value = out.Item?.value === undefined ? undefined : Number(out.Item.value);
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table(),
                Key: contactCounterKey(companyId),
                UpdateExpression: 'SET movedTo = :to',
                ConditionExpression: `attribute_not_exists(movedTo) AND ${value === undefined ? 'attribute_not_exists(#v)' : '#v = :value'}`,
                ExpressionAttributeNames: { '#v': 'value' },
                ExpressionAttributeValues: { ':to': 'COUNTER#TICKET', ...(value === undefined ? {} : { ':value': value }) },
              },
            },
            {
              Update: {
                TableName: table(),
                Key: ticketCounterKey(companyId),
                UpdateExpression: 'SET contactValue = :value',
                ConditionExpression: 'attribute_not_exists(contactValue)',
                ExpressionAttributeValues: { ':value': value ?? 0 },
              },
            },
          ],
        }),
      );
      return remember(companyId);
    } catch (error) {
      // An id taken meanwhile, another mover, or a conflict with either: read again.
      if (!transactionCancellationCodes(error)) throw error;
    }
  }
  throw new Error(`Could not move the contact counter of company ${companyId}`);
}

/**
 * A new contact's id and its first ticket's: one request with the shared counter (moving the
 * company's on its first use), two side by side without.
 */
export async function newConversationIds(companyId: number): Promise<{ contactId: number; ticketId: number }> {
  if (env.conversationCounter !== 'shared') {
    const [contactId, ticketId] = await Promise.all([newContactId(companyId), newTicketId(companyId)]);
    return { contactId, ticketId };
  }
  try {
    return await addToShared(companyId, true);
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
  await moveContactCounter(companyId);
  return addToShared(companyId, true);
}
