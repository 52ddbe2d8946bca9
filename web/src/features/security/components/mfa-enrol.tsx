import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { mfaKeys, useMfaSetup, useMfaVerify } from '../api/mfa.ts';

const QR_SIZE = 200;

/**
 * Enrolment (issue 21): a new secret as a QR code (and as text, for typing into the app), the
 * app's code to confirm it, then the ten recovery codes, shown this once.
 */
export function MfaEnrol({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorText = useApiErrorMessage();
  const setup = useMfaSetup();
  const verify = useMfaVerify();
  const [image, setImage] = useState('');
  const [code, setCode] = useState('');
  const otpauthUrl = setup.data?.otpauthUrl;

  useEffect(() => {
    let current = true;
    if (!otpauthUrl) return;
    // The QR library loads with the enrolment, not with the app shell that holds this gate.
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toDataURL(otpauthUrl, { width: QR_SIZE, margin: 1 }))
      .then(
        (url) => current && setImage(url),
        () => current && setImage(''),
      );
    return () => {
      current = false;
    };
  }, [otpauthUrl]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(code);
  };

  const finish = () => {
    void queryClient.invalidateQueries({ queryKey: mfaKeys.status() });
    onDone?.();
  };

  if (verify.data)
    return (
      <Stack spacing={2} data-testid="mfa-recovery">
        <Alert severity="success">{t('security.enabled')}</Alert>
        <Typography>{t('security.recoveryIntro')}</Typography>
        <Box component="ul" data-testid="mfa-recovery-codes" sx={{ fontFamily: 'monospace', columns: 2, m: 0, pl: 3, fontSize: '1rem' }}>
          {verify.data.recoveryCodes.map((recovery) => (
            <li key={recovery}>{recovery}</li>
          ))}
        </Box>
        <Button variant="contained" onClick={finish} data-testid="mfa-recovery-done">
          {t('security.recoverySaved')}
        </Button>
      </Stack>
    );

  if (!setup.data)
    return (
      <Stack spacing={2}>
        <Typography>{t('security.intro')}</Typography>
        {setup.isError && <Alert severity="error">{errorText(setup.error)}</Alert>}
        <Button variant="contained" onClick={() => setup.mutate()} loading={setup.isPending} data-testid="mfa-start">
          {t('security.start')}
        </Button>
      </Stack>
    );

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography>{t('security.scan')}</Typography>
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: QR_SIZE }}>
        {image && <img src={image} width={QR_SIZE} height={QR_SIZE} alt={t('security.qrAlt')} data-testid="mfa-qr" />}
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t('security.typeSecret')}
      </Typography>
      <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="mfa-secret">
        {setup.data.secret}
      </Typography>
      <TextField
        label={t('security.code')}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={verify.isError}
        helperText={verify.isError ? errorText(verify.error) : undefined}
        slotProps={{ htmlInput: { 'data-testid': 'mfa-code', maxLength: 12 } }}
      />
      <Button type="submit" variant="contained" loading={verify.isPending} data-testid="mfa-verify">
        {t('security.verify')}
      </Button>
    </Stack>
  );
}
