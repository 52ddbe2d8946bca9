import { Box, Paper, Tooltip, Typography, useTheme } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { ReportSummary } from '../api/reports.ts';

/**
 * Conversations begun by weekday (rows, Sunday first) and hour (columns), the company's clock: a
 * cell's colour is its share of the busiest cell, its number is written inside when not zero.
 */
export function Heatmap({ cells }: { cells: ReportSummary['heatmap'] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const weekdays = t('reports.weekdays').split(',');
  const max = Math.max(1, ...cells.map((c) => c.conversations));
  const at = new Map(cells.map((c) => [`${c.weekday}#${c.hour}`, c.conversations]));
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return (
    <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto' }} data-testid="reports-heatmap">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('reports.heatmap')}
      </Typography>
      <Box
        role="table"
        aria-label={t('reports.heatmap')}
        sx={{ display: 'grid', gridTemplateColumns: '3rem repeat(24, minmax(1.6rem, 1fr))', gap: '2px', minWidth: 680 }}
      >
        <Box />
        {hours.map((h) => (
          <Typography key={h} variant="caption" color="text.secondary" sx={{ textAlign: 'center' }}>
            {h}
          </Typography>
        ))}
        {weekdays.map((day, weekday) => (
          <Box key={day} role="row" sx={{ display: 'contents' }}>
            <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
              {day}
            </Typography>
            {hours.map((hour) => {
              const n = at.get(`${weekday}#${hour}`) ?? 0;
              return (
                <Tooltip key={hour} title={`${day} ${hour}h: ${n}`}>
                  <Box
                    role="cell"
                    data-testid={`heat-${weekday}-${hour}`}
                    sx={{
                      height: 26,
                      borderRadius: 0.5,
                      display: 'flex',
                      alignItems: 'center',
                      justifyContent: 'center',
                      fontSize: 11,
                      bgcolor: n ? alpha(theme.palette.primary.main, 0.15 + 0.85 * (n / max)) : theme.palette.action.hover,
                      color: n / max > 0.5 ? theme.palette.primary.contrastText : theme.palette.text.primary,
                    }}
                  >
                    {n || ''}
                  </Box>
                </Tooltip>
              );
            })}
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
