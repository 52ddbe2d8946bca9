/**
 * A sweep's state change, committed only if the ticket is still the one the sweep judged: same
 * `revision` (no routing change: P's ticketStateUpdate condition) AND same `updatedAt`. The second
 * condition matters because message activity (storage/messages/messages.ts ticketActivity) moves updatedAt
 * without bumping the revision: a contact writing between our read and our write makes the ticket
 * no longer idle, and the sweep must then leave it alone. Two runs at once: one commits, the other
 * fails the condition and does nothing, so nothing it would have written (a message) exists twice.
 * The writes are those of tickets/tickets.ts ticketStateUpdate + slotTransition, and the rule's `extra`
 * (history, the goodbye message) in the same transaction.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, type TransactItem, transactionCancellationCodes } from '../db.ts';
import type { TicketRecord, TicketStatePatch } from '../tickets/record.ts';
import { slotTransition, stateCounterItems, ticketStateUpdate } from '../tickets/tickets.ts';

/** The new ticket, or undefined when it changed since it was read (nothing written). */
export async function commitIfUnchanged(
  ticket: TicketRecord,
  patch: TicketStatePatch,
  extra: TransactItem[],
  now: Date,
): Promise<TicketRecord | undefined> {
  const { item, next } = await ticketStateUpdate(ticket, patch, now.toISOString());
  const update = item.Update as NonNullable<TransactItem['Update']>;
  update.ConditionExpression = `(${update.ConditionExpression}) AND #sweepSeenAt = :sweepSeenAt`;
  update.ExpressionAttributeNames = { ...update.ExpressionAttributeNames, '#sweepSeenAt': 'updatedAt' };
  update.ExpressionAttributeValues = { ...update.ExpressionAttributeValues, ':sweepSeenAt': ticket.updatedAt };
  try {
    const counters = await stateCounterItems(ticket, next);
    await db().send(new TransactWriteCommand({ TransactItems: [item, ...slotTransition(ticket, next), ...extra, ...counters] }));
    return next;
  } catch (error) {
    if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return undefined;
    throw error;
  }
}
