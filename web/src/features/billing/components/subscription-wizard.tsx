import type { Invoice, SubscriptionPayment } from '@conversa/functions/contracts/billing';
import {
  Button,
  Card,
  CardActions,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  MenuItem,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/money.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { type AddressForm, addressFormSchema, emptyAddress, useBillingPlans, useSubscribe } from '../api/subscription.ts';
import { showDay } from './billing-dates.ts';
import { PixPayment } from './pix-payment.tsx';

const addressFields = ['firstName', 'lastName', 'address2', 'city', 'state', 'zipcode', 'cpfCnpj'] as const;
const labels: Record<(typeof addressFields)[number], string> = {
  firstName: 'billing.wizard.firstName',
  lastName: 'billing.wizard.lastName',
  address2: 'billing.wizard.address',
  city: 'billing.wizard.city',
  state: 'billing.wizard.state',
  zipcode: 'billing.wizard.zipcode',
  cpfCnpj: 'billing.wizard.cpfCnpj',
};

/**
 * SPEC 4 "Subscription wizard": step 0 the address, step 1 the plan (choosing one advances), step 2
 * the review with PAGAR; the answer is the PIX QR step, which stays until the payment event arrives.
 * From an invoice's Pay it pays that invoice; from /subscription's "Subscribe now" (no invoice) the
 * server pays the company's open invoice, issuing it when there is none (issue 25).
 */
export function SubscriptionWizard({
  invoice,
  defaultPlanId,
  onClose,
}: {
  invoice?: Invoice;
  /** The plan offered first without an invoice: the company's own. */
  defaultPlanId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const plans = useBillingPlans();
  const subscribe = useSubscribe();
  const [step, setStep] = useState(0);
  const [address, setAddress] = useState<AddressForm>(emptyAddress);
  const [errors, setErrors] = useState<FieldErrors<AddressForm>>({});
  const [planId, setPlanId] = useState(invoice?.planId ?? defaultPlanId);
  const [payment, setPayment] = useState<SubscriptionPayment>();
  const plan = plans.data?.find((candidate) => candidate.id === planId);

  const next = () => {
    const parsed = addressFormSchema.safeParse(address);
    if (!parsed.success) {
      setErrors(fieldErrors<AddressForm>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    setStep(1);
  };
  const pay = () => {
    if (!planId) return;
    subscribe.mutate(
      { ...address, ...(invoice ? { invoiceId: invoice.id } : {}), plan: planId },
      {
        onSuccess: (answer) => {
          toast.success(t('billing.wizard.submitted'));
          setPayment(answer);
          setStep(3);
        },
        onError: showError,
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="subscription-wizard">
      <DialogTitle>{t('billing.wizard.title')}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={Math.min(step, 3)} sx={{ mb: 3 }}>
          {(['data', 'plan', 'review'] as const).map((key) => (
            <Step key={key}>
              <StepLabel>{t(`billing.wizard.steps.${key}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {step === 0 && (
          <Grid container spacing={2}>
            {addressFields.map((field) => (
              <Grid key={field} size={{ xs: 12, sm: field === 'address2' ? 12 : 6 }}>
                <TextField
                  label={t(labels[field])}
                  name={field}
                  value={address[field] ?? ''}
                  onChange={(event) => {
                    setAddress({ ...address, [field]: event.target.value });
                    if (errors[field]) setErrors({ ...errors, [field]: undefined });
                  }}
                  error={Boolean(errors[field])}
                  helperText={errors[field]}
                  fullWidth
                  size="small"
                />
              </Grid>
            ))}
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                select
                label={t('billing.wizard.country')}
                value={address.country}
                onChange={(event) => setAddress({ ...address, country: event.target.value as AddressForm['country'] })}
                fullWidth
                size="small"
              >
                <MenuItem value="BR">BR</MenuItem>
                <MenuItem value="usa">usa</MenuItem>
              </TextField>
            </Grid>
          </Grid>
        )}
        {step === 1 && (
          <Grid container spacing={2}>
            {(plans.data ?? [])
              .filter((candidate) => candidate.value > 0)
              .map((candidate) => (
                <Grid key={candidate.id} size={{ xs: 12, sm: 6, md: 4 }}>
                  <Card variant="outlined" sx={candidate.id === planId ? { borderColor: 'primary.main', borderWidth: 2 } : undefined}>
                    <CardContent>
                      <Typography variant="h6">{candidate.name}</Typography>
                      <Typography variant="h5" sx={{ my: 1 }}>
                        {formatMoney(candidate.value)}
                        <Typography component="span" variant="body2" color="text.secondary">
                          {t('billing.wizard.perMonth')}
                        </Typography>
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t('billing.wizard.planLimits', {
                          users: candidate.users,
                          connections: candidate.connections,
                          queues: candidate.queues,
                        })}
                      </Typography>
                    </CardContent>
                    <CardActions>
                      <Button
                        variant={candidate.id === planId ? 'contained' : 'outlined'}
                        onClick={() => {
                          setPlanId(candidate.id);
                          setStep(2);
                        }}
                      >
                        {t('billing.wizard.choose')}
                      </Button>
                    </CardActions>
                  </Card>
                </Grid>
              ))}
          </Grid>
        )}
        {step === 2 && (
          <Stack spacing={1} data-testid="subscription-review">
            <Typography variant="h6">{t('billing.wizard.reviewTitle')}</Typography>
            {invoice && (
              <Typography>
                {t('billing.wizard.invoice')}: #{invoice.id} ({showDay(invoice.dueDate)})
              </Typography>
            )}
            <Typography>
              {t('billing.wizard.plan')}: {plan?.name ?? invoice?.detail}
            </Typography>
            <Typography>
              {t('billing.wizard.billedTo')}: {address.firstName} {address.lastName}, {address.address2} {address.city} {address.state}{' '}
              {address.zipcode} {address.country}
            </Typography>
            <Typography variant="h6">
              {t('billing.wizard.total')}: {formatMoney(plan?.value ?? invoice?.value ?? 0)}
            </Typography>
          </Stack>
        )}
        {step === 3 && payment && <PixPayment payment={payment} />}
      </DialogContent>
      <DialogActions>
        {step > 0 && step < 3 && (
          <Button onClick={() => setStep(step - 1)} disabled={subscribe.isPending}>
            {t('billing.wizard.back')}
          </Button>
        )}
        {step === 0 && (
          <Button variant="contained" onClick={next}>
            {t('billing.wizard.next')}
          </Button>
        )}
        {step === 2 && (
          <Button variant="contained" onClick={pay} disabled={subscribe.isPending || !planId} data-testid="subscription-pay">
            {t('billing.wizard.pay')}
          </Button>
        )}
        {step === 3 && <Button onClick={onClose}>{t('common.cancel')}</Button>}
      </DialogActions>
    </Dialog>
  );
}
