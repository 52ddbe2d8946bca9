import { type AuditEntry, auditActions, auditTargetTypes } from '@conversa/functions/contracts/audit';
import FileDownload from '@mui/icons-material/FileDownload';
import { Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DayField } from '../../../components/date-fields.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { formatDayTime } from '../../../lib/dates.ts';
import { downloadText } from '../../../lib/download.ts';
import { useCompanies } from '../../../lib/lookups/companies.ts';
import { useUserNames } from '../../../lib/lookups/users.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fetchAuditCsv, useAuditEntries } from '../api/audit.ts';
import { useAuditFilters } from '../hooks/use-audit-filters.ts';

const shown = (value: unknown): string =>
  value === null || value === undefined || value === '' ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** Each changed field on its own line: `field: before → after` (secrets arrive masked). */
function Changes({ entry }: { entry: AuditEntry }) {
  const fields = Object.entries(entry.changes);
  if (!fields.length) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, fontSize: 13, wordBreak: 'break-word' }}>
      {fields.map(([field, change]) => (
        <li key={field}>
          <strong>{field}</strong>: {shown(change.from)} → {shown(change.to)}
        </li>
      ))}
    </Box>
  );
}

/**
 * Settings > Audit (issue 21 §3): the company's trail, newest first, filtered by days, user, act
 * and kind of target, and exported as CSV with the same filters. Read-only: nothing here edits it.
 */
export function AuditTab() {
  const { t } = useTranslation();
  const { fields, set, filters } = useAuditFilters();
  const entries = useAuditEntries(filters);
  const { user } = useAuth();
  const isSuper = Boolean(user?.super);
  const companies = useCompanies(isSuper);
  // The user filter lists the viewer's own company's users: another company's trail is filtered without it.
  const ownCompany = !fields.companyId || Number(fields.companyId) === user?.companyId;
  const users = useUserNames();
  const showError = useErrorToast();
  const [exporting, setExporting] = useState(false);
  const rows = entries.data?.pages.flatMap((page) => page.entries) ?? [];

  const exportCsv = async () => {
    setExporting(true);
    try {
      downloadText('audit.csv', await fetchAuditCsv(filters));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  const columns: Column<AuditEntry>[] = [
    { id: 'createdAt', label: t('audit.columns.createdAt'), sx: { whiteSpace: 'nowrap' }, render: (e) => formatDayTime(e.createdAt) },
    { id: 'user', label: t('audit.columns.user'), render: (e) => e.userName ?? t('audit.system') },
    { id: 'action', label: t('audit.columns.action'), render: (e) => t(`audit.actions.${e.action}`) },
    {
      id: 'target',
      label: t('audit.columns.target'),
      render: (e) => `${t(`audit.targets.${e.targetType}`)}${e.targetId ? ` ${e.targetId}` : ''}`,
    },
    { id: 'changes', label: t('audit.columns.changes'), render: (e) => <Changes entry={e} /> },
    {
      id: 'origin',
      label: t('audit.columns.origin'),
      hideBelow: 'md',
      render: (e) => (
        <>
          <Typography variant="body2">{e.ip ?? '—'}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
            {e.userAgent ?? ''}
          </Typography>
        </>
      ),
    },
  ];

  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: { md: 'center' } }}>
          <DayField size="small" name="from" label={t('audit.from')} value={fields.from} onChange={(from) => set({ from })} />
          <DayField size="small" name="to" label={t('audit.to')} value={fields.to} onChange={(to) => set({ to })} />
          {isSuper && (
            <TextField
              select
              size="small"
              label={t('audit.company')}
              value={fields.companyId}
              onChange={(e) => set({ companyId: e.target.value, userId: '' })}
              sx={{ width: { xs: '100%', md: 220 } }}
              slotProps={{
                select: { displayEmpty: true },
                inputLabel: { shrink: true },
                htmlInput: { 'data-testid': 'audit-filter-company' },
              }}
            >
              <MenuItem value="">{t('audit.ownCompany')}</MenuItem>
              {(companies.data ?? [])
                .filter((company) => company.id !== user?.companyId)
                .map((company) => (
                  <MenuItem key={company.id} value={String(company.id)}>
                    {company.name}
                  </MenuItem>
                ))}
            </TextField>
          )}
          <TextField
            select
            size="small"
            disabled={!ownCompany}
            label={t('audit.user')}
            value={fields.userId}
            onChange={(e) => set({ userId: e.target.value })}
            sx={{ width: { xs: '100%', md: 200 } }}
            slotProps={{ htmlInput: { 'data-testid': 'audit-filter-user' } }}
          >
            <MenuItem value="">{t('audit.any')}</MenuItem>
            {(users.data ?? []).map((user) => (
              <MenuItem key={user.id} value={String(user.id)}>
                {user.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('audit.action')}
            value={fields.action}
            onChange={(e) => set({ action: e.target.value })}
            sx={{ width: { xs: '100%', md: 240 } }}
            slotProps={{ htmlInput: { 'data-testid': 'audit-filter-action' } }}
          >
            <MenuItem value="">{t('audit.any')}</MenuItem>
            {auditActions.map((action) => (
              <MenuItem key={action} value={action}>
                {t(`audit.actions.${action}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('audit.targetType')}
            value={fields.targetType}
            onChange={(e) => set({ targetType: e.target.value })}
            sx={{ width: { xs: '100%', md: 180 } }}
            slotProps={{ htmlInput: { 'data-testid': 'audit-filter-target' } }}
          >
            <MenuItem value="">{t('audit.any')}</MenuItem>
            {auditTargetTypes.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`audit.targets.${type}`)}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ flexGrow: 1 }} />
          <Button
            variant="outlined"
            startIcon={<FileDownload />}
            onClick={() => void exportCsv()}
            disabled={exporting}
            data-testid="audit-export"
          >
            {t('audit.export')}
          </Button>
        </Stack>
      </Paper>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(entry) => entry.id}
        pending={entries.isPending}
        error={entries.error}
        hasMore={entries.hasNextPage}
        loadingMore={entries.isFetchingNextPage}
        onLoadMore={() => void entries.fetchNextPage()}
        data-testid="audit-table"
        rowTestId={(entry) => `audit-row-${entry.action}`}
      />
    </>
  );
}
