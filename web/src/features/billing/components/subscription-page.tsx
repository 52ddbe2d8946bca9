import { Alert, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useCompany } from '../../../lib/lookups/companies.ts';
import { daysLeft, licenceEnd, showDay } from './billing-dates.ts';

/** SPEC 2 "/subscription": read-only trial days left and billing email, plus a subscribe-now button. */
export function SubscriptionPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const company = useCompany(user?.companyId);
  // SPEC 9: trial days = days between now and trialExpiration; after a payment (or without a trial) the licence's.
  const { end, trial } = licenceEnd(company.data, user?.company.dueDate ?? null);
  const days = end ? daysLeft(end) : undefined;

  return (
    <>
      <PageHeader title={t('billing.subscription.title')} />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 560 }}>
        <Stack spacing={2}>
          {end && days !== undefined && (
            <Alert severity={days < 0 ? 'error' : days < 5 ? 'warning' : 'info'} data-testid="trial-days">
              {days < 0
                ? t('billing.subscription.expired', { date: showDay(end) })
                : `${t(trial ? 'billing.subscription.trialLeft' : 'billing.subscription.licenceLeft', { count: days })} ${t('billing.subscription.dueOn', { date: showDay(end) })}`}
            </Alert>
          )}
          <TextField
            label={t('billing.subscription.email')}
            value={company.data?.email ?? ''}
            slotProps={{ htmlInput: { readOnly: true } }}
            size="small"
          />
          <Typography variant="body2" color="text.secondary">
            {user?.company.name}
          </Typography>
          <Button variant="contained" onClick={() => navigate('/financeiro')}>
            {t('billing.subscription.subscribe')}
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
