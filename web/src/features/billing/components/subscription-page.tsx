import { Alert, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { companyKeys, useCompany } from '../../../lib/lookups/companies.ts';
import { usePaymentLive } from '../hooks/use-payment-live.ts';
import { daysLeft, licenceEnd, showDay } from './billing-dates.ts';
import { SubscriptionWizard } from './subscription-wizard.tsx';

/**
 * SPEC 2 "/subscription": read-only trial days left and billing email, plus a subscribe-now button,
 * which opens the wizard (SPEC 4) at once: the server pays the company's open invoice or issues it
 * (issue 25: it used to lead to an invoice table that was empty until the hourly job ran).
 */
export function SubscriptionPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const company = useCompany(user?.companyId);
  const [subscribing, setSubscribing] = useState(false);
  const [renewedOn, setRenewedOn] = useState<string>();
  usePaymentLive(user?.companyId, (event) => {
    setSubscribing(false);
    setRenewedOn(event.company.dueDate);
    // The days left below count to the company's due date, which the payment just moved.
    void queryClient.invalidateQueries({ queryKey: companyKeys.detail(event.company.id) });
  });
  // SPEC 9: trial days = days between now and trialExpiration; after a payment (or without a trial) the licence's.
  const { end, trial } = licenceEnd(company.data, user?.company.dueDate ?? null);
  const days = end ? daysLeft(end) : undefined;

  return (
    <>
      <PageHeader title={t('billing.subscription.title')} />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 560 }}>
        <Stack spacing={2}>
          {renewedOn && (
            <Alert severity="success" data-testid="licence-renewed">
              {t('billing.subscription.renewed', { date: showDay(renewedOn) })}
            </Alert>
          )}
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
          {/* Just paid: the renewed licence is the answer, not another offer to subscribe. A paid licence
              (no trial) may still pay its next period ahead, and the button says so. */}
          {!renewedOn && (
            <Button variant="contained" onClick={() => setSubscribing(true)} data-testid="subscribe-now">
              {t(trial || days === undefined || days < 0 ? 'billing.subscription.subscribe' : 'billing.subscription.renewAhead')}
            </Button>
          )}
        </Stack>
      </Paper>
      {subscribing && <SubscriptionWizard defaultPlanId={company.data?.planId} onClose={() => setSubscribing(false)} />}
    </>
  );
}
