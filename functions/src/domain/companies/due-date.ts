/**
 * Due-date arithmetic on calendar dates (`YYYY-MM-DD`, UTC). Dates are kept as plain calendar
 * days because a subscription expires on a day, not at an instant.
 */
import { type Recurrence, recurrenceMonths, TRIAL_DAYS } from '#contracts/companies';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function toIsoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function todayIso(now: Date = new Date()): string {
  return toIsoDay(now);
}

function parseDay(day: string): { y: number; m: number; d: number } {
  const match = ISO_DAY.exec(day);
  if (!match) throw new RangeError(`Not a calendar day: ${day}`);
  return { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) };
}

export function addDays(day: string, days: number): string {
  const { y, m, d } = parseDay(day);
  return toIsoDay(new Date(Date.UTC(y, m - 1, d + days)));
}

/**
 * Adds calendar months, clamping to the last day of the target month (Jan 31 + 1 month = Feb 28/29)
 * so a renewal never skips a whole month the way naive Date arithmetic does (Jan 31 -> Mar 3).
 */
export function addMonths(day: string, months: number): string {
  const { y, m, d } = parseDay(day);
  const firstOfTarget = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(firstOfTarget.getUTCFullYear(), firstOfTarget.getUTCMonth() + 1, 0)).getUTCDate();
  return toIsoDay(new Date(Date.UTC(firstOfTarget.getUTCFullYear(), firstOfTarget.getUTCMonth(), Math.min(d, lastDay))));
}

/** SPEC 9: signup gives a trial due TRIAL_DAYS after today. */
export function trialDueDate(today: string): string {
  return addDays(today, TRIAL_DAYS);
}

/**
 * "+ Vencimiento": one recurrence period added to the current due date. A company without a due
 * date starts counting from today.
 */
export function extendDueDate(dueDate: string | null | undefined, recurrence: Recurrence, today: string): string {
  return addMonths(dueDate ?? today, recurrenceMonths[recurrence]);
}
