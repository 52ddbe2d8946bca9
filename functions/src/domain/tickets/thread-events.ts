/**
 * The ticket's history as lines of its conversation (issue 25 item 6): who transferred, accepted,
 * resolved or reopened it and when, and what the bots did (handed it back, failed). Read from the
 * history the ticket's changes already write (storage/tickets/history.ts), so a line costs no write
 * and is never sent to the phone.
 *
 * One change may record several kinds at the same instant (a transfer to an attendant is also
 * `started`, a reopen is `reopened` and `started`): the thread shows what the person did, so the
 * milestones derived for the dashboard (`queued`, `started`) give way to the act beside them.
 */
import type { ThreadEvent } from '#contracts/ticket-history';
import { listQueuesCached } from '#storage/queues/queues';
import { listTicketHistoryBetween, type TicketHistoryEvent } from '#storage/tickets/history';
import { listUserNamesCached } from '#storage/users/users';

const DERIVED = new Set<TicketHistoryEvent['kind']>(['queued', 'started']);

/** The events worth a line: derived milestones only when nothing else happened at that instant. */
export function visibleEvents(events: TicketHistoryEvent[]): TicketHistoryEvent[] {
  const acts = new Set(events.filter((e) => !DERIVED.has(e.kind)).map((e) => e.at));
  const seen = new Set<string>();
  return events.filter((event) => {
    const id = `${event.at}#${event.kind}`;
    if (seen.has(id)) return false;
    seen.add(id);
    if (!DERIVED.has(event.kind)) return true;
    // `queued` and `started` together (an accept that also queued): the attendant taking it says it.
    if (event.kind === 'queued' && events.some((e) => e.at === event.at && e.kind === 'started')) return false;
    return !acts.has(event.at);
  });
}

/** The lines with `from <= at < to` (either open), oldest first, with the names of who and where. */
export async function listThreadEvents(companyId: number, ticketId: number, from?: string, to?: string): Promise<ThreadEvent[]> {
  const events = visibleEvents(await listTicketHistoryBetween(companyId, ticketId, from, to));
  if (!events.length) return [];
  const [users, queues] = await Promise.all([listUserNamesCached(companyId), listQueuesCached(companyId)]);
  const userOf = (id: number | null) => {
    if (id === null) return null;
    return { id, name: users.find((u) => u.id === id)?.name ?? '' };
  };
  const queueOf = (id: number | null) => {
    if (id === null) return null;
    return { id, name: queues.find((q) => q.id === id)?.name ?? '' };
  };
  return events.map((event) => ({
    id: `${event.at}#${event.kind}`,
    kind: event.kind,
    at: event.at,
    actor: userOf(event.actorUserId),
    status: event.status as ThreadEvent['status'],
    user: userOf(event.userId),
    queue: queueOf(event.queueId),
    ...(event.kind === 'rated' ? { rating: event.rating ?? null } : {}),
    ...(event.detail ? { detail: event.detail } : {}),
  }));
}
