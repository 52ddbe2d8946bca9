/**
 * A titled card with one bar chart (recharts), as the dashboard and the reports draw them: a grid,
 * whole-number axes in the theme's secondary text, a tooltip, no animation. With nothing to draw it
 * says so in words instead of showing bare axes (issue 25). Only lazily loaded pages import it, so
 * recharts stays out of the first screen.
 */
import { Box, Paper, Typography, useTheme } from '@mui/material';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface BarPoint {
  label: string;
  total: number;
}

export function BarChartCard({
  title,
  testId,
  data,
  seriesName,
  emptyText,
  colour = 'primary',
  height = 280,
  loaded = true,
}: {
  title: string;
  testId: string;
  data: BarPoint[];
  /** What a bar counts, in the tooltip. */
  seriesName: string;
  /** Said instead of the chart when every bar is zero. */
  emptyText: string;
  colour?: 'primary' | 'secondary';
  height?: number;
  /** False while the answer is still on its way: no "nothing to show" before it is in. */
  loaded?: boolean;
}) {
  const theme = useTheme();
  const axis = { fontSize: 12, fill: theme.palette.text.secondary };
  const empty = loaded && !data.some((point) => point.total);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ height }}>
        {empty ? (
          <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', textAlign: 'center', px: 2 }}>
            <Typography color="text.secondary">{emptyText}</Typography>
          </Box>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data}>
              <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
              <XAxis dataKey="label" tick={axis} />
              <YAxis allowDecimals={false} tick={axis} />
              <Tooltip />
              <Bar dataKey="total" name={seriesName} fill={theme.palette[colour].main} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        )}
      </Box>
    </Paper>
  );
}
