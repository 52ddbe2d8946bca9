/**
 * What a ticket change means for the history (BEHAVIOUR "Tickets"): the dashboard's queued at
 * (entered a queue's waiting list), started at (an attendant took it), finished at (closed) and
 * rated at. The events are committed in the same transaction as the change (storage/ticket-history).
 */
import { historyPut, type TicketHistoryEvent, type TicketHistoryKind } from '#storage/tickets/history';
import type { TicketRecord } from '#storage/tickets/record';

type State = Pick<TicketRecord, 'companyId' | 'id' | 'status' | 'queueId' | 'userId' | 'whatsappId'> & { rating?: number | null };

/** The events of one change from `before` (undefined for a new ticket) to `after`, by `actorUserId`. */
export function historyEvents(
  kinds: TicketHistoryKind[],
  before: State | undefined,
  after: State,
  actorUserId: number | null,
  at: string,
  /** Why, on a `botFailed` event; until when, on a `snoozed` one. */
  detail?: string,
): TicketHistoryEvent[] {
  const all = new Set(kinds);
  // Derived milestones, so no caller forgets one.
  if (after.status === 'pending' && after.queueId !== null && (before?.status !== 'pending' || before.queueId !== after.queueId))
    all.add('queued');
  if (after.status === 'open' && after.userId !== null && (before?.status !== 'open' || before.userId !== after.userId)) all.add('started');
  if (after.status === 'closed' && before?.status !== 'closed') all.add('finished');
  return [...all].map((kind) => ({
    companyId: after.companyId,
    ticketId: after.id,
    kind,
    actorUserId,
    at,
    status: after.status,
    queueId: after.queueId,
    userId: after.userId,
    fromStatus: before?.status ?? null,
    fromQueueId: before?.queueId ?? null,
    fromUserId: before?.userId ?? null,
    whatsappId: after.whatsappId,
    ...(kind === 'rated' ? { rating: after.rating ?? null } : {}),
    ...((kind === 'botFailed' || kind === 'snoozed') && detail ? { detail } : {}),
  }));
}

/** The transaction items of those events. */
export const historyItems = (...args: Parameters<typeof historyEvents>) => historyEvents(...args).map(historyPut);
