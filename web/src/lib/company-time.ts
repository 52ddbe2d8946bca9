/**
 * One time zone for the whole app (issue 25 "One time zone"): the company's `timezone` setting, not
 * the browser's, governs every time a screen shows and every date-time a form takes. An attendant
 * travelling (or a browser set to another zone) still sees the ticket's 14:00 as the company's 14:00,
 * and a schedule typed as 14:00 goes out at 14:00 company time.
 *
 * The zone comes once from the session user (GET /auth/me carries the company's settings, a cached
 * query; app-layout.tsx calls `useCompanyTimeZone`); before that, or when the setting is missing or
 * not a zone this browser knows, the browser's own zone.
 *
 * date-fns formats a Date by its local fields, so an instant is shown through `zoned(at)`: a Date
 * whose local fields are the company's wall clock at that instant (what date-fns-tz calls
 * toZonedTime). `fromZoned` is its inverse, for a wall clock typed into a form. Only Intl, through
 * the contracts' zoned-time.ts that the functions use too: no time-zone package.
 */
import {
  instantOfLocal,
  instantOfWall,
  isTimeZone,
  localDateTime,
  wallAt,
  zonedIso,
  offsetMinutes as zoneOffsetMinutes,
  offsetText as zoneOffsetText,
} from '@conversa/functions/contracts/zoned-time';

export { isTimeZone };

const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let companyZone: string | undefined;

/** The company's zone from now on (undefined, or one this browser does not know: back to the browser's). */
export function setCompanyTimeZone(zone: string | null | undefined): void {
  companyZone = isTimeZone(zone) ? zone : undefined;
}

/** The zone every screen uses: the company's, else the browser's. */
export const companyTimeZone = (): string => companyZone ?? browserZone();

const toMs = (at: Date | string | number): number => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at));

/** Minutes the company's zone is ahead of UTC at instant `ms` (-180 for São Paulo, 540 for Tokyo). */
export const offsetMinutes = (ms: number, zone: string = companyTimeZone()): number => zoneOffsetMinutes(ms, zone);

/**
 * A Date whose local fields (getHours, getDate...) are the company's wall clock at `at`: what
 * date-fns' format, isSameDay and the calendar take. Not an instant: never send it to the API.
 */
export function zoned(at: Date | string | number, zone: string = companyTimeZone()): Date {
  const ms = toMs(at);
  if (Number.isNaN(ms)) return new Date(Number.NaN);
  const w = wallAt(ms, zone);
  return new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);
}

/** The inverse of `zoned`: a Date whose local fields hold a company wall clock, as the instant it means. */
export const fromZoned = (local: Date, zone: string = companyTimeZone()): Date =>
  instantOfWall(
    {
      year: local.getFullYear(),
      month: local.getMonth() + 1,
      day: local.getDate(),
      hour: local.getHours(),
      minute: local.getMinutes(),
      second: local.getSeconds(),
      millisecond: local.getMilliseconds(),
    },
    zone,
  );

/** `yyyy-MM-ddTHH:mm` of `at` on the company's clock: the value of a date-time field. */
export const toCompanyInput = (at: Date | string | number, zone: string = companyTimeZone()): string => localDateTime(toMs(at), zone);

/** The instant a `yyyy-MM-ddTHH:mm` field value means on the company's clock; undefined when not one. */
export const fromCompanyInput = (value: string, zone: string = companyTimeZone()): Date | undefined => instantOfLocal(value, zone);

/** The company's calendar day of `at`: `yyyy-MM-dd`. */
export const companyDay = (at: Date | string | number, zone: string = companyTimeZone()): string => toCompanyInput(at, zone).slice(0, 10);

/** Whether `at` falls on the company's today. */
export const isCompanyToday = (at: Date | string | number, now: Date = new Date()): boolean => companyDay(at) === companyDay(now);

/** The first instant of the company's day `yyyy-MM-dd`. */
export function companyDayStart(day: string, zone: string = companyTimeZone()): Date {
  const [year, month, dayOfMonth] = day.split('-').map(Number) as [number, number, number];
  return instantOfWall({ year, month, day: dayOfMonth, hour: 0, minute: 0, second: 0 }, zone);
}

/** `±HH:mm` of the company's zone at `at`. */
export const offsetText = (at: Date | string | number, zone: string = companyTimeZone()): string => zoneOffsetText(toMs(at), zone);

/**
 * An instant for a spreadsheet: the company's wall clock with its offset, ISO 8601
 * (`2026-12-01T14:00:00-03:00`), which a reader in any zone reads back to the same instant.
 */
export const exportInstant = (at: Date | string | number | null | undefined, zone: string = companyTimeZone()): string =>
  zonedIso(at, zone);
