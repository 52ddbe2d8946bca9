/**
 * One date format per language (issue 14: dd/mm/yyyy in tables beside an mm/dd/yyyy date picker).
 * The helper writes a day as the language's short date, the order the browser's date input uses for
 * that locale, and the day of a date-only string is that calendar day in any time zone.
 */
import { describe, expect, it } from 'vitest';
import { dateLocale, formatDay, formatDayTime, formatShortDayTime } from '../src/lib/dates.ts';

describe('formatDay', () => {
  it("writes the language's order: day first in pt and es, month first in en", () => {
    expect(formatDay('2099-12-31', 'pt')).toBe('31/12/2099');
    expect(formatDay('2099-12-31', 'es')).toBe('31/12/2099');
    expect(formatDay('2099-12-31', 'en')).toBe('12/31/2099');
    expect(formatDay('2099-02-03', 'pt-BR')).toBe('03/02/2099');
  });

  it('agrees with the browser locale a date input follows (Intl) for each language', () => {
    const day = new Date(2099, 1, 3);
    for (const [language, tag] of [
      ['pt', 'pt-BR'],
      ['en', 'en-US'],
      ['es', 'es-ES'],
    ] as const) {
      const intl = new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric' }).format(day);
      expect(formatDay(day, language), language).toBe(intl);
    }
  });

  it('adds the time as HH:mm, and falls back to Spanish for an unknown language', () => {
    expect(formatDayTime(new Date(2099, 11, 31, 14, 5), 'en')).toBe('12/31/2099 14:05');
    expect(dateLocale('fr').code).toBe('es');
  });
});

describe('formatShortDayTime', () => {
  it("keeps the language's order with a two-digit year", () => {
    const at = new Date(2026, 2, 5, 9, 7);
    expect(formatShortDayTime(at, 'pt')).toBe('05/03/26 09:07');
    expect(formatShortDayTime(at, 'es')).toBe('05/03/26 09:07');
    expect(formatShortDayTime(at, 'en')).toBe('03/05/26 09:07');
  });
});
