/**
 * What automatic assignment (issue 22 §2, domain/tickets/auto-assign.ts) reads and guards:
 *
 *   seats          pk = C#<cid>#SEATS#<padded userId>   sk = SEATS   { open: NS of ticket ids }
 *                  the tickets an attendant holds open right now (open, with them, not awaiting its
 *                  rating). Kept by EVERY ticket write in the same transaction as the change
 *                  (createTicket, updateTicketState, the chatbot turn, the sweeps' commit, the
 *                  delete), so it never lags the tickets. A set and not a number: adding a ticket
 *                  twice or removing one that was never counted (a ticket opened before this
 *                  existed) changes nothing, so it cannot drift. The router's take is conditional
 *                  on `size(open) < maxOpenTickets` in the transaction that opens the ticket for the
 *                  attendant: two routers racing for the last seat cannot both win.
 *   waiting line   pk = C#<cid>#WAITQ#<padded queueId>  sk = <queuedAt ISO>#<padded ticketId>  { ticketId }
 *                  the queue's tickets waiting for an attendant (pending, in the queue, nobody on
 *                  it, no chatbot or prompt holding it), oldest first: "the oldest waiting ticket"
 *                  is one Query of Limit n, however long the queue's Pending list. Kept by the same
 *                  writes as the seats.
 *   cursor         pk = C#<cid>#WAITQ#<padded queueId>  sk = CURSOR   { turns }
 *                  round robin's turn counter of the queue ('CURSOR' sorts after every ISO time,
 *                  so the line's Query stops before it). It only says whose turn is next, never a
 *                  capacity: a turn taken by a router that then fails is simply skipped.
 *   drain lease    pk = C#<cid>#WAITQ#<padded queueId>  sk = DRAIN    { owner?, until?, requests }
 *                  who gives out the queue's line right now ('DRAIN' sorts after 'CURSOR': out of
 *                  the line's Query too). Every trigger first counts itself (`ADD requests`, one
 *                  write); it owns the drain only when nobody holds the lease (or its `until` passed,
 *                  a router that died), else it returns at once and the owner serves its ticket: the
 *                  owner leaves only by a write conditional on `requests` unchanged since its last
 *                  pass began, so a trigger counted after that pass's reads makes it pass again. One
 *                  router reads the line at a time instead of every trigger racing for its head.
 */
import { BatchGetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionalCheckFailed, type TransactItem, table } from '../db.ts';
import { pad, tenantPk } from '../table.ts';

/** What the routing items read of a ticket (a TicketRecord fits). */
export interface RoutedTicket {
  companyId: number;
  id: number;
  status: 'open' | 'pending' | 'closed';
  userId: number | null;
  queueId: number | null;
  chatbot: boolean;
  useIntegration: boolean;
  awaitingRating: boolean;
  queuedAt?: string | null;
  updatedAt: string;
}

export const seatsKey = (companyId: number, userId: number) => ({ pk: `${tenantPk(companyId)}#SEATS#${pad(userId)}`, sk: 'SEATS' });
const linePk = (companyId: number, queueId: number) => `${tenantPk(companyId)}#WAITQ#${pad(queueId)}`;
const CURSOR_SK = 'CURSOR';
const DRAIN_SK = 'DRAIN';

/** The ticket takes one of its attendant's seats. */
export const holdsSeat = (t: RoutedTicket | undefined): t is RoutedTicket & { userId: number } =>
  t !== undefined && t.status === 'open' && t.userId !== null && !t.awaitingRating;

/** The ticket waits in its queue for an attendant (no bot or prompt talking to the contact). */
export const waitsInLine = (t: RoutedTicket | undefined): t is RoutedTicket & { queueId: number } =>
  t !== undefined && t.status === 'pending' && t.queueId !== null && t.userId === null && !t.chatbot && !t.useIntegration;

const lineSk = (t: RoutedTicket) => `${t.queuedAt ?? t.updatedAt}#${pad(t.id)}`;

export class SeatTakenError extends Error {
  constructor() {
    super("The attendant's last seat was taken");
    this.name = 'SeatTakenError';
  }
}

/** Marks the transaction item that fails with SeatTakenError (updateTicketState reads it back). */
export const SEAT_CONDITION = 'attribute_not_exists(#open) OR size(#open) < :max';

/**
 * The seat and line writes of one ticket change from `before` (undefined = created) to `next`
 * (undefined = deleted). `seatLimit`: the router's take, conditional on the attendant's free seats.
 */
export function routingItems(before: RoutedTicket | undefined, next: RoutedTicket | undefined, seatLimit?: number): TransactItem[] {
  const items: TransactItem[] = [];
  const ticket = (next ?? before) as RoutedTicket;
  const { companyId, id } = ticket;
  const leaves = holdsSeat(before) && (!holdsSeat(next) || next.userId !== before.userId);
  const takes = holdsSeat(next) && (!holdsSeat(before) || before.userId !== next.userId);
  if (leaves)
    items.push({
      Update: {
        TableName: table(),
        Key: seatsKey(companyId, before.userId),
        UpdateExpression: 'DELETE #open :id',
        ExpressionAttributeNames: { '#open': 'open' },
        ExpressionAttributeValues: { ':id': new Set([id]) },
      },
    });
  if (takes) {
    const limited = seatLimit !== undefined && seatLimit > 0;
    items.push({
      Update: {
        TableName: table(),
        Key: seatsKey(companyId, next.userId),
        UpdateExpression: 'SET entity = :entity ADD #open :id',
        ExpressionAttributeNames: { '#open': 'open' },
        ExpressionAttributeValues: { ':id': new Set([id]), ':entity': 'seats', ...(limited ? { ':max': seatLimit } : {}) },
        ...(limited ? { ConditionExpression: SEAT_CONDITION } : {}),
      },
    });
  }
  const wasIn = waitsInLine(before) ? { pk: linePk(companyId, before.queueId), sk: lineSk(before) } : undefined;
  const isIn = waitsInLine(next) ? { pk: linePk(companyId, next.queueId), sk: lineSk(next) } : undefined;
  if (wasIn && !(isIn && isIn.pk === wasIn.pk && isIn.sk === wasIn.sk)) items.push({ Delete: { TableName: table(), Key: wasIn } });
  if (isIn && !(wasIn && isIn.pk === wasIn.pk && isIn.sk === wasIn.sk))
    items.push({ Put: { TableName: table(), Item: { ...isIn, entity: 'waitingTicket', ticketId: id } } });
  return items;
}

/** How many tickets each user holds open now (absent = 0). One BatchGet per 100 users. */
export async function readSeats(companyId: number, userIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(userIds.map((userId) => [userId, 0]));
  for (let i = 0; i < userIds.length; i += 100) {
    let keys: Record<string, unknown>[] = userIds.slice(i, i + 100).map((userId) => seatsKey(companyId, userId));
    for (let round = 0; keys.length && round < 8; round++) {
      if (round) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
      const out = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [table()]: {
              Keys: keys,
              ConsistentRead: true,
              ProjectionExpression: 'pk, #open',
              ExpressionAttributeNames: { '#open': 'open' },
            },
          },
        }),
      );
      for (const item of out.Responses?.[table()] ?? []) {
        const userId = Number(String(item.pk).split('#SEATS#')[1]);
        counts.set(userId, (item.open as Set<number> | undefined)?.size ?? 0);
      }
      keys = (out.UnprocessedKeys?.[table()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return counts;
}

/** The ids of the queue's oldest waiting tickets, oldest first. */
export async function readWaitingLine(companyId: number, queueId: number, limit: number): Promise<number[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk < :cursor',
      ExpressionAttributeValues: { ':pk': linePk(companyId, queueId), ':cursor': CURSOR_SK },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => Number(item.ticketId));
}

/**
 * Round robin's next turn of the queue: an atomic counter, so routers on several Lambdas at the same
 * moment each get their own turn (and so a different attendant) instead of all reading one cursor.
 */
export async function takeRoundRobinTurn(companyId: number, queueId: number, count = 1): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: linePk(companyId, queueId), sk: CURSOR_SK },
      UpdateExpression: 'SET entity = :entity ADD turns :n',
      ExpressionAttributeValues: { ':n': count, ':entity': 'roundRobinCursor' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.turns ?? count);
}

/** The drain lease as a write left it. */
interface DrainItem {
  owner?: string;
  until?: number;
  requests?: number;
}

const drainKey = (companyId: number, queueId: number) => ({ pk: linePk(companyId, queueId), sk: DRAIN_SK });
const held = (item: DrainItem | undefined, nowMs: number) => item?.owner !== undefined && (item.until ?? 0) >= nowMs;

/**
 * A trigger for the queue's line. Returns the `requests` count the caller's first pass starts from
 * when it now owns the drain (it must drain, then leave by releaseDrain), or undefined when another
 * router owns it and will pass again for this trigger. Usually one write; two to take the lease.
 */
export async function requestDrain(
  companyId: number,
  queueId: number,
  owner: string,
  leaseMs: number,
  now: () => number = Date.now,
): Promise<number | undefined> {
  const Key = drainKey(companyId, queueId);
  const counted = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key,
      UpdateExpression: 'SET entity = :entity ADD requests :one',
      ExpressionAttributeValues: { ':one': 1, ':entity': 'drainLease' },
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (held(counted.Attributes as DrainItem, now())) return undefined;
  try {
    const taken = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key,
        UpdateExpression: 'SET #owner = :me, #until = :until',
        ConditionExpression: 'attribute_not_exists(#owner) OR #until < :now',
        ExpressionAttributeNames: { '#owner': 'owner', '#until': 'until' },
        ExpressionAttributeValues: { ':me': owner, ':until': now() + leaseMs, ':now': now() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Number((taken.Attributes as DrainItem).requests ?? 0);
  } catch (error) {
    // Another router took it after our count: its first pass reads the line after our ticket's commit.
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/**
 * The owner is done with a pass that began at `seen`. Returns undefined when it left (nobody asked
 * since), or the new `requests` count to pass again from (the lease renewed). Also undefined when
 * the lease is no longer ours (it expired and another router took it: that one serves the line).
 */
export async function releaseDrain(
  companyId: number,
  queueId: number,
  owner: string,
  seen: number,
  leaseMs: number,
  now: () => number = Date.now,
): Promise<number | undefined> {
  const Key = drainKey(companyId, queueId);
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key,
        UpdateExpression: 'REMOVE #owner, #until',
        ConditionExpression: '#owner = :me AND requests = :seen',
        ExpressionAttributeNames: { '#owner': 'owner', '#until': 'until' },
        ExpressionAttributeValues: { ':me': owner, ':seen': seen },
      }),
    );
    return undefined;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
  try {
    const renewed = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key,
        UpdateExpression: 'SET #until = :until',
        ConditionExpression: '#owner = :me',
        ExpressionAttributeNames: { '#owner': 'owner', '#until': 'until' },
        ExpressionAttributeValues: { ':me': owner, ':until': now() + leaseMs },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Number((renewed.Attributes as DrainItem).requests ?? 0);
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/** Leaves the lease whatever was asked meanwhile (a drain that failed or ran too long); only ours. */
export async function abandonDrain(companyId: number, queueId: number, owner: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: drainKey(companyId, queueId),
        UpdateExpression: 'REMOVE #owner, #until',
        ConditionExpression: '#owner = :me',
        ExpressionAttributeNames: { '#owner': 'owner', '#until': 'until' },
        ExpressionAttributeValues: { ':me': owner },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}
