import { describe, expect, it } from 'vitest';
import { formatPhoneNumber } from '../src/lib/phone-numbers.ts';

describe('formatPhoneNumber', () => {
  it('groups a stored number as its country writes it, with its country code', () => {
    expect(formatPhoneNumber('5511987654321')).toBe('+55 11 98765 4321');
    expect(formatPhoneNumber('551133334444')).toBe('+55 11 3333 4444');
    expect(formatPhoneNumber('+14155550123')).toBe('+1 415 555 0123');
    expect(formatPhoneNumber('5491123456789')).toBe('+54 9 11 2345 6789');
  });

  it('shows what is not a valid phone number as stored', () => {
    expect(formatPhoneNumber('120363025246125486', true)).toBe('120363025246125486');
    expect(formatPhoneNumber('5511987654321', true)).toBe('5511987654321');
    expect(formatPhoneNumber('1234')).toBe('1234');
    expect(formatPhoneNumber('5500000000000')).toBe('5500000000000');
    expect(formatPhoneNumber('81234567890123@lid')).toBe('81234567890123@lid');
    expect(formatPhoneNumber('')).toBe('');
    expect(formatPhoneNumber(undefined)).toBe('');
  });
});
