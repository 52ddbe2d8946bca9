/**
 * Wall clocks of an IANA time zone, with Intl only (issue 25 "One time zone"): shared by the web
 * (web/src/lib/company-time.ts, which supplies the company's zone) and the functions (a schedule's
 * date-time without an offset, the exports' times), so both read and write a company's clock alike.
 */

export interface Wall {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** Whether this runtime knows the IANA zone `zone`. */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock in `zone` at instant `ms`. */
export function wallAt(ms: number, zone: string): Wall {
  const parts: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

const wallAsUtc = (w: Wall): number => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);

/** Minutes `zone` is ahead of UTC at instant `ms` (-180 for São Paulo, 540 for Tokyo). */
export const offsetMinutes = (ms: number, zone: string): number => Math.round((wallAsUtc(wallAt(ms, zone)) - ms) / 60_000);

/** The instant at which `zone`'s wall clock reads `wall`. */
export function instantOfWall(wall: Omit<Wall, 'millisecond'> & { millisecond?: number }, zone: string): Date {
  const asUtc = wallAsUtc({ millisecond: 0, ...wall });
  // The offset at the guess, then at the result: right on both sides of a DST change (a wall time
  // in the spring-forward gap lands just after it, one in the repeated autumn hour on its first pass).
  let ms = asUtc - offsetMinutes(asUtc, zone) * 60_000;
  const again = asUtc - offsetMinutes(ms, zone) * 60_000;
  if (again !== ms && wallAsUtc(wallAt(again, zone)) === asUtc) ms = again;
  return new Date(ms);
}

const two = (n: number) => String(n).padStart(2, '0');

/** `yyyy-MM-ddTHH:mm` of instant `ms` on `zone`'s clock. */
export function localDateTime(ms: number, zone: string): string {
  const w = wallAt(ms, zone);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

/** A date-time without an offset: `yyyy-MM-ddTHH:mm` with optional seconds (and fraction). */
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;

/** The instant a `yyyy-MM-ddTHH:mm[:ss]` value means on `zone`'s clock; undefined when not a real date-time. */
export function instantOfLocal(value: string, zone: string): Date | undefined {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  if (!month || month > 12 || !day || day > 31 || (hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) return undefined;
  const at = instantOfWall({ year: year ?? 0, month, day, hour: hour ?? 0, minute: minute ?? 0, second: second ?? 0 }, zone);
  // 31/02 and the like roll over into another day: not a date.
  return localDateTime(at.getTime(), zone).slice(0, 10) === value.slice(0, 10) ? at : undefined;
}

/** `±HH:mm` of `zone` at instant `ms`. */
export function offsetText(ms: number, zone: string): string {
  const minutes = offsetMinutes(ms, zone);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/**
 * An instant as `zone`'s wall clock with its offset, ISO 8601 (`2026-12-01T14:00:00-03:00`): what
 * an export writes, read back to the same instant in any zone. '' for no or an invalid time.
 */
export function zonedIso(at: Date | string | number | null | undefined, zone: string): string {
  if (at === null || at === undefined || at === '') return '';
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(ms)) return '';
  const w = wallAt(ms, zone);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}${offsetText(ms, zone)}`;
}
