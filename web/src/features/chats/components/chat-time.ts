import { format, isToday, parseISO } from 'date-fns';
import { formatDay } from '../../../lib/dates.ts';

/** SPEC 2's list times: HH:mm today, the day before (in the language's order, lib/dates). */
export const chatTime = (iso: string): string => {
  const at = parseISO(iso);
  return isToday(at) ? format(at, 'HH:mm') : formatDay(at);
};
