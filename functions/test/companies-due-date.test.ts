import { describe, expect, it } from 'vitest';
import { addDays, addMonths, extendDueDate, trialDueDate } from '#domain/companies/due-date';

describe('due-date arithmetic', () => {
  it('gives a signup trial due 3 days after today, across a month end', () => {
    // Prepare
    const today = '2025-01-30';
    // Act
    const due = trialDueDate(today);
    // Assess
    expect(due).toBe('2025-02-02');
  });

  it('adds days across a leap day', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
  });

  it('clamps month addition to the last day of the target month', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-08-31', 6)).toBe('2026-02-28');
    expect(addMonths('2025-11-15', 2)).toBe('2026-01-15');
  });

  it('extends a due date by the recurrence period', () => {
    expect(extendDueDate('2025-03-10', 'MENSAL', '2025-01-01')).toBe('2025-04-10');
    expect(extendDueDate('2025-03-10', 'BIMESTRAL', '2025-01-01')).toBe('2025-05-10');
    expect(extendDueDate('2025-03-10', 'TRIMESTRAL', '2025-01-01')).toBe('2025-06-10');
    expect(extendDueDate('2025-03-10', 'SEMESTRAL', '2025-01-01')).toBe('2025-09-10');
    expect(extendDueDate('2025-03-10', 'ANUAL', '2025-01-01')).toBe('2026-03-10');
  });

  it('extends from today when the company has no due date', () => {
    expect(extendDueDate(null, 'MENSAL', '2025-05-20')).toBe('2025-06-20');
  });

  it('refuses a malformed day instead of producing an invalid date', () => {
    expect(() => addDays('20-01-2025', 1)).toThrow(RangeError);
  });
});
