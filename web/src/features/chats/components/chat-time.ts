import { format, isToday, parseISO } from 'date-fns';

/** SPEC 2's list times: HH:mm today, dd/MM/yyyy before. */
export const chatTime = (iso: string): string => {
  const at = parseISO(iso);
  return isToday(at) ? format(at, 'HH:mm') : format(at, 'dd/MM/yyyy');
};
