/**
 * react-big-calendar with its date-fns localizer (date-fns is already the app's date library) in
 * the app's three languages, and the calendar's CSS re-coloured from the MUI theme so it follows
 * light and dark mode.
 */
import type { Theme } from '@mui/material';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import { type DateRange, dateFnsLocalizer, type Formats } from 'react-big-calendar';
import { dateLocale, formatDay, formatDayMonth } from '../../../lib/dates.ts';

export const calendarLocalizer = () => dateFnsLocalizer({ format, parse, startOfWeek, getDay, locales: { pt: ptBR, en: enUS, es } });

/**
 * The calendar's dates hold the company's clock in their local fields already (schedule-rules.ts
 * `zoned`): written as the calendar day they name, not read again as instants.
 */
const calendarDay = (date: Date) => format(date, 'yyyy-MM-dd');

/** A range as the app writes days (lib/dates.ts): 29/11/2026 – 29/12/2026 in pt and es, month first in en. */
const dayRange = ({ start, end }: DateRange, culture?: string) =>
  `${formatDay(calendarDay(start), culture)} – ${formatDay(calendarDay(end), culture)}`;

/**
 * Every day the calendar writes goes through the app's one date helper, in the interface language
 * (issue 25: the agenda's header said 12/01/2026 in en while its rows said "Tue 02/12", a fixed
 * dd/MM). Short agenda days (`dom 22/11`, `Sun 11/22`) and 24-hour times, so the agenda fits a phone.
 */
export const calendarFormats: Formats = {
  agendaDateFormat: (date, culture) =>
    `${format(date, 'EEE', { locale: dateLocale(culture) })} ${formatDayMonth(calendarDay(date), culture)}`,
  agendaHeaderFormat: dayRange,
  dayRangeHeaderFormat: dayRange,
  agendaTimeFormat: 'HH:mm',
  timeGutterFormat: 'HH:mm',
};

export const calendarStyles = (theme: Theme) => ({
  '& .rbc-calendar': { fontFamily: theme.typography.fontFamily, color: theme.palette.text.primary },
  '& .rbc-month-view, & .rbc-time-view, & .rbc-agenda-view table.rbc-agenda-table, & .rbc-header, & .rbc-month-row + .rbc-month-row, & .rbc-day-bg + .rbc-day-bg, & .rbc-time-content, & .rbc-time-header-content, & .rbc-timeslot-group, & .rbc-day-slot .rbc-time-slot, & .rbc-time-content > * + * > *, & .rbc-agenda-view table.rbc-agenda-table tbody > tr > td + td, & .rbc-agenda-view table.rbc-agenda-table tbody > tr + tr':
    { borderColor: theme.palette.divider },
  '& .rbc-off-range-bg': { backgroundColor: theme.palette.action.hover },
  // Days of the next/previous month stay readable (WCAG AA): secondary text, not the disabled tone.
  '& .rbc-off-range': { color: theme.palette.text.secondary },
  '& .rbc-today': { backgroundColor: theme.palette.action.selected },
  '& .rbc-toolbar': { gap: 1, flexWrap: 'wrap' },
  '& .rbc-toolbar .rbc-toolbar-label': { fontWeight: 600, textTransform: 'capitalize' },
  '& .rbc-header': { textTransform: 'capitalize', py: 0.5 },
  '& .rbc-toolbar button': {
    color: theme.palette.text.primary,
    borderColor: theme.palette.divider,
    fontFamily: theme.typography.fontFamily,
    textTransform: 'capitalize',
  },
  '& .rbc-toolbar button:hover, & .rbc-toolbar button:focus': { backgroundColor: theme.palette.action.hover },
  '& .rbc-toolbar button.rbc-active, & .rbc-toolbar button:active': {
    backgroundColor: theme.palette.primary.main,
    color: theme.palette.primary.contrastText,
    boxShadow: 'none',
  },
  '& .rbc-show-more': { color: theme.palette.primary.main, backgroundColor: 'transparent' },
  '& .rbc-overlay': { backgroundColor: theme.palette.background.paper, borderColor: theme.palette.divider },
  '& .rbc-event, & .rbc-day-slot .rbc-background-event': { borderRadius: 1, padding: '0 4px' },
  '& .rbc-event.schedule-event-waiting': { backgroundColor: theme.palette.primary.main, color: theme.palette.primary.contrastText },
  '& .rbc-event.schedule-event-sent': { backgroundColor: theme.palette.grey[500], color: theme.palette.common.white },
  '& .rbc-event.schedule-event-failed': { backgroundColor: theme.palette.error.main, color: theme.palette.error.contrastText },
  '& .rbc-agenda-view table.rbc-agenda-table thead > tr > th, & .rbc-agenda-view table.rbc-agenda-table tbody > tr > td': {
    padding: '4px 6px',
    whiteSpace: 'nowrap',
  },
  '& .rbc-agenda-view .schedule-event': { backgroundColor: 'transparent !important', color: `${theme.palette.text.primary} !important` },
});
