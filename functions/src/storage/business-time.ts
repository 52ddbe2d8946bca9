/**
 * Business time: adding minutes counted only while a schedule is open (issue 22 §3's service
 * levels). Pure, so the due times a ticket stores are computed in the write that stores them.
 *
 * A schedule is the company's or a queue's seven entries (contracts/schedules.ts), read as the
 * out-of-hours rule reads them (domain/chatbot/hours.ts): a day is open from startTime (inclusive) to
 * endTime (exclusive), in the company's time zone; an end before the start runs past midnight into
 * the next day; equal times (00:00-00:00) close the day. No schedule, or one that is never open,
 * counts around the clock (24/7), so a target always has a due time.
 *
 * The walk: from the local day before `start` (its overnight interval may still be open), take each
 * day's open interval as UTC instants (wall time in the zone, so a DST change shortens or lengthens
 * that day), skip what lies before the cursor, and spend the minutes left in each until they run
 * out. Bounded: a schedule open at least one minute a week is done within a few weeks of days.
 */
import type { ScheduleEntry } from '#contracts/schedules';
import { instantOfWall, wallAt } from '#contracts/zoned-time';

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
/** Days walked at most: the longest target (30 days of minutes) in a schedule open a minute a week is beyond any real one. */
const MAX_DAYS = 800;

const toMinutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The instant whose wall clock in `timeZone` is `wall` (a local time written as UTC ms). */
function fromWallClock(wall: number, timeZone: string): number {
  const w = new Date(wall);
  return instantOfWall(
    {
      year: w.getUTCFullYear(),
      month: w.getUTCMonth() + 1,
      day: w.getUTCDate(),
      hour: w.getUTCHours(),
      minute: w.getUTCMinutes(),
      second: w.getUTCSeconds(),
    },
    timeZone,
  ).getTime();
}

/** The open interval (minutes from the day's local midnight, end may pass 1440) of each weekday; undefined = closed. */
function openIntervals(schedules: readonly ScheduleEntry[]): Map<number, { from: number; to: number }> {
  const byDay = new Map<number, { from: number; to: number }>();
  for (const entry of schedules) {
    const day = weekdays.indexOf(entry.weekdayEn);
    const from = toMinutes(entry.startTime);
    const end = toMinutes(entry.endTime);
    if (day < 0 || from === end) continue;
    byDay.set(day, { from, to: end > from ? end : end + DAY_MINUTES });
  }
  return byDay;
}

/**
 * `start` plus `minutes` of business time in `schedules` (company time zone `timeZone`). Without
 * an open schedule, plain minutes. Starting outside hours, the clock starts at the next opening.
 */
export function addBusinessMinutes(
  start: Date,
  minutes: number,
  schedules: readonly ScheduleEntry[] | null | undefined,
  timeZone: string,
): Date {
  const intervals = openIntervals(schedules ?? []);
  if (!intervals.size) return new Date(start.getTime() + minutes * MINUTE);
  let left = minutes * MINUTE;
  let cursor = start.getTime();
  // The local calendar day of `start`, as a UTC midnight (its weekday is the local one).
  const local = wallAt(cursor, timeZone);
  const firstDay = Date.UTC(local.year, local.month - 1, local.day);
  for (let i = -1; i < MAX_DAYS; i++) {
    const day = firstDay + i * DAY_MINUTES * MINUTE;
    const open = intervals.get(new Date(day).getUTCDay());
    if (!open) continue;
    const from = fromWallClock(day + open.from * MINUTE, timeZone);
    const to = fromWallClock(day + open.to * MINUTE, timeZone);
    const begin = Math.max(from, cursor);
    if (to <= begin) continue;
    if (left <= to - begin) return new Date(begin + left);
    left -= to - begin;
    cursor = to;
  }
  // Unreachable for a schedule open a minute a week; never loop forever on a strange one.
  return new Date(cursor + left);
}
