import { Button, Link, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * The sign-in's second step when the user has a second factor (issue 21): an authenticator code
 * or a recovery code. A wrong code stays on this step; an expired or burnt challenge goes back to
 * the password (the session was never opened).
 */
export function MfaCodeStep({ onCode, onRestart }: { onCode: (code: string) => Promise<void>; onRestart: () => void }) {
  const { t } = useTranslation();
  const errorText = useApiErrorMessage();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onCode(code.trim());
    } catch (failure) {
      setBusy(false);
      if (failure instanceof ApiError && failure.code === 'ERR_MFA_INVALID_CODE') {
        setError(errorText(failure));
        return;
      }
      toast.error(errorText(failure));
      onRestart();
    }
  };

  return (
    <AuthCard
      title={t('mfaSignIn.title')}
      footer={
        <Link component="button" type="button" onClick={onRestart}>
          {t('mfaSignIn.back')}
        </Link>
      }
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <Typography>{t('mfaSignIn.intro')}</Typography>
        <TextField
          label={t('mfaSignIn.code')}
          name="code"
          autoComplete="one-time-code"
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={Boolean(error)}
          helperText={error}
          slotProps={{ htmlInput: { 'data-testid': 'mfa-signin-code', maxLength: 32 } }}
        />
        <Button type="submit" variant="contained" size="large" loading={busy} data-testid="mfa-signin-submit">
          {t('mfaSignIn.submit')}
        </Button>
      </Stack>
    </AuthCard>
  );
}
