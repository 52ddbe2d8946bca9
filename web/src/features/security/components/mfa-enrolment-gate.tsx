import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Spinner } from '../../../components/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useMfaStatus } from '../api/mfa.ts';
import { MfaEnrol } from './mfa-enrol.tsx';

/**
 * The company requires a second factor of this user, who has none (issue 21): after the password
 * the app is enrolment only (the API answers 403 ERR_MFA_ENROLMENT_REQUIRED elsewhere anyway).
 */
export function MfaEnrolmentGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const status = useMfaStatus();
  if (status.isPending)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }} role="progressbar" aria-busy="true">
        <Spinner />
      </Box>
    );
  if (!status.data?.required || status.data.enabled) return children;
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh', p: 2 }}>
      <Paper sx={{ p: 3, maxWidth: 440, width: '100%' }} data-testid="mfa-enrolment-required">
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('security.requiredTitle')}
          </Typography>
          <Typography>{t('security.requiredIntro')}</Typography>
          <MfaEnrol />
          <Button
            onClick={async () => {
              await signOut();
              navigate('/login', { replace: true });
            }}
          >
            {t('layout.logout')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
