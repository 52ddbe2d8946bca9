/** The dashboard's two bar charts (SPEC 2), with recharts: this module is loaded lazily by the page. */
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { BarChartCard } from '../../../components/bar-chart-card.tsx';
import { formatDayMonth } from '../../../lib/dates.ts';
import { useTicketsDay, useTicketsUsers } from '../api/dashboard.ts';

export function DashboardCharts({ period }: { period: { from: string; to: string } }) {
  const { t, i18n } = useTranslation();
  const users = useTicketsUsers(period);
  const days = useTicketsDay(period);
  const perDay = (days.data?.data ?? []).map((point) => ({
    label: 'horario' in point ? `${point.horario}h` : formatDayMonth(point.data, i18n.language),
    total: point.total,
  }));
  const perUser = (users.data?.data ?? []).map((point) => ({ label: point.nome, total: point.quantidade }));

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
      <BarChartCard
        title={t('dashboard.ticketsPerAttendant')}
        testId="chart-users"
        data={perUser}
        loaded={users.isSuccess}
        seriesName={t('dashboard.tickets')}
        emptyText={t('dashboard.emptyChart')}
      />
      <BarChartCard
        title={t(period.from === period.to ? 'dashboard.ticketsPerHour' : 'dashboard.ticketsPerDay', { count: days.data?.count ?? 0 })}
        testId="chart-days"
        data={perDay}
        loaded={days.isSuccess}
        seriesName={t('dashboard.tickets')}
        emptyText={t('dashboard.emptyChart')}
        colour="secondary"
      />
    </Box>
  );
}
