/**
 * The Schedule message dialog and the Schedules calendar's pure rules (SPEC 3 "Schedule message",
 * 2 "Schedules"): the title by status ('Erro de Envio' for ERRO), no save once sent, one hour ahead
 * by default, the datetime-local round trip, one event per send at its time with the contact's name,
 * and the spec's validation messages mapped to the user's language.
 */
import type { Schedule } from '@conversa/functions/contracts/schedule-requests';
import { createScheduleSchema } from '@conversa/functions/contracts/schedule-requests';
import { describe, expect, it } from 'vitest';
import {
  calendarEvents,
  canSave,
  defaultSendAt,
  dialogTitleKey,
  fromLocalInput,
  toLocalInput,
  validationKeys,
} from '../src/features/schedules/api/schedule-rules.ts';
import es from '../src/i18n/locales/es.ts';
import pt from '../src/i18n/locales/pt.ts';

const schedule = (overrides: Partial<Schedule>): Schedule => ({
  id: 1,
  companyId: 1,
  body: 'Lembrete da consulta',
  contactId: 7,
  contact: { id: 7, name: 'Ana', number: '5511999990001', profilePicUrl: '' },
  ticketId: null,
  whatsappId: null,
  sendAt: '2030-01-02T13:00:00.000Z',
  sentAt: null,
  status: 'PENDENTE',
  error: null,
  mediaPath: null,
  mediaName: '',
  userId: 1,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  ...overrides,
});

describe('schedule message dialog', () => {
  it("titles by status, 'Erro de Envio' for an error", () => {
    expect(dialogTitleKey(undefined)).toBe('schedules.dialog.title.PENDENTE');
    expect(dialogTitleKey('ENVIADA')).toBe('schedules.dialog.title.ENVIADA');
    expect(dialogTitleKey('ERRO')).toBe('schedules.dialog.errorTitle');
    expect(pt.schedules.dialog.errorTitle).toBe('Erro de Envio');
  });

  it('hides save once sentAt is set', () => {
    expect(canSave(undefined)).toBe(true);
    expect(canSave(schedule({}))).toBe(true);
    expect(canSave(schedule({ status: 'ENVIADA', sentAt: '2030-01-02T13:00:10.000Z' }))).toBe(false);
  });

  it('defaults the send time to one hour ahead, and round-trips the datetime-local value', () => {
    const now = new Date(2030, 0, 2, 9, 15, 42);
    expect(defaultSendAt(now)).toBe('2030-01-02T10:15');
    expect(fromLocalInput('2030-01-02T10:15')).toBe(new Date(2030, 0, 2, 10, 15).toISOString());
    expect(toLocalInput(fromLocalInput('2030-01-02T10:15'))).toBe('2030-01-02T10:15');
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('not a date')).toBe('');
  });

  it("shows the spec's messages in the user's language", () => {
    const issues = createScheduleSchema.safeParse({ body: 'oi' }).error?.issues ?? [];
    const keys = issues.map((issue) => validationKeys[issue.message]);
    expect(keys).toEqual(['schedules.validation.tooShort', 'schedules.validation.required', 'schedules.validation.required']);
    expect(es.schedules.validation).toMatchObject({ tooShort: 'mensaje muy corto', required: 'Obligatorio' });
  });
});

describe('schedules calendar', () => {
  it("makes one event per scheduled send at its send time, titled with the contact's name", () => {
    const events = calendarEvents([schedule({}), schedule({ id: 2, contact: null, contactId: 9, sendAt: '2030-01-03T08:00:00.000Z' })]);
    expect(events.map((e) => [e.id, e.title, e.start.toISOString(), e.end.toISOString()])).toEqual([
      [1, 'Ana', '2030-01-02T13:00:00.000Z', '2030-01-02T13:00:00.000Z'],
      [2, '#9', '2030-01-03T08:00:00.000Z', '2030-01-03T08:00:00.000Z'],
    ]);
  });
});
