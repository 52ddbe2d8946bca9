import { Alert } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { forgetSignOutReason, readSignOutReason } from '../../../lib/auth/sign-out-reason.ts';

/** Why the last session ended (another computer, a new password, the company's expiry), until closed. */
export function SignOutReasonAlert() {
  const { t } = useTranslation();
  const [reason, setReason] = useState(readSignOutReason);
  if (!reason) return null;
  const close = () => {
    forgetSignOutReason();
    setReason(undefined);
  };
  return (
    <Alert severity="warning" onClose={close} closeText={t('auth.closeReason')} sx={{ mb: 2 }} data-testid="sign-out-reason" role="alert">
      {'key' in reason ? t(reason.key) : reason.text}
    </Alert>
  );
}
