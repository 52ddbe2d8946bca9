import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { useMfaDisable, useMfaStatus } from '../api/mfa.ts';
import { MfaEnrol } from './mfa-enrol.tsx';

/** The user's Security section (issue 21): the second factor's state, enrolment, and turning it off with a code. */
export function SecurityDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const status = useMfaStatus();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="security-title">
      <DialogTitle id="security-title">{t('security.title')}</DialogTitle>
      <DialogContent>
        {!status.data ? <Spinner /> : status.data.enabled ? <MfaOn required={status.data.required} /> : <MfaEnrol />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('security.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function MfaOn({ required }: { required: boolean }) {
  const { t } = useTranslation();
  const errorText = useApiErrorMessage();
  const disable = useMfaDisable();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(code, { onSuccess: () => toast.success(t('security.disabled')) });
  };
  return (
    <Stack spacing={2} component="form" onSubmit={submit} noValidate>
      <Alert severity="success" data-testid="mfa-on">
        {t('security.enabled')}
      </Alert>
      {required ? (
        <Typography>{t('security.requiredByCompany')}</Typography>
      ) : (
        <>
          <TextField
            label={t('security.codeOrRecovery')}
            name="code"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={disable.isError}
            helperText={disable.isError ? errorText(disable.error) : undefined}
            slotProps={{ htmlInput: { maxLength: 32 } }}
          />
          <Button type="submit" color="error" variant="outlined" loading={disable.isPending}>
            {t('security.turnOff')}
          </Button>
        </>
      )}
    </Stack>
  );
}
