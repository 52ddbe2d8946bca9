/** The web shell's pure rules, each named after the SPEC line it implements. */
import { describe, expect, it } from 'vitest';
import { hasConnectionAlert, hasUnreadChats } from '../src/app/layout/menu-badges.ts';
import { maskPhone } from '../src/features/auth/api/phone-mask.ts';
import { dueDateTone, extendDueDate } from '../src/features/companies/api/due-date.ts';
import { maskTime } from '../src/features/settings/components/schedules-tab.tsx';
import { normaliseLanguage } from '../src/i18n/index.ts';
import { ApiError } from '../src/lib/api-client.ts';
import { errorMessage } from '../src/lib/errors.ts';

const today = new Date(2026, 0, 10);
const day = (offset: number) => {
  const d = new Date(2026, 0, 10 + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('company due-date row colours (SPEC 4)', () => {
  it('is yellow at 5 days ahead, orange from 3 overdue to 4 ahead, red at exactly 4 overdue', () => {
    expect(dueDateTone(day(6), today)).toBeUndefined();
    expect(dueDateTone(day(5), today)).toBe('yellow');
    for (const offset of [4, 0, -3]) expect(dueDateTone(day(offset), today)).toBe('orange');
    expect(dueDateTone(day(-4), today)).toBe('red');
    expect(dueDateTone(day(-5), today)).toBeUndefined();
    expect(dueDateTone(null, today)).toBeUndefined();
  });

  it('"+ Vencimiento" adds the recurrence period', () => {
    expect(extendDueDate('2026-01-31', 'MENSAL')).toBe('2026-02-28');
    expect(extendDueDate('2026-01-10', 'TRIMESTRAL')).toBe('2026-04-10');
    expect(extendDueDate('2026-01-10', 'ANUAL')).toBe('2027-01-10');
  });
});

describe('input masks (SPEC 5)', () => {
  it('masks the signup phone as (99) 99999-9999 with at most 11 digits', () => {
    expect(maskPhone('11987654321999')).toBe('(11) 98765-4321');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('abc')).toBe('');
  });

  it('masks schedule times as four-digit HH:MM', () => {
    expect(maskTime('0830')).toBe('08:30');
    expect(maskTime('08:3012')).toBe('08:30');
    expect(maskTime('8')).toBe('8');
  });
});

describe('languages (SPEC 1)', () => {
  it('maps the stored ptBR and browser tags to pt, en, es', () => {
    expect(normaliseLanguage('ptBR')).toBe('pt');
    expect(normaliseLanguage('pt-BR')).toBe('pt');
    expect(normaliseLanguage('en-US')).toBe('en');
    expect(normaliseLanguage('es')).toBe('es');
    expect(normaliseLanguage('fr')).toBeUndefined();
  });
});

describe('menu badges (SPEC 2)', () => {
  it('flags connections needing attention and unread chats of this user only', () => {
    expect(hasConnectionAlert([{ status: 'CONNECTED' }])).toBe(false);
    expect(hasConnectionAlert([{ status: 'CONNECTED' }, { status: 'qrcode' }])).toBe(true);
    expect(hasUnreadChats([{ users: [{ userId: 2, unreads: 3 }] }], 1)).toBe(false);
    expect(hasUnreadChats([{ users: [{ userId: 1, unreads: 1 }] }], 1)).toBe(true);
  });
});

describe('error messages (SPEC 8)', () => {
  const translations: Record<string, string> = { 'backendErrors.ERR_NO_PERMISSION': 'Sin permiso', 'errors.generic': 'An error occurred!' };
  const t = ((key: string) => translations[key] ?? key) as never;
  const exists = (key: string) => key in translations;

  it('shows the translation of a known code, the raw code otherwise, a validation message as is', () => {
    expect(errorMessage(new ApiError(403, { error: 'ERR_NO_PERMISSION' }), t, exists)).toBe('Sin permiso');
    expect(errorMessage(new ApiError(400, { error: 'ERR_SOMETHING_NEW' }), t, exists)).toBe('ERR_SOMETHING_NEW');
    expect(errorMessage(new ApiError(400, { error: 'ERR_VALIDATION', field: 'name', message: 'Too Short!' }), t, exists)).toBe(
      'Too Short!',
    );
    expect(errorMessage(new ApiError(402, { error: 'ERR_COMPANY_EXPIRED', message: '¡Opss! Tu suscripción venció' }), t, exists)).toBe(
      '¡Opss! Tu suscripción venció',
    );
    expect(errorMessage(new ApiError(500, 'plain text'), t, exists)).toBe('plain text');
    expect(errorMessage(new Error('boom'), t, exists)).toBe('An error occurred!');
  });
});
