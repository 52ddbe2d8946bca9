import type { SessionUser } from '@conversa/functions/contracts';
import { formatDay } from '../../../lib/dates.ts';

/** Calendar day in UTC, as the server compares due dates (domain/auth/due-date-policy.ts). */
export const utcToday = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

export const showDay = (day: string): string => formatDay(day);

/** BEHAVIOUR "Enforced on the server": past its due date a company reaches billing only (super users excepted). */
export function isCompanyExpired(user: Pick<SessionUser, 'super' | 'company'> | undefined, today: string = utcToday()): boolean {
  const dueDate = user?.company?.dueDate;
  return Boolean(user && !user.super && dueDate && dueDate < today);
}

/**
 * Which end /subscription counts down to. Signup sets the trial's end and the due date to the same day;
 * a paid invoice moves the due date on and leaves the trial's end behind, so the trial is over once the
 * due date passes it (then the licence's end counts, not an expired trial).
 */
export function licenceEnd(
  company: { trialExpiration?: string | null; dueDate?: string | null } | undefined,
  fallbackDueDate: string | null = null,
): { end: string | null; trial: boolean } {
  const due = company?.dueDate ?? fallbackDueDate;
  const trial = company?.trialExpiration ?? null;
  if (trial && (!due || trial.slice(0, 10) >= due.slice(0, 10))) return { end: trial.slice(0, 10), trial: true };
  return { end: due ? due.slice(0, 10) : null, trial: false };
}

/** SPEC 9: days between now and the trial's (or licence's) end. */
export function daysLeft(day: string, today: string = utcToday()): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}
