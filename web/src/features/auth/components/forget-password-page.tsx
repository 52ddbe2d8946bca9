import { emailSchema, passwordSchema } from '@conversa/functions/contracts';
import { Button, Link, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { PasswordField } from '../../../components/password-field.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { fieldErrors } from '../../../lib/validation.ts';
import { isUserNotFound } from '../api/auth-errors.ts';
import { confirmNewPassword, requestResetCode } from '../api/reset-password.ts';
import { AuthCard } from './auth-card.tsx';

interface ResetErrors {
  email?: string;
  code?: string;
  password?: string;
  confirm?: string;
}

/** SPEC 4 "Password reset": request a code by email, then enter the code and the new password. */
export function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorText = useApiErrorMessage();
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<ResetErrors>({});
  const [busy, setBusy] = useState(false);

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setErrors({ email: fieldErrors<{ '': string }>(parsed.error.issues, t)[''] });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await requestResetCode(parsed.data);
      setEmail(parsed.data);
      toast.success(t('auth.reset.codeSent'));
      setStep('code');
    } catch (error) {
      toast.error(isUserNotFound(error) ? t('auth.reset.emailNotFound') : errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const resetNow = async (event: FormEvent) => {
    event.preventDefault();
    const next: ResetErrors = {};
    if (!code.trim()) next.code = t('validation.required');
    if (!passwordSchema.safeParse(password).success) next.password = t('validation.weakPassword');
    if (confirm !== password) next.confirm = t('auth.reset.mismatch');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      await confirmNewPassword(email, code.trim(), password);
      toast.success(t('auth.reset.done'));
      navigate('/login', { replace: true });
    } catch (error) {
      toast.error(errorText(error));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t('auth.reset.title')}
      footer={
        <Stack spacing={1}>
          <Link component={RouterLink} to="/login">
            {t('auth.reset.backToLogin')}
          </Link>
          <Link component={RouterLink} to="/signup">
            {t('auth.login.signup')}
          </Link>
        </Stack>
      }
    >
      {step === 'email' ? (
        <Stack component="form" spacing={2} onSubmit={sendCode} noValidate>
          <Typography variant="body2" color="text.secondary">
            {t('auth.reset.emailHint')}
          </Typography>
          <TextField
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={Boolean(errors.email)}
            helperText={errors.email}
          />
          <Button type="submit" variant="contained" size="large" loading={busy}>
            {t('auth.reset.sendCode')}
          </Button>
        </Stack>
      ) : (
        <Stack component="form" spacing={2} onSubmit={resetNow} noValidate>
          <Typography variant="body2" color="text.secondary">
            {t('auth.reset.codeHint', { email })}
          </Typography>
          <TextField
            label={t('auth.reset.code')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={Boolean(errors.code)}
            helperText={errors.code}
            autoFocus
          />
          <PasswordField
            label={t('auth.reset.newPassword')}
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(errors.password)}
            helperText={errors.password}
          />
          <PasswordField
            label={t('auth.reset.confirmPassword')}
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={Boolean(errors.confirm)}
            helperText={errors.confirm}
          />
          <Button type="submit" variant="contained" size="large" loading={busy}>
            {t('auth.reset.submit')}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
