/** The reports' charts with recharts (the dashboard's library): loaded lazily by the page. */
import { Box, Paper, Typography, useTheme } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDayMonth } from '../../../lib/dates.ts';
import type { ReportSummary } from '../api/reports.ts';

function ChartCard({ title, testId, empty, children }: { title: string; testId: string; empty: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ height: 260 }}>
        {empty ? (
          <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Typography color="text.secondary">{t('reports.empty')}</Typography>
          </Box>
        ) : (
          children
        )}
      </Box>
    </Paper>
  );
}

export function ReportsCharts({ summary }: { summary: ReportSummary }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const axis = { fontSize: 12, fill: theme.palette.text.secondary };
  const perDay = summary.volume.map((d) => ({ label: formatDayMonth(d.day, i18n.language), total: d.conversations }));
  const ratings = Object.entries(summary.csat.counts)
    // The scale in use (SPEC: 1-3); higher values only once someone gave them.
    .filter(([value, n]) => Number(value) <= 3 || n > 0)
    .map(([value, n]) => ({ label: t('reports.rating', { value }), total: n }));
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' } }}>
      <ChartCard title={t('reports.volumePerDay')} testId="chart-volume" empty={!perDay.some((p) => p.total)}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={perDay}>
            <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
            <XAxis dataKey="label" tick={axis} />
            <YAxis allowDecimals={false} tick={axis} />
            <Tooltip />
            <Bar dataKey="total" name={t('reports.conversations')} fill={theme.palette.primary.main} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard title={t('reports.ratingDistribution')} testId="chart-ratings" empty={!ratings.some((r) => r.total)}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={ratings}>
            <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
            <XAxis dataKey="label" tick={axis} />
            <YAxis allowDecimals={false} tick={axis} />
            <Tooltip />
            <Bar dataKey="total" name={t('reports.ratingDistribution')} fill={theme.palette.secondary.main} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
    </Box>
  );
}
