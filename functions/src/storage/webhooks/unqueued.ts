/**
 * Webhook deliveries that SQS did not take (issue 23 §2, "at least once, never lost"): a sparse
 * index on the delivery's log item (storage/webhooks/deliveries.ts), every tenant's in one partition,
 * read by the minute sweep (domain/webhooks/queue-or-park.ts) that queues them again.
 *
 *   unqueued  gsi1pk = WEBHOOK_UNQUEUED   gsi1sk = <parked at ISO>#<cid>#<endpoint id>#<delivery id>
 *             -> set only when a send failed (an SQS error or outage), removed once SQS took the
 *                attempt or a resend started a new round; absent on every delivery that queued at
 *                once, so the happy path writes no index entry. Oldest first.
 *
 * The log item stays `pending` meanwhile (it will be sent) with `error` saying why it waits and
 * `nextRetryAt` the sweep's next minute: the log does not claim an attempt that is not on its way
 * without saying so. The item keeps its TTL: a delivery parked for 30 days goes with its log.
 */
import { queryUpTo, updateIf } from '../db.ts';
import { deliveryKey } from './deliveries.ts';

export const UNQUEUED_PK = 'WEBHOOK_UNQUEUED';

export interface ParkedDelivery {
  companyId: number;
  endpointId: number;
  id: string;
  /** The round whose first attempt is to be queued. */
  round: number;
}

const key = (d: ParkedDelivery) => deliveryKey(d.companyId, d.endpointId, d.id);

/**
 * Parks a delivery whose attempt SQS did not take. Only while it is still pending in that round
 * (nothing else may have moved it); false when it was not (then there is nothing to park).
 */
export function parkUnqueued(delivery: ParkedDelivery, at: Date, reason: string, retryAt: Date): Promise<boolean> {
  return updateIf({
    Key: key(delivery),
    UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk, #error = :error, nextRetryAt = :retryAt',
    ConditionExpression: 'attribute_exists(pk) AND #round = :round AND #status = :pending',
    ExpressionAttributeNames: { '#error': 'error', '#round': 'round', '#status': 'status' },
    ExpressionAttributeValues: {
      ':pk': UNQUEUED_PK,
      ':sk': `${at.toISOString()}#${delivery.companyId}#${delivery.endpointId}#${delivery.id}`,
      ':error': reason,
      ':retryAt': retryAt.toISOString(),
      ':round': delivery.round,
      ':pending': 'pending',
    },
  });
}

/** Every tenant's parked deliveries, oldest first, at most `limit`. */
export async function parkedDeliveries(limit: number): Promise<ParkedDelivery[]> {
  const items = await queryUpTo(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': UNQUEUED_PK },
      ProjectionExpression: 'companyId, endpointId, id, #round',
      ExpressionAttributeNames: { '#round': 'round' },
    },
    limit,
  );
  return items.map((item) => ({
    companyId: Number(item.companyId),
    endpointId: Number(item.endpointId),
    id: String(item.id),
    round: Number(item.round),
  }));
}

/**
 * SQS took the parked attempt: out of the index, its wait no longer an error. False when it was out
 * already: an attempt was recorded meanwhile (recordAttempt takes it out), or a resend started a new round.
 */
export function unpark(delivery: ParkedDelivery, at: Date): Promise<boolean> {
  return updateIf({
    Key: key(delivery),
    UpdateExpression: 'SET #error = :none, nextRetryAt = :at REMOVE gsi1pk, gsi1sk',
    ConditionExpression: 'attribute_exists(gsi1pk) AND #round = :round',
    ExpressionAttributeNames: { '#error': 'error', '#round': 'round' },
    ExpressionAttributeValues: { ':none': null, ':at': at.toISOString(), ':round': delivery.round },
  });
}
