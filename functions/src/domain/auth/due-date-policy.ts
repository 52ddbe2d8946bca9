/**
 * SPEC 5 "Login": a company past its due date is blocked; fewer than 5 days left gives a warning.
 * Calendar days in UTC (`YYYY-MM-DD`): a subscription ends on a day, not at an instant, and string
 * comparison of ISO days is date comparison.
 */
import { DUE_DATE_WARNING_DAYS } from '#contracts/companies';

export const utcToday = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/** Expired once the due date is before today: the due date itself is still usable. */
export function isExpired(dueDate: string | null | undefined, today: string = utcToday()): boolean {
  return Boolean(dueDate) && (dueDate as string) < today;
}

export function daysLeft(dueDate: string, today: string = utcToday()): number {
  return Math.round((Date.parse(`${dueDate}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** The login warning, when fewer than DUE_DATE_WARNING_DAYS remain (and the company is not expired). */
export function dueDateWarning(
  dueDate: string | null | undefined,
  today: string = utcToday(),
): { days: number; dueDate: string } | undefined {
  if (!dueDate || isExpired(dueDate, today)) return undefined;
  const days = daysLeft(dueDate, today);
  return days < DUE_DATE_WARNING_DAYS ? { days, dueDate } : undefined;
}
