/**
 * Snooze (issue 22 §5): PUT /tickets/{id} `{snoozeUntil}` takes an open or pending ticket out of
 * the lists until then; at that time the ticket-sweeps job wakes it, back in its attendant's open
 * list or in Pending (its status never changed), exactly once, also after the stack was down then.
 *
 * - Snoozing sets snoozedUntil/snoozedBy: the ticket's list keys then name the `snoozed` lists
 *   (storage/tickets/list-keys.ts listStatusOf), so no open or pending list, count or sweep of those
 *   lists sees it, and its snoozer finds it in theirs. In the same transaction: the due item
 *   (storage/tickets/snooze-due.ts) and a `snoozed` history line (the thread shows "Snoozed until ...").
 * - Waking clears both, deletes the due item and writes an `unsnoozed` line ("Back from snooze"),
 *   as one state change conditional on the revision read: two runs of the job (or the job and a
 *   person) that read the same ticket commit once; the other finds the revision moved and leaves it.
 * - Any other change of its state (accept, transfer, resolve...: actions.ts) wakes it too, in that
 *   change's transaction: a ticket someone acted on is awake.
 * Each change is published as a ticket `update` (its viewers do not change), which moves it between
 * the lists of the open screens.
 */
import { ConflictError, ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import { MAX_SNOOZE_DAYS } from '#contracts/ticket-requests';
import type { Ticket } from '#contracts/tickets';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { mapWithConcurrency } from '#realtime/concurrency';
import type { TicketRecord, TicketStatePatch } from '#storage/tickets/record';
import { type DueSnooze, dueSnoozes, snoozeDueDelete, snoozeDuePut } from '#storage/tickets/snooze-due';
import { getTicket, StaleTicketError, updateTicketState } from '#storage/tickets/tickets';
import type { Viewer } from './access.ts';
import { historyItems } from './history.ts';
import { publishTicketChange } from './notify.ts';
import { presentTickets } from './present-page.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Snoozes woken at once by a run (each is a few requests). */
const WAKE_CONCURRENCY = 8;

export class TicketClosedError extends ConflictError {
  constructor() {
    super('ERR_TICKET_CLOSED');
  }
}

/** The patch and writes that end a ticket's snooze, for the transaction of whatever change ends it. */
export function wakePatch(ticket: TicketRecord): { patch: TicketStatePatch; extra: ReturnType<typeof snoozeDueDelete>[] } {
  if (!ticket.snoozedUntil) return { patch: {}, extra: [] };
  return { patch: { snoozedUntil: null, snoozedBy: null }, extra: [snoozeDueDelete(ticket.companyId, ticket.id)] };
}

async function present(ticket: TicketRecord): Promise<Ticket> {
  return (await presentTickets(ticket.companyId, [ticket]))[0] as Ticket;
}

/** Commits a snooze change and publishes it; the ticket's TicketChangedError on a concurrent change. */
async function commitRecord(
  ticket: TicketRecord,
  patch: TicketStatePatch,
  kind: 'snoozed' | 'unsnoozed',
  actor: number | null,
  effects: Effects,
  extra: ReturnType<typeof snoozeDuePut>[],
): Promise<{ next: TicketRecord; presented: Ticket }> {
  const at = new Date().toISOString();
  const after = { ...ticket, ...patch };
  const history = historyItems([kind], ticket, after, actor, at, patch.snoozedUntil ?? undefined);
  let next: TicketRecord;
  try {
    next = await updateTicketState(ticket, patch, [...history, ...extra]);
  } catch (error) {
    // Someone changed it between the caller's read and this write: re-read and decide again (as actions.ts).
    if (error instanceof StaleTicketError && actor !== null) throw new ConflictError('ERR_TICKET_CHANGED');
    throw error;
  }
  const presented = await present(next);
  await publishTicketChange(effects, ticket, presented);
  return { next, presented };
}

/**
 * PUT /tickets/{id} `{snoozeUntil}` on a ticket the caller may see (actions.ts routes it here):
 * an ISO time between now and MAX_SNOOZE_DAYS ahead snoozes (or re-snoozes) it; null wakes it.
 */
export async function setTicketSnooze(
  viewer: Viewer,
  ticket: TicketRecord,
  snoozeUntil: string | null,
  effects: Effects = defaultEffects,
): Promise<Ticket> {
  if (snoozeUntil === null) {
    if (!ticket.snoozedUntil) return present(ticket);
    const { patch, extra } = wakePatch(ticket);
    return (await commitRecord(ticket, patch, 'unsnoozed', viewer.userId, effects, extra)).presented;
  }
  if (ticket.status === 'closed') throw new TicketClosedError();
  const until = new Date(snoozeUntil);
  const now = effects.now().getTime();
  if (until.getTime() <= now) throw new ValidationError('snoozeUntil', 'Choose a time in the future');
  if (until.getTime() > now + MAX_SNOOZE_DAYS * DAY_MS) throw new ValidationError('snoozeUntil', `At most ${MAX_SNOOZE_DAYS} days ahead`);
  const iso = until.toISOString();
  if (ticket.snoozedUntil === iso) return present(ticket);
  const patch: TicketStatePatch = { snoozedUntil: iso, snoozedBy: viewer.userId };
  return (await commitRecord(ticket, patch, 'snoozed', viewer.userId, effects, [snoozeDuePut(ticket.companyId, ticket.id, iso)])).presented;
}

/** Wakes one due snooze; true when this call woke it. */
async function wakeDue(due: DueSnooze, effects: Effects): Promise<boolean> {
  const ticket = await getTicket(due.companyId, due.ticketId);
  // Woken already (by a person, an action, another run): its due item went with it. A due item
  // without its snooze (a ticket deleted meanwhile) is left to the ticket's removal.
  if (!ticket?.snoozedUntil || ticket.snoozedUntil !== due.until) return false;
  const { patch, extra } = wakePatch(ticket);
  try {
    await commitRecord(ticket, patch, 'unsnoozed', null, effects, extra);
    return true;
  } catch (error) {
    // Another run (or a person) changed it between our read and our write: theirs is the change.
    if (error instanceof StaleTicketError) return false;
    throw error;
  }
}

/**
 * The contact wrote to a snoozed ticket (the inbound pipeline, after storing the message): the
 * customer answered, so it is back in its list now rather than at its time. Returns the ticket as it
 * is after; a concurrent change (the job waking it, a person acting on it) leaves theirs.
 */
export async function wakeOnContactMessage(ticket: TicketRecord, effects: Effects): Promise<TicketRecord> {
  if (!ticket.snoozedUntil) return ticket;
  const { patch, extra } = wakePatch(ticket);
  try {
    return (await commitRecord(ticket, patch, 'unsnoozed', null, effects, extra)).next;
  } catch (error) {
    if (error instanceof StaleTicketError) return ticket;
    throw error;
  }
}

export interface WakeReport {
  woken: number;
  failures: number;
}

/**
 * The ticket-sweeps job's snooze step: every snooze due by the effects' clock, woken once. A
 * snooze whose time passed while nothing ran is due all the same (the index holds it until woken).
 * A failure is logged; its due item stays, so the next run tries again.
 */
export async function wakeDueSnoozes(effects: Effects = defaultEffects): Promise<WakeReport> {
  const report: WakeReport = { woken: 0, failures: 0 };
  const due = await dueSnoozes(effects.now().toISOString());
  await mapWithConcurrency(due, WAKE_CONCURRENCY, async (snooze) => {
    try {
      if (await wakeDue(snooze, effects)) report.woken++;
    } catch (error) {
      report.failures++;
      logger.error('waking a snoozed ticket failed', { companyId: snooze.companyId, ticketId: snooze.ticketId, error: error as Error });
    }
  });
  return report;
}
