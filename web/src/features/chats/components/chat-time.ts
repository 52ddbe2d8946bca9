import { formatListTime } from '../../../lib/dates.ts';

/** SPEC 2's list times: HH:mm today, the day before (in the language's order, lib/dates). */
export const chatTime = (iso: string): string => formatListTime(iso);
