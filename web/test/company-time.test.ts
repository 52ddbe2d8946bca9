/**
 * One time zone (issue 25): lib/company-time.ts reads instants on the company's clock and takes
 * date-time fields on it, whatever zone the browser is in. The process runs as a browser in Tokyo
 * (TZ) while the company is in São Paulo, so an answer that leaked the runtime's zone would show.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  companyDay,
  companyDayStart,
  companyTimeZone,
  exportInstant,
  fromCompanyInput,
  fromZoned,
  isCompanyToday,
  offsetMinutes,
  setCompanyTimeZone,
  toCompanyInput,
  zoned,
} from '../src/lib/company-time.ts';
import { formatDay, formatDayTime, formatListTime, formatTime } from '../src/lib/dates.ts';

const SAO_PAULO = 'America/Sao_Paulo';

beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterEach(() => setCompanyTimeZone(undefined));

describe('the company clock', () => {
  it('falls back to the browser zone until a known zone is set', () => {
    expect(companyTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    setCompanyTimeZone(SAO_PAULO);
    expect(companyTimeZone()).toBe(SAO_PAULO);
    setCompanyTimeZone('Mars/Olympus');
    expect(companyTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it("shows an instant on the company's clock, not the browser's", () => {
    setCompanyTimeZone(SAO_PAULO);
    const at = '2026-12-01T17:05:00.000Z';
    expect(zoned(at).getHours()).toBe(14);
    expect(formatTime(at)).toBe('14:05');
    expect(formatDayTime(at, 'pt')).toBe('01/12/2026 14:05');
    expect(formatDayTime(new Date(at), 'en')).toBe('12/01/2026 14:05');
    // 01:00 UTC on the 2nd is still the 1st in São Paulo (Tokyo would say the 2nd).
    expect(formatDay('2026-12-02T01:00:00.000Z', 'pt')).toBe('01/12/2026');
    expect(companyDay('2026-12-02T01:00:00.000Z')).toBe('2026-12-01');
    // A calendar day is that day in any zone.
    expect(formatDay('2026-12-10', 'pt')).toBe('10/12/2026');
  });

  it("says HH:mm for the company's today and the day otherwise", () => {
    setCompanyTimeZone(SAO_PAULO);
    const now = new Date('2026-12-01T23:30:00.000Z'); // 20:30 in São Paulo, already the 2nd in Tokyo
    expect(isCompanyToday('2026-12-01T12:00:00.000Z', now)).toBe(true);
    expect(formatListTime('2026-12-01T12:00:00.000Z', 'pt', now)).toBe('09:00');
    expect(formatListTime('2026-11-30T12:00:00.000Z', 'pt', now)).toBe('30/11/2026');
  });

  it('takes a date-time field as company time', () => {
    expect(fromCompanyInput('2026-12-01T14:00', SAO_PAULO)?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(fromCompanyInput('2026-12-01T14:00', 'Asia/Tokyo')?.toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(toCompanyInput('2026-12-01T17:00:00.000Z', SAO_PAULO)).toBe('2026-12-01T14:00');
    setCompanyTimeZone(SAO_PAULO);
    expect(fromCompanyInput('2026-12-01T14:00')?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(fromZoned(zoned('2026-12-01T17:00:00.000Z')).toISOString()).toBe('2026-12-01T17:00:00.000Z');
  });

  it('refuses what is not a date-time, and crosses daylight saving changes', () => {
    for (const bad of ['', '2026-02-31T10:00', '2026-13-01T10:00', '2026-12-01 14:00', '2026-12-01T24:00', 'x'])
      expect(fromCompanyInput(bad, SAO_PAULO), bad).toBeUndefined();
    // New York springs forward at 02:00 on 8 March 2026: 01:30 EST, 03:30 EDT.
    expect(fromCompanyInput('2026-03-08T01:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T06:30:00.000Z');
    expect(fromCompanyInput('2026-03-08T03:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // and falls back at 02:00 on 1 November: 01:30 happens twice, the first (EDT) is taken.
    expect(fromCompanyInput('2026-11-01T01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(offsetMinutes(Date.parse('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-240);
  });

  it("gives a company day's first instant and exports instants with their offset", () => {
    expect(companyDayStart('2026-12-01', SAO_PAULO).toISOString()).toBe('2026-12-01T03:00:00.000Z');
    expect(exportInstant('2026-12-01T17:00:00.000Z', SAO_PAULO)).toBe('2026-12-01T14:00:00-03:00');
    expect(exportInstant('2026-12-01T17:00:00.000Z', 'Asia/Kathmandu')).toBe('2026-12-01T22:45:00+05:45');
    expect(exportInstant(null)).toBe('');
    expect(Date.parse(exportInstant('2026-12-01T17:00:00.000Z', SAO_PAULO))).toBe(Date.parse('2026-12-01T17:00:00.000Z'));
  });
});
