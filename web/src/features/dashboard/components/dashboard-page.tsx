import AccessTimeOutlined from '@mui/icons-material/AccessTimeOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import TimerOutlined from '@mui/icons-material/TimerOutlined';
import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayField } from '../../../components/date-fields.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { formatDay } from '../../../lib/dates.ts';
import { formatNumber } from '../../../lib/numbers.ts';
import { type DashboardFilter, useDashboard } from '../api/dashboard.ts';
import { useDashboardLive } from '../hooks/use-dashboard-live.ts';
import { AttendantsTable } from './attendants-table.tsx';

/** recharts comes with the charts only: the counters and the table show without waiting for it. */
const DashboardCharts = lazy(() => import('./dashboard-charts.tsx').then((m) => ({ default: m.DashboardCharts })));

/** SPEC 9: the period select's options. */
const PERIODS = [3, 7, 15, 30, 60, 90] as const;

function Counter({ icon, label, value, testId }: { icon: ReactNode; label: string; value: ReactNode; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center' }}>
      <Box sx={{ color: 'primary.main', display: 'flex' }}>{icon}</Box>
      <Box>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" data-testid={testId}>
          {value}
        </Typography>
      </Box>
    </Paper>
  );
}

/** The admin dashboard (/): SPEC 2 "Dashboard", from GET /dashboard and its two chart routes. */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const [draft, setDraft] = useState<{ type: 'dates' | 'period'; from: string; to: string; days: number | '' }>({
    type: 'dates',
    from: '',
    to: '',
    days: '',
  });
  const [applied, setApplied] = useState<DashboardFilter>({ type: 'default' });
  const [invalid, setInvalid] = useState(false);
  const dashboard = useDashboard(applied);
  useDashboardLive(user?.companyId);
  const data = dashboard.data;
  // The server's default period fills the date inputs until the user picks their own.
  useEffect(() => {
    if (data && applied.type === 'default') setDraft((d) => (d.from || d.to ? d : { ...d, from: data.period.from, to: data.period.to }));
  }, [data, applied.type]);

  const apply = () => {
    // SPEC 5: with neither a period nor dates, ask for the filter.
    const ready = draft.type === 'period' ? draft.days !== '' : Boolean(draft.from && draft.to);
    setInvalid(!ready);
    if (!ready) return;
    setApplied(draft.type === 'period' ? { type: 'period', days: Number(draft.days) } : { type: 'dates', from: draft.from, to: draft.to });
  };
  const minutes = (value: number | undefined) =>
    value === undefined ? '-' : t('dashboard.minutes', { value: formatNumber(value, i18n.language) });

  return (
    <>
      <PageHeader title={t('menu.dashboard')} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' }, mb: 3 }}>
        <Counter
          icon={<ForumOutlined />}
          label={t('dashboard.inConversation')}
          value={data?.counters.supportHappening ?? '-'}
          testId="counter-happening"
        />
        <Counter
          icon={<HourglassEmptyOutlined />}
          label={t('dashboard.waiting')}
          value={data?.counters.supportPending ?? '-'}
          testId="counter-pending"
        />
        <Counter
          icon={<CheckCircleOutline />}
          label={t('dashboard.finished')}
          value={data?.counters.supportFinished ?? '-'}
          testId="counter-finished"
        />
        <Counter
          icon={<PersonAddAltOutlined />}
          label={t('dashboard.newContacts')}
          value={data?.counters.leads ?? '-'}
          testId="counter-leads"
        />
        <Counter
          icon={<TimerOutlined />}
          label={t('dashboard.avgSupportTime')}
          value={minutes(data?.counters.avgSupportTime)}
          testId="counter-support-time"
        />
        <Counter
          icon={<AccessTimeOutlined />}
          label={t('dashboard.avgWaitTime')}
          value={minutes(data?.counters.avgWaitTime)}
          testId="counter-wait-time"
        />
      </Box>

      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <TextField
            select
            size="small"
            label={t('dashboard.filterType')}
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: e.target.value as 'dates' | 'period' })}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="dates">{t('dashboard.byDates')}</MenuItem>
            <MenuItem value="period">{t('dashboard.byPeriod')}</MenuItem>
          </TextField>
          {draft.type === 'dates' ? (
            <>
              <DayField
                size="small"
                name="from"
                label={t('dashboard.from')}
                value={draft.from}
                onChange={(from) => setDraft((current) => ({ ...current, from }))}
              />
              <DayField
                size="small"
                name="to"
                label={t('dashboard.to')}
                value={draft.to}
                onChange={(to) => setDraft((current) => ({ ...current, to }))}
              />
            </>
          ) : (
            <TextField
              select
              size="small"
              label={t('dashboard.period')}
              value={draft.days}
              onChange={(e) => setDraft({ ...draft, days: Number(e.target.value) })}
              sx={{ minWidth: 180 }}
            >
              {PERIODS.map((days) => (
                <MenuItem key={days} value={days}>
                  {t('dashboard.lastDays', { count: days })}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button variant="contained" onClick={apply}>
            {t('dashboard.filter')}
          </Button>
          {dashboard.isFetching && <Spinner size={20} aria-label={t('dashboard.loading')} />}
        </Stack>
        {invalid && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('dashboard.setUpFilter')}
          </Alert>
        )}
        {dashboard.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t('dashboard.loadError')}
          </Alert>
        )}
        {data && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }} data-testid="dashboard-period">
            {t('dashboard.periodShown', {
              from: formatDay(data.period.from, i18n.language),
              to: formatDay(data.period.to, i18n.language),
              timeZone: data.period.timeZone,
            })}
          </Typography>
        )}
      </Paper>

      <AttendantsTable attendants={data?.attendants ?? []} loading={dashboard.isPending} />

      <Suspense
        fallback={
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
            <Spinner aria-label={t('dashboard.loading')} />
          </Box>
        }
      >
        {data && <DashboardCharts period={data.period} />}
      </Suspense>
    </>
  );
}
