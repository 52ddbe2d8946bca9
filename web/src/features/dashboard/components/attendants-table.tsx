import type { DashboardAttendant } from '@conversa/functions/contracts/dashboard';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { Button, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PresenceDot } from '../../../components/presence-dot.tsx';
import { formatNumber } from '../../../lib/numbers.ts';
import { attendantsCsv, downloadText } from '../lib/attendants-csv.ts';

/** SPEC 2: the attendants table (name, tickets, rating, average time, online: a presence dot, issue 22 §1) with its CSV export. */
export function AttendantsTable({ attendants, loading }: { attendants: DashboardAttendant[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => formatNumber(value, i18n.language);
  const headers = {
    name: t('dashboard.attendant'),
    tickets: t('dashboard.tickets'),
    rating: t('dashboard.rating'),
    avgSupportTime: t('dashboard.avgTime'),
    online: t('dashboard.online'),
  };
  const exportCsv = () =>
    downloadText(
      t('dashboard.csvFile'),
      attendantsCsv(attendants, headers, {
        online: t('presence.online'),
        away: t('presence.away'),
        offline: t('presence.offline'),
      }),
    );

  return (
    <Paper variant="outlined" sx={{ mb: 3 }}>
      <Stack direction="row" sx={{ p: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h6" component="h2">
          {t('dashboard.attendants')}
        </Typography>
        <Button startIcon={<DownloadOutlined />} onClick={exportCsv} disabled={!attendants.length}>
          {t('dashboard.exportCsv')}
        </Button>
      </Stack>
      <TableContainer>
        <Table size="small" aria-label={t('dashboard.attendants')}>
          <TableHead>
            <TableRow>
              <TableCell>{headers.name}</TableCell>
              <TableCell align="right">{headers.tickets}</TableCell>
              <TableCell align="right">{headers.rating}</TableCell>
              <TableCell align="right">{headers.avgSupportTime}</TableCell>
              <TableCell align="center">{headers.online}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {attendants.map((a) => (
              <TableRow key={a.id} data-testid="attendant-row">
                <TableCell>{a.name}</TableCell>
                <TableCell align="right">{a.tickets}</TableCell>
                <TableCell align="right">
                  {a.rating === null ? '-' : t('dashboard.ratingValue', { value: number(a.rating), count: a.ratings })}
                </TableCell>
                <TableCell align="right">{t('dashboard.minutes', { value: number(a.avgSupportTime) })}</TableCell>
                <TableCell align="center">
                  <PresenceDot presence={a.presence} />
                </TableCell>
              </TableRow>
            ))}
            {!attendants.length && !loading && (
              <TableRow>
                <TableCell colSpan={5}>{t('common.noRecords')}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
