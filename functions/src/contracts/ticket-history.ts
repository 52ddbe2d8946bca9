/**
 * A ticket's history (BEHAVIOUR "Tickets": every change with who and when) and the lines it puts in
 * the conversation (issue 25 item 6): shown in the thread, never sent to the phone.
 */
import type { TicketStatus } from './tickets.ts';

export const ticketHistoryKinds = [
  /** Created by an attendant (POST /tickets); the inbound pipeline's tickets start at `queued`. */
  'created',
  /** Entered a queue's waiting list (pending with a queue): the dashboard's "queued at". */
  'queued',
  /** An attendant took it (accept, reopen, create open): "started at". */
  'started',
  /** Back to pending, attendant cleared. */
  'returned',
  /** Moved to another queue and/or attendant. */
  'transferred',
  /** The rating question went out; the ticket waits for the contact's 1-3. */
  'ratingRequested',
  /** The contact rated it: "rated at". */
  'rated',
  /** Closed: "finished at". */
  'finished',
  'reopened',
  /** The prompt or integration that held the ticket handed it to the attendants (its answer asked for it). */
  'botHandedBack',
  /** The prompt or integration failed (`detail`: provider and status): the attendants have it, the contact got nothing. */
  'botFailed',
  /** Automatic assignment (issue 22 §2) gave it to `user`: the queue's next or least busy attendant with room. */
  'autoAssigned',
  /** Put out of the lists until `detail` (an ISO time), by the actor (issue 22 §5). */
  'snoozed',
  /** Snooze over: back in its attendant's open list or in Pending (the sweep at its time, or by hand). */
  'unsnoozed',
] as const;
export type TicketHistoryKind = (typeof ticketHistoryKinds)[number];

/** One line of the ticket's activity in the conversation (GET /messages/{ticketId} `events`). */
export interface ThreadEvent {
  /** Unique in the ticket: `<at>#<kind>`. */
  id: string;
  kind: TicketHistoryKind;
  at: string;
  /** Who did it; null for the system (the inbound pipeline, the sweeps, a bot). */
  actor: { id: number; name: string } | null;
  /** The ticket after the change. */
  status: TicketStatus;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string } | null;
  /** The contact's rating, for `rated`. */
  rating?: number | null;
  /** Why, for `botFailed` (provider and status, e.g. `openai 500`); until when, for `snoozed` (ISO). */
  detail?: string | null;
}
