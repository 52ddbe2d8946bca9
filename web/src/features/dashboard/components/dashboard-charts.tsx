/** The dashboard's two bar charts (SPEC 2), with recharts: this module is loaded lazily by the page. */
import { Box, Paper, Typography, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDayMonth } from '../../../lib/dates.ts';
import { useTicketsDay, useTicketsUsers } from '../api/dashboard.ts';

/**
 * A chart's card. With nothing to draw (no attendant closed a ticket, no conversation began) it
 * says so in words instead of showing bare axes (issue 25), once its answer is in.
 */
function ChartCard({ title, children, testId, empty }: { title: string; children: React.ReactNode; testId: string; empty: boolean }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ height: 280 }}>
        {empty ? (
          <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', textAlign: 'center', px: 2 }}>
            <Typography color="text.secondary">{t('dashboard.emptyChart')}</Typography>
          </Box>
        ) : (
          children
        )}
      </Box>
    </Paper>
  );
}

export function DashboardCharts({ period }: { period: { from: string; to: string } }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const users = useTicketsUsers(period);
  const days = useTicketsDay(period);
  const perDay = (days.data?.data ?? []).map((point) => ({
    label: 'horario' in point ? `${point.horario}h` : formatDayMonth(point.data, i18n.language),
    total: point.total,
  }));
  const perUser = (users.data?.data ?? []).map((point) => ({ label: point.nome, total: point.quantidade }));
  const axis = { fontSize: 12, fill: theme.palette.text.secondary };

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
      <ChartCard title={t('dashboard.ticketsPerAttendant')} testId="chart-users" empty={users.isSuccess && !perUser.some((p) => p.total)}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={perUser}>
            <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
            <XAxis dataKey="label" tick={axis} />
            <YAxis allowDecimals={false} tick={axis} />
            <Tooltip />
            <Bar dataKey="total" name={t('dashboard.tickets')} fill={theme.palette.primary.main} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard
        title={t(period.from === period.to ? 'dashboard.ticketsPerHour' : 'dashboard.ticketsPerDay', { count: days.data?.count ?? 0 })}
        testId="chart-days"
        empty={days.isSuccess && !perDay.some((p) => p.total)}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={perDay}>
            <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
            <XAxis dataKey="label" tick={axis} />
            <YAxis allowDecimals={false} tick={axis} />
            <Tooltip />
            <Bar dataKey="total" name={t('dashboard.tickets')} fill={theme.palette.secondary.main} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
    </Box>
  );
}
