import Download from '@mui/icons-material/FileDownloadOutlined';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useCompanyExport, useRequestCompanyExport } from '../api/company-export.ts';

/** An admin takes the company's whole data (contacts, tickets, messages, settings, users) as a zip. */
export function CompanyExport() {
  const { t } = useTranslation();
  const [jobId, setJobId] = useState<string | undefined>(undefined);
  const request = useRequestCompanyExport();
  const job = useCompanyExport(jobId);
  const showError = useErrorToast();
  const status = job.data?.status;
  const working = request.isPending || (Boolean(jobId) && status !== 'done' && status !== 'failed');

  const start = async () => {
    try {
      setJobId((await request.mutateAsync()).jobId);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack spacing={1.5} sx={{ mt: 4, maxWidth: 640 }} data-testid="company-export">
      <Typography variant="subtitle1">{t('settings.companyExport.title')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('settings.companyExport.description')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" onClick={() => void start()} loading={working}>
          {t('settings.companyExport.start')}
        </Button>
        {status === 'done' && job.data?.url && (
          <Button variant="contained" startIcon={<Download />} href={job.data.url} data-testid="company-export-download">
            {t('settings.companyExport.download')}
          </Button>
        )}
      </Stack>
      {working && <Typography variant="body2">{t('settings.companyExport.working')}</Typography>}
      {status === 'failed' && <Alert severity="error">{t('settings.companyExport.failed')}</Alert>}
    </Stack>
  );
}
