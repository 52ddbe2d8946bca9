import { type Recurrence, recurrenceMonths } from '@conversa/functions/contracts';
import { addMonths, differenceInCalendarDays, format, parseISO } from 'date-fns';

export type DueDateTone = 'yellow' | 'orange' | 'red' | undefined;

/**
 * SPEC 4 "Company due-date row colours": yellow at 5 days ahead, orange from 3 days overdue to 4
 * days ahead, red at exactly 4 days overdue; no colour otherwise.
 */
export function dueDateTone(dueDate: string | null | undefined, today: Date = new Date()): DueDateTone {
  if (!dueDate) return undefined;
  const days = differenceInCalendarDays(parseISO(dueDate), today);
  if (days === 5) return 'yellow';
  if (days >= -3 && days <= 4) return 'orange';
  if (days === -4) return 'red';
  return undefined;
}

/** "+ Vencimiento": the due date moves one recurrence period (1, 2, 3, 6 or 12 months) ahead. */
export function extendDueDate(dueDate: string | null | undefined, recurrence: Recurrence, today: Date = new Date()): string {
  const base = dueDate ? parseISO(dueDate) : today;
  return format(addMonths(base, recurrenceMonths[recurrence]), 'yyyy-MM-dd');
}
