/**
 * Billing's browser rules (issue 12): who is sent to billing (a company past its due date, super
 * users never), the trial days left of /subscription, the money shown on the invoices.
 */
import { describe, expect, it } from 'vitest';
import { daysLeft, isCompanyExpired, licenceEnd } from '../src/features/billing/components/billing-dates.ts';
import { BILLING_PATHS } from '../src/features/billing/components/expired-gate.tsx';
import { formatMoney } from '../src/lib/money.ts';

const user = (dueDate: string | null, isSuper = false) => ({ super: isSuper, company: { id: 1, name: 'C', dueDate, settings: [] } });

describe('billing rules', () => {
  it('sends a company past its due date to billing, not on the due date itself, never a super user', () => {
    expect(isCompanyExpired(user('2030-01-09'), '2030-01-10')).toBe(true);
    expect(isCompanyExpired(user('2030-01-10'), '2030-01-10')).toBe(false);
    expect(isCompanyExpired(user(null), '2030-01-10')).toBe(false);
    expect(isCompanyExpired(user('2020-01-01', true), '2030-01-10')).toBe(false);
    expect(isCompanyExpired(undefined, '2030-01-10')).toBe(false);
    expect(BILLING_PATHS).toEqual(['/financeiro', '/subscription']);
  });

  it('counts trial days left in calendar days', () => {
    expect(daysLeft('2030-01-13', '2030-01-10')).toBe(3);
    expect(daysLeft('2030-01-09', '2030-01-10')).toBe(-1);
  });

  it('shows every amount in the platform currency, BRL, with the language digits (issue 25: the wizard said COP$)', () => {
    // Intl separates R$ from the digits with a non-breaking space.
    const plain = (text: string) => text.replace(/\s/g, ' ');
    expect(plain(formatMoney(79.9, 'pt'))).toBe('R$ 79,90');
    expect(plain(formatMoney(99.9, 'pt-BR'))).toBe('R$ 99,90');
    expect(plain(formatMoney(1234.5, 'en'))).toBe('R$1,234.50');
    expect(plain(formatMoney(1234.5, 'es'))).toBe('1234,50 R$');
    expect(plain(formatMoney(0, 'xx'))).toBe('0,00 R$');
  });

  it('counts down the trial while it runs, and the licence once a payment moved the due date past it', () => {
    // Signup: trial and due date end the same day
    expect(licenceEnd({ trialExpiration: '2030-01-04', dueDate: '2030-01-04' })).toEqual({ end: '2030-01-04', trial: true });
    // Paid: the due date moved on a month, the trial's end stays behind
    expect(licenceEnd({ trialExpiration: '2030-01-04', dueDate: '2030-02-04' })).toEqual({ end: '2030-02-04', trial: false });
    // A company made by the super admin has no trial
    expect(licenceEnd({ trialExpiration: null, dueDate: '2030-02-04' })).toEqual({ end: '2030-02-04', trial: false });
    expect(licenceEnd(undefined, '2030-03-01')).toEqual({ end: '2030-03-01', trial: false });
    expect(licenceEnd({ trialExpiration: null, dueDate: null })).toEqual({ end: null, trial: false });
  });
});
