/**
 * Service levels of a queue (issue 22 §3), shared by the functions and the web.
 *
 * A queue may promise a first response within `firstResponseMinutes` and a resolution within
 * `resolutionMinutes` (0 = no promise), counted in business hours (storage/business-time.ts). When a
 * ticket enters a queue with a promise, the ticket records when each target is due and when it turns
 * "due soon" (`SlaTimes`, storage/tickets/sla.ts); the first attendant message and the close record
 * when each was fulfilled. The state is then a function of that record and the clock alone
 * (`slaStateAt`), so reading a ticket never reads anything else, and the web recomputes it as time
 * passes.
 *
 * States:
 *   breached  a target was (or is still, unfulfilled) past its due time, or the sweep recorded its breach
 *   met       every target the queue sets was fulfilled in time. With one target only, that one
 *             decides: a queue with only a first-response target is met at the first answer in
 *             time, one with only a resolution target at a close in time.
 *   dueSoon   a target still open has under 20 % of its allowed (business) time left
 *   ok        otherwise
 * A close also ends the first-response clock: a ticket resolved before its first answer was due
 * did not keep the customer waiting past the promise.
 */

import type { Ticket } from './tickets.ts';

export const slaStates = ['ok', 'dueSoon', 'breached', 'met'] as const;
export type SlaState = (typeof slaStates)[number];

/** GET /tickets?sla=: the states a list filters on. */
export const slaFilters = ['breached', 'dueSoon'] as const;
export type SlaFilter = (typeof slaFilters)[number];

/** The highest target a queue may set: 30 days of minutes. */
export const SLA_MAX_MINUTES = 43_200;
/** Under this share of the allowed time left, a target is due soon. */
export const DUE_SOON_FRACTION = 0.2;

export const slaTargets = ['firstResponse', 'resolution'] as const;
export type SlaTarget = (typeof slaTargets)[number];

/** What a ticket stores of its service level (ISO times; an absent field is not set). */
export interface SlaTimes {
  /** The queue whose targets these are, and when the ticket entered it. */
  queueId: number;
  startedAt: string;
  firstResponseDueAt?: string;
  /** When under 20 % of the allowed time is left. */
  firstResponseWarnAt?: string;
  resolutionDueAt?: string;
  resolutionWarnAt?: string;
  /** The first message an attendant sent after the ticket entered the queue. */
  firstRespondedAt?: string;
  /** The ticket closed. */
  resolvedAt?: string;
  /** The breach of each target was notified (set once by the sweep, conditionally). */
  firstResponseBreachedAt?: string;
  resolutionBreachedAt?: string;
}

/** What a ticket answers (Ticket.sla); null when its queue promises nothing. */
export interface TicketSla {
  firstResponseDueAt: string | null;
  resolutionDueAt: string | null;
  state: SlaState;
  /** The due time of the soonest target still open (null when none is): what the row counts down to. */
  nextDueAt: string | null;
  /** When that target turns due soon. */
  nextWarnAt: string | null;
}

/** `company-{id}-slaBreach` payload: sent once per breached target, to the queue's admins and supervisors. */
export interface SlaBreachEvent {
  action: 'breach';
  target: SlaTarget;
  dueAt: string;
  ticket: Ticket;
}

interface TargetTimes {
  dueAt: number;
  warnAt: number;
  doneAt: number | undefined;
}

const time = (iso: string | undefined): number | undefined => (iso ? Date.parse(iso) : undefined);

function targetsOf(sla: SlaTimes): TargetTimes[] {
  const resolvedAt = time(sla.resolvedAt);
  const respondedAt = time(sla.firstRespondedAt);
  const targets: TargetTimes[] = [];
  if (sla.firstResponseDueAt) {
    const dueAt = Date.parse(sla.firstResponseDueAt);
    const done = [respondedAt, resolvedAt].filter((t): t is number => t !== undefined);
    targets.push({ dueAt, warnAt: time(sla.firstResponseWarnAt) ?? dueAt, doneAt: done.length ? Math.min(...done) : undefined });
  }
  if (sla.resolutionDueAt) {
    const dueAt = Date.parse(sla.resolutionDueAt);
    targets.push({ dueAt, warnAt: time(sla.resolutionWarnAt) ?? dueAt, doneAt: resolvedAt });
  }
  return targets;
}

/** The state of `sla` at `now` (epoch ms); undefined when it sets no target. */
export function slaStateAt(sla: SlaTimes | null | undefined, now: number): SlaState | undefined {
  if (!sla) return undefined;
  const targets = targetsOf(sla);
  if (!targets.length) return undefined;
  // A breach recorded by the sweep stands (whatever this reader's clock says).
  if (sla.firstResponseBreachedAt || sla.resolutionBreachedAt) return 'breached';
  if (targets.some((t) => (t.doneAt ?? now) > t.dueAt)) return 'breached';
  const open = targets.filter((t) => t.doneAt === undefined);
  if (!open.length) return 'met';
  return open.some((t) => now >= t.warnAt) ? 'dueSoon' : 'ok';
}

/** Ticket.sla of a stored record at `now`. */
export function presentSla(sla: SlaTimes | null | undefined, now: number): TicketSla | null {
  const state = slaStateAt(sla, now);
  if (!sla || !state) return null;
  const next = targetsOf(sla)
    .filter((t) => t.doneAt === undefined)
    .sort((a, b) => a.dueAt - b.dueAt)[0];
  return {
    firstResponseDueAt: sla.firstResponseDueAt ?? null,
    resolutionDueAt: sla.resolutionDueAt ?? null,
    state,
    nextDueAt: next ? new Date(next.dueAt).toISOString() : null,
    nextWarnAt: next ? new Date(next.warnAt).toISOString() : null,
  };
}
