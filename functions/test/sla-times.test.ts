/**
 * Service levels (issue 22 §3): due times walked through business hours (storage/business-time.ts)
 * and a ticket's state from what it stores (contracts/sla.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ScheduleEntry } from '../src/contracts/schedules.ts';
import { presentSla, type SlaTimes, slaStateAt } from '../src/contracts/sla.ts';
import { addBusinessMinutes } from '../src/storage/business-time.ts';

const day = (weekdayEn: ScheduleEntry['weekdayEn'], startTime: string, endTime: string): ScheduleEntry => ({
  weekday: weekdayEn,
  weekdayEn,
  startTime,
  endTime,
});

/** Mon-Fri 08:00-18:00, Saturday 08:00-12:00, Sunday closed (SPEC 9's default). */
const office: ScheduleEntry[] = [
  day('monday', '08:00', '18:00'),
  day('tuesday', '08:00', '18:00'),
  day('wednesday', '08:00', '18:00'),
  day('thursday', '08:00', '18:00'),
  day('friday', '08:00', '18:00'),
  day('saturday', '08:00', '12:00'),
  day('sunday', '00:00', '00:00'),
];

const SP = 'America/Sao_Paulo'; // UTC-3 all year (no DST since 2019)
const at = (iso: string) => new Date(iso);
const due = (start: string, minutes: number, schedules: ScheduleEntry[] | undefined, zone = SP) =>
  addBusinessMinutes(at(start), minutes, schedules, zone).toISOString();

describe('addBusinessMinutes', () => {
  it('without hours counts around the clock (24/7)', () => {
    expect(due('2026-12-04T23:50:00.000Z', 30, undefined)).toBe('2026-12-05T00:20:00.000Z');
    expect(due('2026-12-04T23:50:00.000Z', 30, [])).toBe('2026-12-05T00:20:00.000Z');
    // A schedule closed every day is no schedule either: a target must fall due.
    const closed = office.map((entry) => ({ ...entry, startTime: '00:00', endTime: '00:00' }));
    expect(due('2026-12-04T23:50:00.000Z', 30, closed)).toBe('2026-12-05T00:20:00.000Z');
  });

  it('inside hours adds plain minutes', () => {
    // Tuesday 10:00 in São Paulo = 13:00 UTC.
    expect(due('2026-12-01T13:00:00.000Z', 45, office)).toBe('2026-12-01T13:45:00.000Z');
  });

  it('before opening starts the clock at the opening', () => {
    // Tuesday 06:00 local: due 08:30 local.
    expect(due('2026-12-01T09:00:00.000Z', 30, office)).toBe('2026-12-01T11:30:00.000Z');
  });

  it('after closing carries the rest into the next morning (overnight)', () => {
    // Tuesday 17:50 local, 30 minutes: 10 today, 20 on Wednesday from 08:00.
    expect(due('2026-12-01T20:50:00.000Z', 30, office)).toBe('2026-12-02T11:20:00.000Z');
    // Tuesday 22:00 local (closed): Wednesday 08:30.
    expect(due('2026-12-02T01:00:00.000Z', 30, office)).toBe('2026-12-02T11:30:00.000Z');
  });

  it('skips the weekend: Saturday morning, then Monday', () => {
    // Friday 17:00 local, 6 hours: 1 h Friday, 4 h Saturday 08-12, 1 h Monday -> Monday 09:00 local.
    expect(due('2026-12-04T20:00:00.000Z', 360, office)).toBe('2026-12-07T12:00:00.000Z');
    // Saturday 13:00 local (closed since 12:00), 60 minutes: Monday 09:00 local.
    expect(due('2026-12-05T16:00:00.000Z', 60, office)).toBe('2026-12-07T12:00:00.000Z');
  });

  it('a target longer than a day spans days', () => {
    // Monday 08:00 local, 25 h of business time: Mon 10 h, Tue 10 h, Wed 5 h -> Wednesday 13:00 local.
    expect(due('2026-11-30T11:00:00.000Z', 25 * 60, office)).toBe('2026-12-02T16:00:00.000Z');
    // 30 days of minutes in office hours ends months later, never loops forever.
    expect(Date.parse(due('2026-11-30T11:00:00.000Z', 43_200, office))).toBeGreaterThan(Date.parse('2027-01-01T00:00:00Z'));
  });

  it('an interval running past midnight (a night shift) counts across it', () => {
    const nights: ScheduleEntry[] = [
      day('monday', '22:00', '06:00'),
      day('tuesday', '00:00', '00:00'),
      day('wednesday', '00:00', '00:00'),
      day('thursday', '00:00', '00:00'),
      day('friday', '00:00', '00:00'),
      day('saturday', '00:00', '00:00'),
      day('sunday', '00:00', '00:00'),
    ];
    // Monday 23:00 local, 120 minutes: Tuesday 01:00 local.
    expect(due('2026-12-01T02:00:00.000Z', 120, nights)).toBe('2026-12-01T04:00:00.000Z');
    // Tuesday 05:30 local (Monday's shift still open): 30 minutes there, then next Monday 22:00 + 30.
    expect(due('2026-12-01T08:30:00.000Z', 60, nights)).toBe('2026-12-08T01:30:00.000Z');
  });

  it("counts in the company's time zone, across a DST change", () => {
    // UTC: 08:00-18:00 UTC on a Tuesday.
    expect(due('2026-12-01T07:00:00.000Z', 30, office, 'UTC')).toBe('2026-12-01T08:30:00.000Z');
    // Europe/Lisbon, Saturday 2027-03-27 11:30 (UTC+0), 60 minutes: 30 min Saturday, then Monday 08:30
    // local, which is UTC+1 after the change on Sunday the 28th: 07:30 UTC.
    expect(due('2027-03-27T11:30:00.000Z', 60, office, 'Europe/Lisbon')).toBe('2027-03-29T07:30:00.000Z');
  });
});

const base: SlaTimes = {
  queueId: 1,
  startedAt: '2026-12-01T10:00:00.000Z',
  firstResponseDueAt: '2026-12-01T10:10:00.000Z',
  firstResponseWarnAt: '2026-12-01T10:08:00.000Z',
  resolutionDueAt: '2026-12-01T11:00:00.000Z',
  resolutionWarnAt: '2026-12-01T10:48:00.000Z',
};
const t = (iso: string) => Date.parse(iso);

describe('slaStateAt', () => {
  it('ok, then due soon under 20 % left, then breached', () => {
    expect(slaStateAt(base, t('2026-12-01T10:05:00.000Z'))).toBe('ok');
    expect(slaStateAt(base, t('2026-12-01T10:08:00.000Z'))).toBe('dueSoon');
    expect(slaStateAt(base, t('2026-12-01T10:10:00.001Z'))).toBe('breached');
  });

  it('a first answer in time leaves the resolution target to decide', () => {
    const answered = { ...base, firstRespondedAt: '2026-12-01T10:09:00.000Z' };
    expect(slaStateAt(answered, t('2026-12-01T10:30:00.000Z'))).toBe('ok');
    expect(slaStateAt(answered, t('2026-12-01T10:50:00.000Z'))).toBe('dueSoon');
    expect(slaStateAt(answered, t('2026-12-01T11:01:00.000Z'))).toBe('breached');
    expect(slaStateAt({ ...answered, resolvedAt: '2026-12-01T10:59:00.000Z' }, t('2026-12-02T00:00:00.000Z'))).toBe('met');
  });

  it('a late answer stays breached, also after a close in time', () => {
    const late = { ...base, firstRespondedAt: '2026-12-01T10:11:00.000Z', resolvedAt: '2026-12-01T10:20:00.000Z' };
    expect(slaStateAt(late, t('2026-12-01T10:30:00.000Z'))).toBe('breached');
  });

  it('with one target, that one decides met', () => {
    const firstOnly: SlaTimes = { queueId: 1, startedAt: base.startedAt, firstResponseDueAt: base.firstResponseDueAt };
    expect(slaStateAt({ ...firstOnly, firstRespondedAt: '2026-12-01T10:01:00.000Z' }, t('2026-12-03T00:00:00.000Z'))).toBe('met');
    const resolutionOnly: SlaTimes = { queueId: 1, startedAt: base.startedAt, resolutionDueAt: base.resolutionDueAt };
    expect(slaStateAt({ ...resolutionOnly, firstRespondedAt: '2026-12-01T10:30:00.000Z' }, t('2026-12-01T10:31:00.000Z'))).toBe('ok');
    expect(slaStateAt({ ...resolutionOnly, resolvedAt: '2026-12-01T10:40:00.000Z' }, t('2026-12-01T12:00:00.000Z'))).toBe('met');
  });

  it('a close before the first answer was due ends that clock too', () => {
    expect(slaStateAt({ ...base, resolvedAt: '2026-12-01T10:05:00.000Z' }, t('2026-12-01T12:00:00.000Z'))).toBe('met');
  });

  it('a breach the sweep recorded stands, whatever the clock', () => {
    expect(slaStateAt({ ...base, firstResponseBreachedAt: '2026-12-01T10:10:00.000Z' }, t('2026-12-01T10:05:00.000Z'))).toBe('breached');
  });

  it('no target, no state', () => {
    expect(slaStateAt(undefined, Date.now())).toBeUndefined();
    expect(slaStateAt({ queueId: 1, startedAt: base.startedAt }, Date.now())).toBeUndefined();
    expect(presentSla(null, Date.now())).toBeNull();
  });

  it('presents the due times and what the row counts down to', () => {
    expect(presentSla(base, t('2026-12-01T10:05:00.000Z'))).toEqual({
      firstResponseDueAt: base.firstResponseDueAt,
      resolutionDueAt: base.resolutionDueAt,
      state: 'ok',
      nextDueAt: base.firstResponseDueAt,
      nextWarnAt: base.firstResponseWarnAt,
    });
    const answered = presentSla({ ...base, firstRespondedAt: '2026-12-01T10:06:00.000Z' }, t('2026-12-01T10:07:00.000Z'));
    expect(answered?.nextDueAt).toBe(base.resolutionDueAt);
  });
});
