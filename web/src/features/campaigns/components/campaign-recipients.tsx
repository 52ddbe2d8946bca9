import { type CampaignRecipientState, campaignRecipientStates } from '@conversa/functions/contracts/campaigns';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { Button, Chip, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { exportInstant } from '../../../lib/company-time.ts';
import { downloadSpreadsheet } from '../../../lib/spreadsheet.ts';
import { spreadsheetText } from '../../../lib/spreadsheet-text.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { type CampaignRecipient, fetchAllCampaignRecipients, useCampaignRecipients } from '../api/campaign-recipients.ts';
import { formatDateTime } from '../api/campaign-rules.ts';

const stateColor = {
  pending: 'default',
  sent: 'info',
  delivered: 'success',
  read: 'success',
  failed: 'error',
  invalid: 'warning',
} as const;

/**
 * The campaign report's recipients (issue 25): each contact the campaign reaches with where its
 * message is (waiting, sent, delivered, read, failed with the reason, invalid), filtered by state, and
 * the list shown exported as CSV.
 */
export function CampaignRecipients({ campaignId }: { campaignId: number }) {
  const { t, i18n } = useTranslation();
  const errorText = useApiErrorMessage();
  const [state, setState] = useState<CampaignRecipientState | ''>('');
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string>();
  const pages = useCampaignRecipients(campaignId, state);
  const rows = pages.data?.pages.flatMap((page) => page.records) ?? [];
  const stateLabel = (value: CampaignRecipientState) => t(`campaigns.report.recipients.states.${value}`);

  const columns: Column<CampaignRecipient>[] = [
    { id: 'name', label: t('campaigns.report.recipients.name'), render: (r) => r.name || '-' },
    { id: 'number', label: t('campaigns.report.recipients.number'), render: (r) => r.number },
    {
      id: 'state',
      label: t('campaigns.report.recipients.state'),
      render: (r) => (
        <Chip size="small" color={stateColor[r.state]} label={stateLabel(r.state)} data-testid={`recipient-state-${r.state}`} />
      ),
    },
    { id: 'at', label: t('campaigns.report.recipients.at'), hideBelow: 'sm', render: (r) => formatDateTime(r.at, i18n.language) },
    { id: 'error', label: t('campaigns.report.recipients.error'), hideBelow: 'md', render: (r) => r.error ?? '' },
  ];

  const exportCsv = async () => {
    setExporting(true);
    setExportError(undefined);
    try {
      const all = await fetchAllCampaignRecipients(campaignId, state);
      await downloadSpreadsheet(t('campaigns.report.recipients.fileName', { id: campaignId }), [
        columns.map((c) => String(c.label)),
        // Names come from imported lists: neutralised where they would read as a formula. Times on
        // the company's clock with their offset (lib/company-time.ts), readable in any zone.
        ...all.map((r) => [spreadsheetText(r.name), r.number, stateLabel(r.state), exportInstant(r.at), r.error ?? '']),
      ]);
    } catch (error) {
      setExportError(errorText(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="campaign-recipients">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('campaigns.report.recipients.title')}
          {pages.data ? ` (${pages.data.pages[0]?.count ?? 0})` : ''}
        </Typography>
        <TextField
          select
          size="small"
          label={t('campaigns.report.recipients.state')}
          value={state || 'all'}
          onChange={(e) => setState(e.target.value === 'all' ? '' : (e.target.value as CampaignRecipientState))}
          sx={{ width: { sm: 200 }, flexShrink: 0 }}
        >
          <MenuItem value="all">{t('campaigns.report.recipients.allStates')}</MenuItem>
          {campaignRecipientStates.map((value) => (
            <MenuItem key={value} value={value}>
              {stateLabel(value)}
            </MenuItem>
          ))}
        </TextField>
        <Button
          startIcon={<DownloadOutlined />}
          onClick={() => void exportCsv()}
          disabled={exporting || !rows.length}
          sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
        >
          {t('campaigns.report.recipients.export')}
        </Button>
      </Stack>
      {exportError && (
        <Typography color="error" variant="body2" sx={{ mb: 1 }}>
          {exportError}
        </Typography>
      )}
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(r) => `${r.number}-${r.name}`}
        rowTestId={() => 'recipient-row'}
        pending={pages.isPending}
        error={pages.error}
        hasMore={pages.hasNextPage}
        loadingMore={pages.isFetchingNextPage}
        onLoadMore={() => void pages.fetchNextPage()}
        maxHeight="480px"
      />
    </Paper>
  );
}
