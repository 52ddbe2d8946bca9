/**
 * The schedule screens' rules (SPEC 3 "Schedule message", 2 "Schedules"), kept pure so they are
 * unit-tested: the dialog's title by status, when it may save, the default send time, the
 * datetime-local conversions, the calendar's events and the validation messages' keys.
 */
import type { Schedule, ScheduleStatus } from '@conversa/functions/contracts/schedule-requests';
import { scheduleMessages } from '@conversa/functions/contracts/schedule-requests';
import { addHours } from 'date-fns';
import { fromCompanyInput, toCompanyInput, zoned } from '../../../lib/company-time.ts';

/** SPEC 3: the title shows the status; an error status shows 'Erro de Envio'. A new one is PENDENTE. */
export const dialogTitleKey = (status: ScheduleStatus | undefined): string =>
  status === 'ERRO' ? 'schedules.dialog.errorTitle' : `schedules.dialog.title.${status ?? 'PENDENTE'}`;

/** SPEC 3: the save button is hidden once sentAt is set. */
export const canSave = (schedule: Pick<Schedule, 'sentAt'> | undefined): boolean => !schedule?.sentAt;

/**
 * The value of the date-time field for an instant: the company's clock, not the browser's (issue 25
 * "One time zone", lib/company-time.ts).
 */
export const toLocalInput = (at: Date | string): string => toCompanyInput(at);

/** SPEC 3: the default send time is one hour ahead. */
export const defaultSendAt = (now = new Date()): string => toLocalInput(addHours(now, 1));

/** The instant a date-time field's value means on the company's clock, as the API takes it; '' when empty or invalid. */
export function fromLocalInput(value: string): string {
  return fromCompanyInput(value)?.toISOString() ?? '';
}

export interface ScheduleEventItem {
  id: number;
  title: string;
  start: Date;
  end: Date;
  schedule: Schedule;
}

/**
 * SPEC 2 "Schedules": one event per scheduled send, at its send time, titled with the contact's name.
 * The calendar lays events out by their local fields: `zoned` puts the company's clock there.
 */
export const calendarEvents = (schedules: Schedule[]): ScheduleEventItem[] =>
  schedules.map((schedule) => {
    const start = zoned(schedule.sendAt);
    return { id: schedule.id, title: schedule.contact?.name ?? `#${schedule.contactId}`, start, end: start, schedule };
  });

/** The contract's messages (SPEC 5: 'mensaje muy corto', 'Obligatorio') in the current language. */
export const validationKeys: Record<string, string> = {
  [scheduleMessages.tooShort]: 'schedules.validation.tooShort',
  [scheduleMessages.required]: 'schedules.validation.required',
  'Invalid date': 'schedules.validation.required',
  'Too Long!': 'schedules.validation.tooLong',
};

/** How an event is coloured: waiting ones in the primary colour, sent ones greyed out, failed ones red. */
export const statusTone = (status: ScheduleStatus): 'waiting' | 'sent' | 'failed' =>
  status === 'ENVIADA' ? 'sent' : status === 'ERRO' ? 'failed' : 'waiting';
