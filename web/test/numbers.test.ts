/**
 * Numbers and chart days as the language writes them (issue 25: the dashboard read "1.96 min" and
 * "11-29" in pt and es). One number helper for every screen; the day without its year keeps the
 * language's order.
 */
import { describe, expect, it } from 'vitest';
import { formatDayMonth } from '../src/lib/dates.ts';
import { formatNumber } from '../src/lib/numbers.ts';

describe('formatNumber', () => {
  it('writes the decimal mark of the language: 1,96 in pt and es, 1.96 in en', () => {
    expect(formatNumber(1.96, 'pt')).toBe('1,96');
    expect(formatNumber(1.96, 'es')).toBe('1,96');
    expect(formatNumber(1.96, 'en')).toBe('1.96');
    expect(formatNumber(2, 'pt-BR')).toBe('2');
  });
});

describe('formatDayMonth', () => {
  it('writes dd/MM in pt and es, MM/dd in en', () => {
    expect(formatDayMonth('2099-02-03', 'pt')).toBe('03/02');
    expect(formatDayMonth('2099-02-03', 'es')).toBe('03/02');
    expect(formatDayMonth('2099-02-03', 'en')).toBe('02/03');
  });
});
