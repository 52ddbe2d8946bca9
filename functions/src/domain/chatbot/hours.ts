/**
 * Opening hours (company or queue schedules) checked in the company's time zone (setting
 * `timezone`), not the server's. An entry's day is open from startTime (inclusive) to endTime
 * (exclusive); 00:00-00:00 is closed all day; an end before the start runs past midnight.
 */
import type { ScheduleEntry } from '#contracts/schedules';

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** Weekday and minutes since midnight of `at` in `timeZone`. */
export function localTime(at: Date, timeZone: string): { weekday: (typeof weekdays)[number]; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = part('weekday').toLowerCase() as (typeof weekdays)[number];
  return { weekday, minutes: Number(part('hour')) * 60 + Number(part('minute')) };
}

const toMinutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** True when `at` falls inside the schedules; no schedules at all means always open. */
export function isWithinSchedule(schedules: readonly ScheduleEntry[] | undefined, at: Date, timeZone: string): boolean {
  if (!schedules?.length) return true;
  const { weekday, minutes } = localTime(at, timeZone);
  const today = schedules.find((entry) => entry.weekdayEn === weekday);
  if (today) {
    const start = toMinutes(today.startTime);
    const end = toMinutes(today.endTime);
    if (start < end && minutes >= start && minutes < end) return true;
    if (end < start && minutes >= start) return true;
  }
  // Yesterday's entry running past midnight.
  const yesterday = schedules.find((entry) => entry.weekdayEn === weekdays[(weekdays.indexOf(weekday) + 6) % 7]);
  if (yesterday) {
    const start = toMinutes(yesterday.startTime);
    const end = toMinutes(yesterday.endTime);
    if (end < start && minutes < end) return true;
  }
  return false;
}
