import * as z from 'zod';

/** Company or queue opening hours: seven entries, HH:MM (SPEC 3 "Schedule entry"). */
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use HH:MM');

export const scheduleEntrySchema = z.object({
  weekday: z.string().min(1).max(30),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTime: hhmm,
  endTime: hhmm,
});
export type ScheduleEntry = z.infer<typeof scheduleEntrySchema>;

export const schedulesSchema = z
  .array(scheduleEntrySchema)
  .length(7)
  .refine((days) => new Set(days.map((d) => d.weekdayEn)).size === 7, 'Each weekday once');

/** SPEC 9: Mon-Fri 08:00-18:00, Saturday 08:00-12:00, Sunday 00:00-00:00. */
export const defaultCompanySchedules: ScheduleEntry[] = [
  { weekday: 'Lunes', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Martes', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Miércoles', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Jueves', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Viernes', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];
