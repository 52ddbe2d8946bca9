import { type PublicPlan, type SignupInput, signupSchema } from '@conversa/functions/contracts';
import { Button, Link, MenuItem, Stack, TextField } from '@mui/material';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { PasswordField } from '../../../components/password-field.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { formatMoney } from '../../../lib/money.ts';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { maskPhone } from '../api/phone-mask.ts';
import { usePublicPlans, useSignup } from '../api/signup.ts';
import { AuthCard } from './auth-card.tsx';

interface SignupValues {
  name: string;
  ownerName: string;
  email: string;
  phone: string;
  password: string;
  planId: string;
}

/** SPEC 9: prices with 2 decimals, per month, in the platform's currency (the one the invoices charge, issue 25). */
function planLabel(plan: PublicPlan, t: TFunction): string {
  return t('auth.signup.planLabel', {
    name: plan.name,
    users: plan.users,
    connections: plan.connections,
    queues: plan.queues,
    price: formatMoney(plan.value),
  });
}

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { signIn } = useAuth();
  const plans = usePublicPlans();
  const signup = useSignup();
  const errorText = useApiErrorMessage();
  const [values, setValues] = useState<SignupValues>({ name: '', ownerName: '', email: '', phone: '', password: '', planId: '' });
  const [errors, setErrors] = useState<FieldErrors<SignupValues>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const check = (next: SignupValues) => signupSchema.safeParse({ ...next, recurrence: 'MENSAL' });
  const set = (field: keyof SignupValues) => (e: { target: { value: string } }) => {
    const next = { ...values, [field]: field === 'phone' ? maskPhone(e.target.value) : e.target.value };
    setValues(next);
    // After the first submit the messages follow the typing: a filled field loses its "Required" at once
    // (issue 25), instead of keeping it until the next press of Sign up.
    if (submitted) {
      const parsed = check(next);
      setErrors(parsed.success ? {} : fieldErrors<SignupValues>(parsed.error.issues, t));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const parsed = check(values);
    if (!parsed.success) {
      setErrors(fieldErrors<SignupValues>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    setBusy(true);
    // The optional companyId query parameter (a referral link) travels with the registration.
    const referrer = Number(params.get('companyId'));
    const input: SignupInput & { companyId?: number } =
      Number.isInteger(referrer) && referrer > 0 ? { ...parsed.data, companyId: referrer } : parsed.data;
    try {
      await signup.mutateAsync(input);
      toast.success(t('auth.signup.done'));
    } catch (error) {
      toast.error(errorText(error));
      setBusy(false);
      return;
    }
    try {
      await signIn(parsed.data.email, parsed.data.password);
      navigate('/tickets', { replace: true });
    } catch (error) {
      toast.error(errorText(error));
      navigate('/login', { replace: true });
    }
  };

  return (
    <AuthCard
      title={t('auth.signup.title')}
      footer={
        <Link component={RouterLink} to="/login">
          {t('auth.signup.toLogin')}
        </Link>
      }
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <TextField
          label={t('auth.signup.companyName')}
          value={values.name}
          onChange={set('name')}
          error={Boolean(errors.name)}
          helperText={errors.name}
          autoFocus
        />
        <TextField
          label={t('auth.signup.ownerName')}
          autoComplete="name"
          value={values.ownerName}
          onChange={set('ownerName')}
          error={Boolean(errors.ownerName)}
          helperText={errors.ownerName}
        />
        <TextField
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={Boolean(errors.email)}
          helperText={errors.email}
        />
        <TextField
          label={t('auth.signup.phone')}
          placeholder="(99) 99999-9999"
          value={values.phone}
          onChange={set('phone')}
          error={Boolean(errors.phone)}
          helperText={errors.phone}
          slotProps={{ htmlInput: { inputMode: 'tel' } }}
        />
        <PasswordField
          label={t('auth.fields.password')}
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={Boolean(errors.password)}
          helperText={errors.password}
        />
        <TextField
          select
          label={t('auth.signup.plan')}
          value={values.planId}
          onChange={set('planId')}
          error={Boolean(errors.planId) || plans.isError}
          helperText={errors.planId ?? (plans.isError ? errorText(plans.error) : undefined)}
        >
          {(plans.data ?? []).map((plan) => (
            <MenuItem key={plan.id} value={String(plan.id)}>
              {planLabel(plan, t)}
            </MenuItem>
          ))}
        </TextField>
        <Button type="submit" variant="contained" size="large" loading={busy}>
          {t('auth.signup.submit')}
        </Button>
      </Stack>
    </AuthCard>
  );
}
