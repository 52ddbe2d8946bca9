/**
 * A unique value (a company or plan name, a user's email, a connection's token, a queue's colour)
 * is enforced by a guard item keyed by that value, written in the same transaction as the record:
 * two concurrent writes of one value cannot both succeed, and the guard doubles as a strongly
 * consistent value -> record lookup. This module owns the mechanics of creating a record with its
 * guards and of moving a guard when its value changes; entities own the keys and the error codes.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  db,
  type IdClaim,
  IdClaimLost,
  isConditionalCheckFailed,
  stripKeys,
  type TransactItem,
  table,
  transactionCancellationCodes,
  updateExpression,
} from './db.ts';
import { type LimitClaim, LimitClaimLost, limitClaimItem } from './plans/limits.ts';

type Key = { pk: string; sk: string };

export interface UniqueGuard<T> {
  /** The record's attribute that must be unique. */
  field: keyof T & string;
  /** The guard's key for a value, or undefined when that value needs no guard (an empty token). */
  keyOf: (value: string) => Key | undefined;
  /** The rest of the guard item: its entity and the ids it points back to. */
  item: Record<string, unknown>;
  /** The error for a value another record holds already. */
  conflict: () => Error;
}

const sameKey = (a: Key | undefined, b: Key | undefined) => a?.pk === b?.pk && a?.sk === b?.sk;
const guardPut = (key: Key, item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: table(), Item: { ...key, ...item }, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Sends the transaction; a guard Put that failed its condition becomes that guard's conflict error. */
async function sendGuarded(items: TransactItem[], conflicts: Map<number, () => Error>, notFound?: () => Error): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    for (const [index, conflict] of conflicts) if (codes?.[index] === 'ConditionalCheckFailed') throw conflict();
    if (notFound && codes?.[0] === 'ConditionalCheckFailed') throw notFound();
    throw error;
  }
}

/**
 * Puts a new record (`item` holds its keys) and a guard for each guarded value it has; with a plan
 * limit's claim, only if no other create of its kind committed since the count (plans/limits.ts);
 * with an id's claim (db.ts readNextId), taking that id in the same transaction.
 */
export async function putGuarded<T>(input: {
  item: T & Key;
  guards: UniqueGuard<NoInfer<T>>[];
  claim?: LimitClaim;
  idClaim?: IdClaim;
}): Promise<void> {
  const items: TransactItem[] = [{ Put: { TableName: table(), Item: input.item, ConditionExpression: 'attribute_not_exists(pk)' } }];
  const conflicts = new Map<number, () => Error>();
  for (const guard of input.guards) {
    const key = guard.keyOf(input.item[guard.field] as string);
    if (!key) continue;
    conflicts.set(items.length, guard.conflict);
    items.push(guardPut(key, guard.item));
  }
  if (input.claim) {
    conflicts.set(items.length, () => new LimitClaimLost());
    items.push(limitClaimItem(input.claim));
  }
  if (input.idClaim) {
    conflicts.set(items.length, () => new IdClaimLost());
    items.push(input.idClaim.item);
  }
  await sendGuarded(items, conflicts);
}

/**
 * Partial update of an existing record. When a guarded value moves, one transaction updates the
 * record on condition that the old value is still the stored one, deletes the old guard and puts
 * the new one; the answer is `current` with `changes` applied. Otherwise it is a plain conditional
 * update answering the stored record, unless `pinGuardedValues` is 'always': then the record is
 * updated in the same pinned transaction (a concurrent change of a guarded value fails it as not found).
 */
export async function updateGuarded<T extends object>(input: {
  key: Key;
  current: T;
  changes: Partial<T>;
  guards: UniqueGuard<T>[];
  notFound: () => Error;
  pinGuardedValues?: 'always' | 'whenMoved';
}): Promise<T> {
  const { key, current, changes, guards, notFound } = input;
  const update = updateExpression(changes);
  const guardedValue = (record: Partial<T>, guard: UniqueGuard<T>) => record[guard.field] as string | undefined;
  const moved = guards.filter((guard) => {
    const next = guardedValue(changes, guard);
    return next !== undefined && !sameKey(guard.keyOf(next), guard.keyOf(guardedValue(current, guard) as string));
  });

  if (!moved.length && input.pinGuardedValues !== 'always') {
    // A guarded value re-sent unchanged (a full-form PUT) must not undo a rename made meanwhile,
    // which would leave the record out of step with its guard: pin what we read.
    const resent = guards.filter((guard) => guardedValue(changes, guard) !== undefined);
    const names = { ...update.ExpressionAttributeNames };
    const values = { ...update.ExpressionAttributeValues };
    const conditions = ['attribute_exists(pk)'];
    resent.forEach((guard, i) => {
      names[`#resent${i}`] = guard.field;
      values[`:resent${i}`] = current[guard.field];
      conditions.push(`#resent${i} = :resent${i}`);
    });
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: key,
          ...update,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<T>(out.Attributes ?? {});
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw notFound();
      throw error;
    }
  }

  // The values whose guards we move (or all of them, when pinned always) must still be the stored ones.
  const pinned = moved.length ? moved : guards;
  const names = { ...update.ExpressionAttributeNames };
  const values = { ...update.ExpressionAttributeValues };
  const conditions = ['attribute_exists(pk)'];
  pinned.forEach((guard, i) => {
    names[`#pinned${i}`] = guard.field;
    values[`:pinned${i}`] = current[guard.field];
    conditions.push(`#pinned${i} = :pinned${i}`);
  });
  const items: TransactItem[] = [
    {
      Update: {
        TableName: table(),
        Key: key,
        ...update,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  const conflicts = new Map<number, () => Error>();
  for (const guard of moved) {
    const oldKey = guard.keyOf(guardedValue(current, guard) as string);
    const newKey = guard.keyOf(guardedValue(changes, guard) as string);
    if (oldKey) items.push({ Delete: { TableName: table(), Key: oldKey } });
    if (!newKey) continue;
    conflicts.set(items.length, guard.conflict);
    items.push(guardPut(newKey, guard.item));
  }
  await sendGuarded(items, conflicts, notFound);
  return { ...current, ...(Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>) };
}
