/**
 * The schedule screens' rules (SPEC 3 "Schedule message", 2 "Schedules"), kept pure so they are
 * unit-tested: the dialog's title by status, when it may save, the default send time, the
 * datetime-local conversions, the calendar's events and the validation messages' keys.
 */
import type { Schedule, ScheduleStatus } from '@conversa/functions/contracts/schedule-requests';
import { scheduleMessages } from '@conversa/functions/contracts/schedule-requests';
import { addHours, format } from 'date-fns';

/** SPEC 3: the title shows the status; an error status shows 'Erro de Envio'. A new one is PENDENTE. */
export const dialogTitleKey = (status: ScheduleStatus | undefined): string =>
  status === 'ERRO' ? 'schedules.dialog.errorTitle' : `schedules.dialog.title.${status ?? 'PENDENTE'}`;

/** SPEC 3: the save button is hidden once sentAt is set. */
export const canSave = (schedule: Pick<Schedule, 'sentAt'> | undefined): boolean => !schedule?.sentAt;

const LOCAL_INPUT = "yyyy-MM-dd'T'HH:mm";

/** The value of a `datetime-local` input for an instant, in the browser's time zone. */
export const toLocalInput = (at: Date | string): string => format(typeof at === 'string' ? new Date(at) : at, LOCAL_INPUT);

/** SPEC 3: the default send time is one hour ahead. */
export const defaultSendAt = (now = new Date()): string => toLocalInput(addHours(now, 1));

/** The instant a `datetime-local` value means here, as the API takes it; '' when empty or invalid. */
export function fromLocalInput(value: string): string {
  // A date-time without an offset is local time (ECMAScript's date-time string format).
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return '';
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? '' : parsed.toISOString();
}

export interface ScheduleEventItem {
  id: number;
  title: string;
  start: Date;
  end: Date;
  schedule: Schedule;
}

/** SPEC 2 "Schedules": one event per scheduled send, at its send time, titled with the contact's name. */
export const calendarEvents = (schedules: Schedule[]): ScheduleEventItem[] =>
  schedules.map((schedule) => {
    const start = new Date(schedule.sendAt);
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
