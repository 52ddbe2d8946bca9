import ArrowBack from '@mui/icons-material/ArrowBack';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlined';
import DoneAll from '@mui/icons-material/DoneAll';
import EventOutlined from '@mui/icons-material/EventOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlined';
import ListAlt from '@mui/icons-material/ListAlt';
import PersonOff from '@mui/icons-material/PersonOffOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { Alert, Box, Chip, Grid, IconButton, LinearProgress, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Spinner } from '../../../components/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { campaignProgress, formatDateTime, statusColor } from '../api/campaign-rules.ts';
import { campaignKeys, useCampaign } from '../api/campaigns.ts';
import { useCampaignsLive } from '../hooks/use-campaigns-live.ts';
import { CampaignRecipients } from './campaign-recipients.tsx';

/** SPEC 4 / 9: "The report refreshes 5 s after a live update sets FINALIZADA." */
const FINISHED_REFRESH_MS = 5000;

function Tile({ icon, label, value, testId }: { icon: ReactNode; label: string; value: ReactNode; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} data-testid={testId}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <Box sx={{ color: 'primary.main', display: 'flex' }}>{icon}</Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="h6" component="p" data-testid={`${testId}-value`} sx={{ overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      </Stack>
    </Paper>
  );
}

/**
 * SPEC 2 "Campaign report": status, delivered out of valid contacts, a progress bar, tiles for the
 * contacts (valid, invalid), confirmations requested, confirmations, delivered, and the connection,
 * list, schedule and conclusion. Live: each `company-{id}-campaign` event replaces the campaign shown.
 */
export function CampaignReportPage() {
  const { t, i18n } = useTranslation();
  const { campaignId } = useParams();
  const id = Number(campaignId);
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const campaign = useCampaign(id);
  const errorText = useApiErrorMessage();
  const refresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useCampaignsLive(user?.companyId, (record) => {
    if (record.id !== id || record.status !== 'FINALIZADA') return;
    clearTimeout(refresh.current);
    refresh.current = setTimeout(() => void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(id) }), FINISHED_REFRESH_MS);
  });
  useEffect(() => () => clearTimeout(refresh.current), []);

  if (campaign.isPending)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '40vh' }}>
        <Spinner />
      </Box>
    );
  if (campaign.error) return <Alert severity="error">{errorText(campaign.error)}</Alert>;
  const data = campaign.data;
  const progress = campaignProgress(data);
  const when = (at: string | null) => formatDateTime(at, i18n.language);

  return (
    <Stack spacing={2} data-testid="campaign-report">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Tooltip title={t('campaigns.report.back')}>
          <IconButton component={RouterLink} to="/campaigns" aria-label={t('campaigns.report.back')} size="small">
            <ArrowBack />
          </IconButton>
        </Tooltip>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {t('campaigns.report.title', { name: data.name })}
        </Typography>
        <Chip color={statusColor[data.status]} label={t(`campaigns.status.${data.status}`)} data-testid="report-status" />
      </Stack>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="body2" data-testid="report-delivered-of-valid">
            {t('campaigns.report.deliveredOfValid', { delivered: progress.delivered, valid: progress.valid })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {progress.percent}%
          </Typography>
        </Stack>
        <LinearProgress
          variant="determinate"
          value={progress.percent}
          sx={{ height: 10, borderRadius: 5 }}
          aria-label={t('campaigns.report.progress')}
          data-testid="report-progress"
        />
      </Paper>
      <Grid container spacing={2}>
        <Grid size={{ xs: 6, md: 4, lg: 2.4 }}>
          <Tile icon={<GroupOutlined />} label={t('campaigns.report.valid')} value={progress.valid} testId="tile-valid" />
        </Grid>
        <Grid size={{ xs: 6, md: 4, lg: 2.4 }}>
          <Tile icon={<PersonOff />} label={t('campaigns.report.invalid')} value={progress.invalid} testId="tile-invalid" />
        </Grid>
        <Grid size={{ xs: 6, md: 4, lg: 2.4 }}>
          <Tile
            icon={<HelpOutline />}
            label={t('campaigns.report.confirmationRequested')}
            value={data.confirmation ? progress.confirmationRequested : '-'}
            testId="tile-confirmation-requested"
          />
        </Grid>
        <Grid size={{ xs: 6, md: 6, lg: 2.4 }}>
          <Tile
            icon={<CheckCircleOutline />}
            label={t('campaigns.report.confirmed')}
            value={data.confirmation ? progress.confirmed : '-'}
            testId="tile-confirmed"
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6, lg: 2.4 }}>
          <Tile icon={<DoneAll />} label={t('campaigns.report.delivered')} value={progress.delivered} testId="tile-delivered" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Tile icon={<WhatsApp />} label={t('campaigns.fields.connection')} value={data.whatsapp?.name ?? '-'} testId="tile-connection" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Tile icon={<ListAlt />} label={t('campaigns.fields.contactList')} value={data.contactList?.name ?? '-'} testId="tile-list" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Tile icon={<EventOutlined />} label={t('campaigns.report.schedule')} value={when(data.scheduledAt)} testId="tile-schedule" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Tile icon={<FlagOutlined />} label={t('campaigns.report.conclusion')} value={when(data.completedAt)} testId="tile-conclusion" />
        </Grid>
      </Grid>
      <CampaignRecipients campaignId={id} />
    </Stack>
  );
}
