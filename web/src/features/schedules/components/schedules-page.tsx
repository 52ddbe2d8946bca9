import 'react-big-calendar/lib/css/react-big-calendar.css';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { Alert, Box, Button, IconButton, LinearProgress, Paper, Typography, useMediaQuery, useTheme } from '@mui/material';
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import { Calendar, type EventProps, type View, Views } from 'react-big-calendar';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { zoned } from '../../../lib/company-time.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { calendarEvents, type ScheduleEventItem, statusTone } from '../api/schedule-rules.ts';
import { type Schedule, useDeleteSchedule, useSchedulesPages } from '../api/schedules.ts';
import { useSchedulesLive } from '../hooks/use-schedules-live.ts';
import { calendarFormats, calendarLocalizer, calendarStyles } from './calendar-setup.ts';
import { ScheduleDialog, type ScheduleDialogProps } from './schedule-dialog.tsx';

type Editing = Pick<ScheduleDialogProps, 'schedule' | 'preset'>;

/** The event cell's icons act on the page's dialogs; a context keeps the cell component stable. */
const ScheduleActions = createContext<{ edit: (schedule: Schedule) => void; remove: (schedule: Schedule) => void }>({
  edit: () => {},
  remove: () => {},
});

/** An event: the contact's name, then edit and delete (SPEC 2 "Schedules"); the body is its tooltip. */
function ScheduleEventCell({ event }: EventProps<ScheduleEventItem>) {
  const { t } = useTranslation();
  const actions = useContext(ScheduleActions);
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 0.25, minWidth: 0 }}
      data-testid="schedule-event"
      data-schedule-id={event.id}
      title={event.schedule.body}
    >
      <Typography variant="caption" noWrap sx={{ flex: 1, minWidth: 0, fontWeight: 600, color: 'inherit' }}>
        {event.title}
      </Typography>
      <IconButton
        size="small"
        aria-label={t('common.edit')}
        title={t('common.edit')}
        sx={{ color: 'inherit', p: 0.25 }}
        onClick={(e) => {
          e.stopPropagation();
          actions.edit(event.schedule);
        }}
      >
        <EditOutlined sx={{ fontSize: 16 }} />
      </IconButton>
      <IconButton
        size="small"
        aria-label={t('common.delete')}
        title={t('common.delete')}
        sx={{ color: 'inherit', p: 0.25 }}
        onClick={(e) => {
          e.stopPropagation();
          actions.remove(event.schedule);
        }}
      >
        <DeleteOutline sx={{ fontSize: 16 }} />
      </IconButton>
    </Box>
  );
}

const calendarComponents = { event: ScheduleEventCell };

/**
 * SPEC 2 "Schedules": a calendar of events, one per scheduled send at its send time, each with the
 * contact's name and edit and delete icons; a search box, an add button and the count in the title.
 * `?contactId=` opens the add dialog for that contact. Every page of the list is read (the
 * calendar shows them all), and `company-{id}-schedule` keeps it current.
 */
export function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  useSchedulesLive(user?.companyId);
  const errorMessage = useApiErrorMessage();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const pages = useSchedulesPages(searchParam);
  const remove = useDeleteSchedule();
  const deletion = useConfirmedDelete((schedule: Schedule) => remove.mutateAsync(schedule.id), t('schedules.deleted'));
  const [editing, setEditing] = useState<Editing | undefined>(undefined);
  // A phone's month cells are too narrow for a name: it starts on the agenda (a list by day).
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [view, setView] = useState<View>(narrow ? Views.AGENDA : Views.MONTH);
  // The calendar's days are the company's (lib/company-time.ts), its today too.
  const [date, setDate] = useState(() => zoned(new Date()));

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // `?contactId=`: the add dialog for that contact, once; the parameter leaves the URL with the dialog.
  const presetContact = Number(params.get('contactId'));
  useEffect(() => {
    if (Number.isInteger(presetContact) && presetContact > 0) setEditing({ preset: { contactId: presetContact } });
  }, [presetContact]);
  const close = () => {
    setEditing(undefined);
    if (params.has('contactId')) {
      params.delete('contactId');
      setParams(params, { replace: true });
    }
  };

  const schedules = useMemo(() => pages.data?.pages.flatMap((page) => page.schedules) ?? [], [pages.data]);
  const events = useMemo(() => calendarEvents(schedules), [schedules]);
  const localizer = useMemo(() => calendarLocalizer(), []);
  const actions = useMemo(() => ({ edit: (schedule: Schedule) => setEditing({ schedule }), remove: deletion.ask }), [deletion.ask]);

  return (
    <>
      <PageHeader
        title={t('schedules.title', { count: schedules.length })}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({})} sx={{ flexShrink: 0 }}>
              {t('schedules.add')}
            </Button>
          </>
        }
      />
      {pages.error && <Alert severity="error">{errorMessage(pages.error)}</Alert>}
      <ScheduleActions.Provider value={actions}>
        <Paper variant="outlined" sx={[{ p: { xs: 1, sm: 2 }, position: 'relative' }, calendarStyles]} data-testid="schedules-calendar">
          {(pages.isPending || pages.isFetching) && (
            <LinearProgress aria-label={t('common.loading')} sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />
          )}
          <Calendar<ScheduleEventItem>
            localizer={localizer}
            culture={i18n.language}
            events={events}
            view={view}
            onView={setView}
            date={date}
            getNow={() => zoned(new Date())}
            onNavigate={setDate}
            views={[Views.MONTH, Views.WEEK, Views.DAY, Views.AGENDA]}
            popup
            formats={calendarFormats}
            style={{ height: 'calc(100vh - 220px)', minHeight: 520 }}
            components={calendarComponents}
            onSelectEvent={(event) => setEditing({ schedule: event.schedule })}
            eventPropGetter={(event) => ({ className: `schedule-event schedule-event-${statusTone(event.schedule.status)}` })}
            messages={{
              today: t('schedules.calendar.today'),
              previous: t('schedules.calendar.previous'),
              next: t('schedules.calendar.next'),
              month: t('schedules.calendar.month'),
              week: t('schedules.calendar.week'),
              day: t('schedules.calendar.day'),
              agenda: t('schedules.calendar.agenda'),
              date: t('schedules.calendar.date'),
              time: t('schedules.calendar.time'),
              event: t('schedules.calendar.event'),
              noEventsInRange: t('schedules.calendar.noEvents'),
              showMore: (count: number) => t('schedules.calendar.more', { count }),
            }}
          />
        </Paper>
      </ScheduleActions.Provider>
      {editing && <ScheduleDialog {...editing} onClose={close} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('schedules.deleteTitle', { name: deletion.target?.contact?.name ?? '' })}
        message={t('schedules.deleteMessage')}
      />
    </>
  );
}
