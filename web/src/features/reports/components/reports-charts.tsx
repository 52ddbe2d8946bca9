/** The reports' charts with recharts (the dashboard's library): loaded lazily by the page. */
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { BarChartCard } from '../../../components/bar-chart-card.tsx';
import { formatDayMonth } from '../../../lib/dates.ts';
import type { ReportSummary } from '../api/reports.ts';

export function ReportsCharts({ summary }: { summary: ReportSummary }) {
  const { t, i18n } = useTranslation();
  const perDay = summary.volume.map((d) => ({ label: formatDayMonth(d.day, i18n.language), total: d.conversations }));
  const ratings = Object.entries(summary.csat.counts)
    // The scale in use (SPEC: 1-3); higher values only once someone gave them.
    .filter(([value, n]) => Number(value) <= 3 || n > 0)
    .map(([value, n]) => ({ label: t('reports.rating', { value }), total: n }));
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' } }}>
      <BarChartCard
        title={t('reports.volumePerDay')}
        testId="chart-volume"
        data={perDay}
        seriesName={t('reports.conversations')}
        emptyText={t('reports.empty')}
        height={260}
      />
      <BarChartCard
        title={t('reports.ratingDistribution')}
        testId="chart-ratings"
        data={ratings}
        seriesName={t('reports.ratingDistribution')}
        emptyText={t('reports.empty')}
        colour="secondary"
        height={260}
      />
    </Box>
  );
}
