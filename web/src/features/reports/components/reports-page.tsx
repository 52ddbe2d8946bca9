import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import {
  Alert,
  Box,
  Button,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayField } from '../../../components/date-fields.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { formatDay } from '../../../lib/dates.ts';
import { downloadText } from '../../../lib/download.ts';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { useUserNames } from '../../../lib/lookups/users.ts';
import { formatNumber } from '../../../lib/numbers.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fetchReportCsv, type ReportFilter, type ReportSummary, useReportSummary } from '../api/reports.ts';
import { formatDuration } from '../lib/durations.ts';
import { Heatmap } from './heatmap.tsx';

/** recharts comes with the charts only: the figures and tables show without waiting for it. */
const ReportsCharts = lazy(() => import('./reports-charts.tsx').then((m) => ({ default: m.ReportsCharts })));

type Figures = Pick<ReportSummary, 'firstResponse' | 'resolution' | 'csat' | 'slaAttainment' | 'slaMet' | 'slaMissed'>;

function Figure({ label, value, detail, testId }: { label: string; value: ReactNode; detail?: ReactNode; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" data-testid={`${testId}-value`}>
        {value}
      </Typography>
      {detail && (
        <Typography variant="caption" color="text.secondary" data-testid={`${testId}-detail`}>
          {detail}
        </Typography>
      )}
    </Paper>
  );
}

const percent = (value: number | null, language: string) => (value === null ? '—' : `${formatNumber(value, language)} %`);
const average = (value: number | null, language: string) => (value === null ? '—' : formatNumber(value, language));

/** The figures' columns of a table row (queue or attendant). */
function figureCells(row: Figures, t: TFunction, language: string) {
  return (
    <>
      <TableCell align="right">{formatDuration(row.firstResponse.median, t)}</TableCell>
      <TableCell align="right">{formatDuration(row.firstResponse.p90, t)}</TableCell>
      <TableCell align="right">{formatDuration(row.resolution.median, t)}</TableCell>
      <TableCell align="right">{formatDuration(row.resolution.p90, t)}</TableCell>
      <TableCell align="right">{average(row.csat.average, language)}</TableCell>
      <TableCell align="right">{percent(row.slaAttainment, language)}</TableCell>
    </>
  );
}

function FiguresTable({
  title,
  rows,
  testId,
  withConversations,
}: {
  title: string;
  rows: (Figures & { key: number; name: string; conversations?: number })[];
  testId: string;
  withConversations: boolean;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {rows.length ? (
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('reports.name')}</TableCell>
                {withConversations && <TableCell align="right">{t('reports.conversations')}</TableCell>}
                <TableCell align="right">{`${t('reports.firstResponse')} · ${t('reports.median')}`}</TableCell>
                <TableCell align="right">{`${t('reports.firstResponse')} · ${t('reports.p90')}`}</TableCell>
                <TableCell align="right">{`${t('reports.resolution')} · ${t('reports.median')}`}</TableCell>
                <TableCell align="right">{`${t('reports.resolution')} · ${t('reports.p90')}`}</TableCell>
                <TableCell align="right">CSAT</TableCell>
                <TableCell align="right">SLA</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.key}>
                  <TableCell>{row.name}</TableCell>
                  {withConversations && <TableCell align="right">{row.conversations ?? 0}</TableCell>}
                  {figureCells(row, t, i18n.language)}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : (
        <Typography color="text.secondary">{t('reports.empty')}</Typography>
      )}
    </Paper>
  );
}

function IdsSelect({
  label,
  options,
  value,
  onChange,
  name,
}: {
  label: string;
  options: { id: number; name: string }[];
  value: number[];
  onChange: (ids: number[]) => void;
  name: string;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={label}
      name={name}
      value={value}
      onChange={(e) => onChange((e.target.value as unknown as number[]).map(Number))}
      slotProps={{
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (ids) =>
            (ids as number[]).length
              ? options
                  .filter((o) => (ids as number[]).includes(o.id))
                  .map((o) => o.name)
                  .join(', ')
              : t('reports.all'),
        },
        inputLabel: { shrink: true },
      }}
      sx={{ minWidth: 200, maxWidth: 320 }}
    >
      {options.map((option) => (
        <MenuItem key={option.id} value={option.id}>
          {option.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** /reports (issue 22 §4): admins see the company, attendants their queues (the server decides). */
export function ReportsPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const showError = useErrorToast();
  const [draft, setDraft] = useState<ReportFilter>({ from: '', to: '', queueIds: [], userIds: [] });
  const [applied, setApplied] = useState<ReportFilter>({ from: '', to: '', queueIds: [], userIds: [] });
  const [exporting, setExporting] = useState(false);
  const report = useReportSummary(applied);
  const data = report.data;
  const queues = useQueues();
  const users = useUserNames();
  const mine = new Set(user?.queueIds ?? []);
  const queueOptions = (queues.data ?? []).filter((q) => admin || mine.has(q.id)).map((q) => ({ id: q.id, name: q.name }));
  const userOptions = (users.data ?? []).map((u) => ({ id: u.id, name: u.name }));
  // The server's default period fills the date inputs until the user picks their own.
  useEffect(() => {
    if (data) setDraft((d) => (d.from || d.to ? d : { ...d, from: data.period.from, to: data.period.to }));
  }, [data]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const period = data?.period ?? applied;
      downloadText(`report-${period.from}-${period.to}.csv`, await fetchReportCsv(applied));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };
  const rated = data ? Object.values(data.csat.counts).reduce((n, c) => n + c, 0) : 0;

  return (
    <>
      <PageHeader
        title={t('reports.title')}
        actions={
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportCsv} disabled={exporting || !data}>
            {t('reports.exportCsv')}
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }} useFlexGap>
          <DayField
            size="small"
            name="from"
            label={t('reports.from')}
            value={draft.from}
            onChange={(from) => setDraft((d) => ({ ...d, from }))}
          />
          <DayField size="small" name="to" label={t('reports.to')} value={draft.to} onChange={(to) => setDraft((d) => ({ ...d, to }))} />
          <IdsSelect
            name="queueIds"
            label={t('reports.queues')}
            options={queueOptions}
            value={draft.queueIds}
            onChange={(queueIds) => setDraft((d) => ({ ...d, queueIds }))}
          />
          <IdsSelect
            name="userIds"
            label={t('reports.attendants')}
            options={userOptions}
            value={draft.userIds}
            onChange={(userIds) => setDraft((d) => ({ ...d, userIds }))}
          />
          <Button variant="contained" onClick={() => setApplied(draft)}>
            {t('reports.apply')}
          </Button>
          {report.isFetching && <Spinner size={20} aria-label={t('reports.loading')} />}
        </Stack>
        {report.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t('reports.loadError')}
          </Alert>
        )}
        {data && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }} data-testid="reports-period">
            {t('reports.periodShown', {
              from: formatDay(data.period.from, i18n.language),
              to: formatDay(data.period.to, i18n.language),
              timeZone: data.period.timeZone,
            })}
            {admin ? '' : ` · ${t('reports.ownQueuesOnly')}`}
          </Typography>
        )}
      </Paper>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' }, mb: 3 }}>
        <Figure
          testId="figure-first-response"
          label={t('reports.firstResponse')}
          value={
            data?.firstResponse.count
              ? `${formatDuration(data.firstResponse.median, t)} · ${formatDuration(data.firstResponse.p90, t)}`
              : t('reports.none')
          }
          detail={data && `${t('reports.median')} · ${t('reports.p90')} — ${t('reports.measured', { count: data.firstResponse.count })}`}
        />
        <Figure
          testId="figure-resolution"
          label={t('reports.resolution')}
          value={
            data?.resolution.count
              ? `${formatDuration(data.resolution.median, t)} · ${formatDuration(data.resolution.p90, t)}`
              : t('reports.none')
          }
          detail={data && `${t('reports.median')} · ${t('reports.p90')} — ${t('reports.measured', { count: data.resolution.count })}`}
        />
        <Figure
          testId="figure-csat"
          label={t('reports.csat')}
          value={data ? average(data.csat.average, i18n.language) : '-'}
          detail={data && t('reports.ratings', { count: rated })}
        />
        <Figure
          testId="figure-sla"
          label={t('reports.sla')}
          value={data ? percent(data.slaAttainment, i18n.language) : '-'}
          detail={data && t('reports.slaDetail', { met: data.slaMet, missed: data.slaMissed })}
        />
      </Box>

      {data && (
        <Stack spacing={3}>
          <Suspense
            fallback={
              <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
                <Spinner aria-label={t('reports.loading')} />
              </Box>
            }
          >
            <ReportsCharts summary={data} />
          </Suspense>
          <Heatmap cells={data.heatmap} />
          <FiguresTable
            title={t('reports.byQueue')}
            testId="reports-by-queue"
            withConversations
            rows={data.byQueue.map((q) => ({ ...q, key: q.queueId, name: q.name ?? t('reports.noQueue') }))}
          />
          <FiguresTable
            title={t('reports.byAttendant')}
            testId="reports-by-attendant"
            withConversations={false}
            rows={data.byUser.map((u) => ({ ...u, key: u.userId }))}
          />
        </Stack>
      )}
    </>
  );
}
