/**
 * Billing's browser rules (issue 12): who is sent to billing (a company past its due date, super
 * users never), the trial days left of /subscription, the money shown on the invoices.
 */
import { describe, expect, it } from 'vitest';
import { brl, daysLeft, isCompanyExpired, licenceEnd } from '../src/features/billing/components/billing-dates.ts';
import { BILLING_PATHS } from '../src/features/billing/components/expired-gate.tsx';

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

  it('counts trial days left in calendar days and shows BRL with a comma', () => {
    expect(daysLeft('2030-01-13', '2030-01-10')).toBe(3);
    expect(daysLeft('2030-01-09', '2030-01-10')).toBe(-1);
    expect(brl(79.9)).toBe('R$ 79,90');
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
